/**
 * `specforge mock` for OpenAPI over real HTTP on 127.0.0.1 (issue 30): every operation of the seed webhooks and
 * members specs is called once through the generated client with generated valid inputs, and every answer must pass
 * the generated validator of the response the spec declares. Then request validation (400 with JSON pointers),
 * `Prefer: code= / example= / dynamic=`, spec examples (and a wrong one passed over), determinism, the request log,
 * and the CLI command itself.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { serveNode, type NodeServerHandle } from "../../src/runtime/http/node.js";
import { loadSpecForMock, type LoadedSpec } from "../../src/mock/load.js";
import { createRestMock, mockBasePath, mockedOperations, type MockLogEntry } from "../../src/mock/rest.js";
import { ValueGenerator } from "../../src/mock/values.js";
import type { HttpOperation, HttpService } from "../../src/ir/model.js";
import { REPO, SHARED } from "../helpers/seeds.js";
import { credentials, defaultStatus, requestFor, validatorFor } from "./helpers/rest-calls.js";

type Fn = (...args: unknown[]) => unknown;
const servers: NodeServerHandle[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

async function start(spec: LoadedSpec, options: Parameters<typeof createRestMock>[1] = {}): Promise<{ url: string; log: MockLogEntry[] }> {
  const log: MockLogEntry[] = [];
  const server = await serveNode(createRestMock(spec, { ...options, log: (e) => log.push(e) }), { port: 0, host: "127.0.0.1" });
  servers.push(server);
  return { url: server.url, log };
}

describe.each(["webhooks.openapi.yaml", "members.openapi.yaml"])("specforge mock %s over HTTP", (file) => {
  let spec: LoadedSpec;
  let url: string;
  let log: MockLogEntry[];
  let service: HttpService;
  let baseUrl: string;
  /** Headers with the credentials both seeds use (webhooks: basic; members: PRIVATE-TOKEN). */
  const auth = () => ({ authorization: "Basic dTpw", "private-token": "t" });

  it("serves every operation through the generated client with answers the generated validators accept", async () => {
    spec = await loadSpecForMock({ spec: path.join(REPO, "specs", file) });
    ({ url, log } = await start(spec, { seed: 7 }));
    service = spec.doc.services.find((s): s is HttpService => s.kind === "http")!;
    baseUrl = url + mockBasePath(service);
    const client = (spec.module[spec.names.api(0).createClient] as Fn)({ baseUrl, auth: credentials(service) }) as Record<string, Fn>;
    const gen = new ValueGenerator(spec.doc);
    const ops = mockedOperations(spec);
    expect(ops.length).toBeGreaterThan(5);
    let checked = 0;
    for (const { operation: op } of ops) {
      const res = (await client[spec.names.operation(op).method]!(requestFor(spec, gen, op, 1))) as { status: number; body: unknown };
      expect(res.status, op.name).toBe(defaultStatus(op));
      const validate = validatorFor(spec, op, res.status);
      if (validate) {
        expect(validate(res.body), `${op.name}: ${JSON.stringify(res.body)}`).toEqual([]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
    expect(log.map((e) => e.operation)).toEqual(ops.map((o) => o.operation.name));
    expect(log.every((e) => e.source === "generated" || e.source === "example" || e.source === "none")).toBe(true);
  });

  it("answers 401 (with WWW-Authenticate) where the operation requires a credential the request lacks", async () => {
    const secured = service.operations.filter((o) => (o.security ?? []).length > 0);
    expect(secured.length).toBeGreaterThan(0);
    // Valid requests through the generated client, without credentials.
    const client = (spec.module[spec.names.api(0).createClient] as Fn)({ baseUrl }) as Record<string, Fn>;
    const gen = new ValueGenerator(spec.doc);
    for (const op of secured) {
      const declared = op.responses.some((r) => r.status === "401");
      const call = client[spec.names.operation(op).method]!(requestFor(spec, gen, op, 2)) as Promise<{ status: number; body: unknown; headers: Headers }>;
      if (!declared) {
        await expect(call).rejects.toMatchObject({ status: 401 });
        continue;
      }
      const res = await call;
      expect(res.status, op.name).toBe(401);
      expect(res.headers.get("www-authenticate")).toBeTruthy();
      expect(validatorFor(spec, op, 401)?.(res.body) ?? [], op.name).toEqual([]);
    }
  });

  it("refuses an invalid request with 400 naming the failing JSON pointer", async () => {
    const op = service.operations.find((o) => o.requestBody && o.requestBody.contents.some((c) => c.type.kind === "ref"))!;
    const target = baseUrl + op.path.replace(/\{[^}]+\}/g, "1");
    const res = await fetch(target, { method: op.method.toUpperCase(), headers: { "content-type": "application/json", ...auth() }, body: JSON.stringify([]) });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { issues: { path: string }[] };
    expect(body.issues.length).toBeGreaterThan(0);
    expect(body.issues[0]!.path).toMatch(/^(\/.*)?$/);
    // A path parameter of the wrong type is refused before the body is read, under /path/<name>.
    const typed = service.operations.find((o) => o.parameters.some((p) => p.in === "path" && p.type.kind === "scalar" && /int/.test(p.type.scalar)));
    if (typed) {
      const p = typed.parameters.find((x) => x.in === "path")!;
      const bad = await fetch(baseUrl + typed.path.replace(`{${p.name}}`, "not-a-number").replace(/\{[^}]+\}/g, "1"), { method: typed.method.toUpperCase(), headers: auth() });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { issues: { path: string }[] }).issues.map((i) => i.path)).toContain(`/path/${p.name}`);
    }
  });

  it("answers Prefer: code= with that response, valid against its schema; an undeclared code is a 500", async () => {
    const op = service.operations.find((o) => o.method === "get" && o.responses.some((r) => /^4\d\d$/.test(r.status) && r.contents.length > 0))!;
    const code = Number(op.responses.find((r) => /^4\d\d$/.test(r.status))!.status);
    const target = baseUrl + op.path.replace(/\{[^}]+\}/g, "1");
    const res = await fetch(target, { headers: { prefer: `code=${code}`, ...auth() } });
    expect(res.status).toBe(code);
    expect(validatorFor(spec, op, code)!(await res.json())).toEqual([]);
    const none = await fetch(target, { headers: { prefer: "code=418", ...auth() } });
    expect(none.status).toBe(500);
  });

  it("is deterministic without --dynamic and draws new values with Prefer: dynamic=true", async () => {
    const op = service.operations.find((o) => o.method === "get" && o.responses.some((r) => r.contents.length > 0))!;
    const target = baseUrl + op.path.replace(/\{[^}]+\}/g, "1");
    const a = await (await fetch(target, { headers: auth() })).text();
    const b = await (await fetch(target, { headers: auth() })).text();
    expect(a).toBe(b);
    const again = await start(spec, { seed: 7 });
    expect(await (await fetch(again.url + mockBasePath(service) + op.path.replace(/\{[^}]+\}/g, "1"), { headers: auth() })).text()).toBe(a);
    const dyn = new Set<string>();
    for (let i = 0; i < 5; i++) dyn.add(await (await fetch(target, { headers: { prefer: "dynamic=true", ...auth() } })).text());
    expect(dyn.size).toBeGreaterThan(1);
  });
});

const OAI = path.join(SHARED, "corpus/openapi/oai");
const OAI_DOCS = ["v2.0/petstore.yaml", "v2.0/petstore-expanded.yaml", "v2.0/petstore-simple.yaml", "v2.0/petstore-minimal.yaml", "v2.0/petstore-with-external-docs.yaml", "v2.0/petstore-separate/spec/swagger.yaml", "v2.0/uber.yaml", "v2.0/api-with-examples.yaml", "v3.0-petstore.yaml", "v3.0-petstore-expanded.yaml", "v3.0-uspto.yaml", "v3.0-link-example.yaml", "v3.0-callback-example.yaml", "v3.0-api-with-examples.yaml", "v3.1-tictactoe.yaml", "v3.1-non-oauth-scopes.yaml", "v3.1-webhook-example.yaml"];

describe("specforge mock on the OAI example documents", () => {
  it.each(OAI_DOCS)("%s: every operation answers through the generated client, valid by the generated validator", async (doc) => {
    const spec = await loadSpecForMock({ spec: path.join(OAI, doc) });
    const { url } = await start(spec);
    const gen = new ValueGenerator(spec.doc);
    let served = 0;
    for (const [index, service] of spec.doc.services.entries()) {
      if (service.kind !== "http") continue;
      const client = (spec.module[spec.names.api(index).createClient] as Fn)({ baseUrl: url + mockBasePath(service), auth: credentials(service) }) as Record<string, Fn>;
      for (const op of service.operations) {
        const call = client[spec.names.operation(op).method]!(requestFor(spec, gen, op, 3)) as Promise<{ status: number; body: unknown }>;
        if (op.responses.length === 0) {
          // Nothing declared: a 500 saying so (as Prism's NO_RESPONSE_DEFINED), which the client reports as undeclared.
          await expect(call).rejects.toMatchObject({ status: 500 });
          served++;
          continue;
        }
        const res = await call;
        expect(res.status, op.name).toBe(defaultStatus(op));
        const validate = validatorFor(spec, op, res.status);
        if (validate) expect(validate(res.body), op.name).toEqual([]);
        served++;
      }
    }
    console.log(`${doc}: ${served} operations served`);
    expect(served).toBe(mockedOperations(spec).length);
  }, 60_000);
});

describe("examples and Prefer: example=", () => {
  it("serves the spec's named examples, passes over an example that fails the schema, and falls back to generated values", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "specforge-mock-"));
    const file = path.join(dir, "pets.yaml");
    writeFileSync(file, `openapi: 3.0.3
info: {title: Pets, version: "1"}
paths:
  /pets/{id}:
    get:
      operationId: getPet
      parameters: [{name: id, in: path, required: true, schema: {type: integer, minimum: 1}}]
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Pet"}
              examples:
                broken: {value: {name: 42}}
                rex: {value: {id: 1, name: Rex, tag: dog}}
                tom: {value: {id: 2, name: Tom}}
        "404":
          description: missing
          content:
            application/json:
              schema: {type: object, required: [message], properties: {message: {type: string}}}
components:
  schemas:
    Pet:
      type: object
      required: [id, name]
      properties:
        id: {type: integer, format: int64, minimum: 1}
        name: {type: string, minLength: 1, pattern: "^[A-Z][a-z]+$"}
        tag: {type: string, enum: [dog, cat]}
`);
    const spec = await loadSpecForMock({ spec: file });
    const { url, log } = await start(spec);
    const get = (prefer?: string) => fetch(`${url}/pets/5`, prefer ? { headers: { prefer } } : {});
    expect(await (await get()).json()).toEqual({ id: 1, name: "Rex", tag: "dog" });
    expect(log.at(-1)).toMatchObject({ operation: "getPet", status: 200, source: "example", example: "rex", note: expect.stringContaining("example broken at pets.yaml:") });
    expect(await (await get("example=tom")).json()).toEqual({ id: 2, name: "Tom" });
    const dynamic = (await (await get("dynamic=true")).json()) as { id: number; name: string };
    expect((spec.module["validatePet"] as Fn)(dynamic)).toEqual([]);
    expect(log.at(-1)!.source).toBe("generated");
    const missing = await get("code=404");
    expect(missing.status).toBe(404);
    expect(typeof ((await missing.json()) as { message: unknown }).message).toBe("string");
    expect((await fetch(`${url}/pets/0`)).status).toBe(400);
  });

  it("serves schema-less examples of the OAI api-with-examples document as written", async () => {
    const spec = await loadSpecForMock({ spec: path.join(SHARED, "corpus/openapi/oai/v3.0-api-with-examples.yaml") });
    const { url } = await start(spec);
    const body = (await (await fetch(`${url}/`)).json()) as { versions: { id: string }[] };
    expect(body.versions.map((v) => v.id)).toEqual(["v2.0", "v3.0"]);
    const multiple = await fetch(`${url}/`, { headers: { prefer: "code=300" } });
    expect(multiple.status).toBe(300);
  });
});

describe("the specforge mock command", () => {
  it("listens, logs each request on stderr and stops on SIGTERM", async () => {
    const child = spawn(process.execPath, [path.join(REPO, "bin/specforge.js"), "mock", "specs/webhooks.openapi.yaml", "--port", "0", "--json"], { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    const listening = new Promise<{ url: string; operations: number }>((resolve, reject) => {
      child.stderr.on("data", (d: Buffer) => {
        stderr += d.toString();
        const line = stderr.split("\n").find((l) => l.includes('"listening"'));
        if (line) resolve(JSON.parse(line) as { url: string; operations: number });
      });
      child.on("exit", () => reject(new Error(`exited: ${stderr}`)));
    });
    const { url, operations } = await listening;
    expect(operations).toBe(8);
    const res = await fetch(`${url}/api/v2/webhooks/count`, { headers: { authorization: "Basic dTpw", origin: "http://localhost:5173" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    // CORS as the emulators do it: a page on localhost may send Prefer and read the declared response headers.
    const preflight = await fetch(`${url}/api/v2/webhooks`, { method: "OPTIONS", headers: { origin: "http://localhost:5173", "access-control-request-method": "GET", "access-control-request-headers": "prefer, authorization" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("prefer");
    await new Promise((r) => setTimeout(r, 100));
    const request = stderr.split("\n").filter((l) => l.includes('"request"')).map((l) => JSON.parse(l) as MockLogEntry);
    expect(request).toEqual([expect.objectContaining({ method: "GET", path: "/api/v2/webhooks/count", status: 200, operation: "countWebhooks" })]);
    const exited = new Promise<number | null>((r) => child.once("exit", r));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 60_000);
});
