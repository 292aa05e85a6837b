/**
 * The first-party plugin `specforge:msw` (issue 33): msw.ts generated through the CLI for the seed REST specs
 * (webhooks, members) and OAI corpus documents, type-checked strict against msw's own types, and run with the real
 * `msw` 2.x in node (`setupServer` from msw/node): every operation called through the generated client answers what
 * `specforge mock` answers (same status, same body) and passes the generated validator; an invalid request gets the
 * mock's 400; overrides, the base URL and plain fetch; the file written, owned, checked and counted like built-in
 * output. The docs/plugins.md MSW example runs as written.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { http, HttpResponse } from "msw";
import { setupServer, type SetupServer } from "msw/node";
import ts from "typescript";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadSpecForMock, type LoadedSpec } from "../../src/mock/load.js";
import { createRestMock } from "../../src/mock/rest.js";
import type { HttpService } from "../../src/ir/model.js";
import { defaultStatus, everyOperationAsTheMock } from "../helpers/mock-requests.js";
import { runCli } from "../helpers/run-cli.js";
import { REPO, SHARED } from "../helpers/seeds.js";
import { STRICT_OPTIONS } from "../helpers/typecheck.js";

type Fn = (...args: unknown[]) => unknown;
type MswModule = Record<string, unknown>;

const OAI = path.join(SHARED, "corpus/openapi/oai");
/** The seed REST specs and OAI corpus documents, by their folder under generated/. */
const OAI_DOCS = ["v2.0/petstore.yaml", "v2.0/petstore-expanded.yaml", "v2.0/petstore-simple.yaml", "v2.0/petstore-minimal.yaml", "v2.0/petstore-with-external-docs.yaml", "v2.0/uber.yaml", "v2.0/api-with-examples.yaml", "v3.0-petstore.yaml", "v3.0-petstore-expanded.yaml", "v3.0-uspto.yaml", "v3.0-link-example.yaml", "v3.0-callback-example.yaml", "v3.0-api-with-examples.yaml", "v3.1-tictactoe.yaml", "v3.1-non-oauth-scopes.yaml"];
/** The seed REST specs and the OAI example documents (as the mock's test runs them), by their folder under generated/. */
const SPECS: { file: string; from: string; dir: string }[] = [
  { file: "webhooks.openapi.yaml", from: path.join(REPO, "specs/webhooks.openapi.yaml"), dir: "webhooks" },
  { file: "members.openapi.yaml", from: path.join(REPO, "specs/members.openapi.yaml"), dir: "members" },
  { file: "pets.yaml", from: "", dir: "pets" },
  ...OAI_DOCS.map((d) => {
    const dir = d.replace(/\.yaml$/, "").replace(/[/.]/g, "-");
    return { file: `${dir}.yaml`, from: path.join(OAI, d), dir };
  }),
];

/**
 * A spec for the corners: examples (one failing the schema, passed over), a required response header, a 204 that
 * declares content, an operation without responses, a path parameter named with a hyphen and a segment with a
 * colon, an inline body, schemas named like msw's exports, a server URL template and `*\/` in spec text.
 */
const PETS = `openapi: 3.0.3
info: {title: "Pets */ API", version: "1"}
servers: [{url: "{scheme}://pets.example/v1", variables: {scheme: {default: https}}}]
paths:
  /pets/{pet-id}:
    get:
      operationId: getPet
      parameters: [{name: pet-id, in: path, required: true, schema: {type: integer, minimum: 1}}]
      responses:
        "200":
          description: ok
          headers:
            X-Rate-Limit: {required: true, schema: {type: integer, minimum: 0, maximum: 100}}
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Pet"}
              examples:
                broken: {value: {name: 42}}
                rex: {value: {id: 1, name: Rex, tag: dog, born: "2020-02-29T12:00:00Z"}}
                tom: {value: {id: 2, name: Tom}}
    delete:
      operationId: deletePet
      parameters: [{name: pet-id, in: path, required: true, schema: {type: integer, minimum: 1}}]
      responses:
        "204":
          description: "gone */"
          content:
            application/json:
              schema: {$ref: "#/components/schemas/HttpHandler"}
  /pets:batch:
    post:
      operationId: batchPets
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: array, items: {$ref: "#/components/schemas/Pet"}}
      responses:
        "200":
          description: names
          content:
            application/json:
              schema: {type: array, items: {type: string}}
              example: [Rex, Tom]
  /ping:
    get:
      operationId: ping
      responses: {}
components:
  schemas:
    Pet:
      type: object
      required: [id, name]
      properties:
        id: {type: integer, format: int64, minimum: 1}
        name: {type: string, minLength: 1, pattern: "^[A-Z][a-z]+$"}
        tag: {type: string, enum: [dog, cat]}
        born: {type: string, format: date-time}
    HttpHandler:
      type: object
      properties:
        msw: {type: string}
`;

let dir: string;
const servers: SetupServer[] = [];

/** The fenced block that follows `<!-- example: name -->` in docs/plugins.md. */
function example(name: string): string {
  const doc = readFileSync(path.join(REPO, "docs/plugins.md"), "utf8");
  const at = doc.indexOf(`<!-- example: ${name} -->`);
  expect(at, `example ${name}`).toBeGreaterThanOrEqual(0);
  return /```\w*\n([\s\S]*?)```/.exec(doc.slice(at))![1]!;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "specforge-msw-"));
  mkdirSync(path.join(dir, "specs"));
  for (const s of SPECS) if (s.from !== "") copyFileSync(s.from, path.join(dir, "specs", s.file));
  writeFileSync(path.join(dir, "specs/pets.yaml"), PETS);
  // The generated files import "msw" as a user's project would: from its node_modules (this repo's).
  symlinkSync(path.join(REPO, "node_modules"), path.join(dir, "node_modules"), "dir");
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
  // The pets spec once more with dates as Date objects: generated values are written as `new Date(...)`, examples
  // go through the generated decoder.
  const entries = [...SPECS.map((s) => `specs/${s.file}`), { input: "specs/pets.yaml", out: "pets-dates", dates: "Date" }];
  writeFileSync(path.join(dir, "specforge.config.json"), JSON.stringify({ specs: entries, plugins: ["specforge:msw"] }));
  const r = await runCli(dir, "generate", "--json");
  expect(r.err).toBe("");
  expect(r.code).toBe(0);
});

afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function listen(...handlers: Parameters<typeof setupServer>): SetupServer {
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: "error" });
  servers.push(server);
  return server;
}

async function mswOf(specDir: string): Promise<MswModule> {
  return (await import(pathToFileURL(path.join(dir, "generated", specDir, "msw.ts")).href)) as MswModule;
}

/** `<api>MswHandlers` and `<api>MockHandlers` of the file (one HTTP service per document here). */
function exportsOf(mod: MswModule): { handlers: (options?: unknown) => Parameters<typeof setupServer>; defaults: Record<string, Fn> } {
  const factory = Object.keys(mod).find((k) => k.endsWith("MswHandlers"))!;
  const defaults = Object.keys(mod).find((k) => k.endsWith("MockHandlers"))!;
  return { handlers: mod[factory] as (options?: unknown) => Parameters<typeof setupServer>, defaults: mod[defaults] as Record<string, Fn> };
}

const BASE_PATH = "/base";
const BASE = `https://api.example.test${BASE_PATH}`;


describe("specforge:msw", () => {
  const served = new Map<string, number>();
  const checked = new Map<string, number>();

  afterAll(() => {
    // The numbers the report quotes: operations answered through MSW per document.
    console.log(`msw plugin: operations served ${[...served].map(([d, n]) => `${d} ${n}`).join(", ")}; total ${[...served.values()].reduce((a, b) => a + b, 0)}, of which ${[...checked.values()].reduce((a, b) => a + b, 0)} with a body checked by its generated validator`);
  });

  it.each(SPECS.map((s) => s.dir))("%s: every operation through the generated client answers as specforge mock does, valid by the generated validator", async (specDir) => {
    const s = SPECS.find((x) => x.dir === specDir)!;
    const spec: LoadedSpec = await loadSpecForMock({ spec: path.join(dir, "specs", s.file) });
    const mock = createRestMock(spec, { basePath: BASE_PATH });
    const { handlers } = exportsOf(await mswOf(specDir));
    listen(...handlers({ baseUrl: BASE }));
    const { served: n, validated } = await everyOperationAsTheMock(spec, mock, BASE);
    served.set(specDir, n);
    checked.set(specDir, validated);
  });

  it("corners: the first example the schema accepts, required headers, a hyphenated parameter, a colon in a path", async () => {
    const { handlers } = exportsOf(await mswOf("pets"));
    const text = readFileSync(path.join(dir, "generated/pets/msw.ts"), "utf8");
    // The spec's text stays in strings and escaped comments.
    expect(text).not.toMatch(/Pets \*\/ API/);
    expect(text).toContain('msw.http.get(origin + path + "/pets/*", resolver), // getPet');
    expect(text).toContain('msw.http.post(origin + path + "/*", resolver), // batchPets');
    // Examples in spec order, named in line comments.
    expect(text).toMatch(/\{ name: 42 \}, \/\/ broken\n\s+\{ id: 1, name: "Rex", tag: "dog", born: "2020-02-29T12:00:00Z" \}, \/\/ rex\n/);
    listen(...handlers());
    // The default base URL of a templated server URL: its path, any origin.
    const pet = await fetch("https://pets.example/v1/pets/5");
    expect(pet.status).toBe(200);
    expect(await pet.json()).toEqual({ id: 1, name: "Rex", tag: "dog", born: "2020-02-29T12:00:00Z" });
    expect(Number(pet.headers.get("x-rate-limit"))).toBeGreaterThanOrEqual(0);
    expect((await fetch("http://localhost/v1/pets/0")).status).toBe(400);
    // An empty path parameter still reaches the generated server (an MSW `:id` would not match it), which refuses it.
    expect((await fetch("http://localhost/v1/pets/")).status).toBe(400);
    const batch = await fetch("https://pets.example/v1/pets:batch", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify([{ id: 1, name: "Rex" }]) });
    expect(await batch.json()).toEqual(["Rex", "Tom"]);
    const bad = await fetch("https://pets.example/v1/pets:batch", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify([{ id: 0, name: "rex" }]) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { issues: { path: string }[] }).issues.map((i) => i.path).sort()).toEqual(["/0/id", "/0/name"]);
    const gone = await fetch("https://pets.example/v1/pets/5", { method: "DELETE" });
    expect([gone.status, await gone.text()]).toEqual([204, ""]);
    // Nothing declared: the mock's 500 saying so.
    expect((await fetch("https://pets.example/v1/ping")).status).toBe(500);
  });

  it("dates as Date: generated values and examples are Dates in the handlers, ISO text on the wire", async () => {
    const mod = await mswOf("pets-dates");
    const text = readFileSync(path.join(dir, "generated/pets-dates/msw.ts"), "utf8");
    expect(text).toMatch(/born: new Date\("\d{4}-\d\d-\d\dT[^"]+"\)/);
    const { handlers, defaults } = exportsOf(mod);
    const reply = defaults.getPet!({}) as { body: { born?: unknown } };
    expect(reply.body.born).toEqual(new Date("2020-02-29T12:00:00Z"));
    listen(...handlers({ baseUrl: BASE }));
    expect(await (await fetch(`${BASE}/pets/3`)).json()).toMatchObject({ name: "Rex", born: "2020-02-29T12:00:00.000Z" });
  });

  it("without the server, validators or json artifacts of a spec: a located warning and no msw.ts", async () => {
    const own = mkdtempSync(path.join(os.tmpdir(), "specforge-msw-partial-"));
    try {
      mkdirSync(path.join(own, "specs"));
      writeFileSync(path.join(own, "specs/pets.yaml"), PETS);
      writeFileSync(path.join(own, "specforge.config.json"), JSON.stringify({ specs: [{ input: "specs/pets.yaml", artifacts: ["types", "client"] }], plugins: ["specforge:msw"] }));
      const r = await runCli(own, "generate", "--json");
      expect(r.code).toBe(0);
      const warnings = r.out.trim().split("\n").map((l) => JSON.parse(l) as { type: string; message?: string }).filter((e) => e.type === "warning");
      expect(JSON.stringify(warnings)).toMatch(/pets\.yaml:\d+:\d+.*msw plugin needs server\.ts/);
      expect(readdirSync(path.join(own, "generated/pets"))).not.toContain("msw.ts");
      expect((await runCli(own, "generate", "--strict")).code).not.toBe(0);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it("refuses an invalid request with the 400 the mock gives, for plain fetch as for the client", async () => {
    const spec = await loadSpecForMock({ spec: path.join(dir, "specs/webhooks.openapi.yaml") });
    const mock = createRestMock(spec, { basePath: BASE_PATH });
    const { handlers } = exportsOf(await mswOf("webhooks"));
    listen(...handlers({ baseUrl: BASE }));
    const auth = { authorization: "Basic dTpw", "content-type": "application/json" };
    const cases: [string, RequestInit][] = [
      [`${BASE}/webhooks`, { method: "POST", headers: auth, body: JSON.stringify({ webhook: { topic: 5 } }) }],
      [`${BASE}/webhooks`, { method: "POST", headers: auth, body: "{not json" }],
      [`${BASE}/webhooks/not-a-number`, { headers: auth }],
      [`${BASE}/webhooks?page=0`, { headers: auth }],
    ];
    for (const [url, init] of cases) {
      const res = await fetch(url, init);
      const reference = await mock(new Request(url, init));
      expect(res.status, url).toBe(400);
      expect(res.headers.get("content-type")).toBe(reference.headers.get("content-type"));
      expect(await res.json()).toEqual(await reference.json());
    }
    // A valid plain fetch is served too (and is not a 400).
    const ok = await fetch(`${BASE}/webhooks/count?status=active`, { headers: auth });
    expect(ok.status).toBe(200);
    expect((spec.module["validateWebhookCount"] as Fn)(await ok.json())).toEqual([]);
  });

  it("overrides: a typed handler replaces the default, and MSW's own server.use still works", async () => {
    const spec = await loadSpecForMock({ spec: path.join(dir, "specs/webhooks.openapi.yaml") });
    const { handlers, defaults } = exportsOf(await mswOf("webhooks"));
    const server = listen(
      ...handlers({
        baseUrl: BASE,
        handlers: {
          getWebhook: ({ path: p }: { path: { id: number } }) => ({ status: 404, body: { errors: [{ code: "shop_api_no_webhook_found", message: `no webhook ${p.id}` }] } }),
          countWebhooks: async (input: { query: { status?: string } }) => ({ status: 200, body: { count: input.query.status === "paused" ? 2 : 0 } }),
        },
      }),
    );
    const client = (spec.module["createWebhooksAPIClient"] as Fn)({ baseUrl: BASE }) as Record<string, Fn>;
    expect(await client.getWebhook!({ path: { id: 7 } })).toMatchObject({ status: 404, body: { errors: [{ code: "shop_api_no_webhook_found", message: "no webhook 7" }] } });
    expect(await client.countWebhooks!({ query: { status: "paused" } })).toMatchObject({ status: 200, body: { count: 2 } });
    // Operations not overridden keep the defaults.
    const list = (await client.listWebhooks!()) as { status: number; body: unknown };
    expect(list.status).toBe(200);
    expect(list.body).toEqual((defaults.listWebhooks!({}) as { body: unknown }).body);
    // The override's input was validated first: a bad id never reaches it.
    expect((await fetch(`${BASE}/webhooks/x`)).status).toBe(400);
    // MSW's runtime override, in front of the generated handlers.
    server.use(http.get(`${BASE}/webhooks/count`, () => HttpResponse.json({ count: 41 })));
    expect(await client.countWebhooks!()).toMatchObject({ status: 200, body: { count: 41 } });
  });

  it("the base URL: the spec's server URL by default, any given one, and any origin with a path alone", async () => {
    const spec = await loadSpecForMock({ spec: path.join(dir, "specs/members.openapi.yaml") });
    const { handlers } = exportsOf(await mswOf("members"));
    const service = spec.doc.services.find((s): s is HttpService => s.kind === "http")!;
    const op = service.operations.find((o) => o.method === "get" && !o.path.includes("{"))
      ?? service.operations.find((o) => o.method === "get")!;
    const target = (base: string) => base + op.path.replace(/\{[^}]+\}/g, "1");
    const headers = { "private-token": "t" };

    listen(...handlers());
    // The seed's server URL (http://127.0.0.1:8080/api/v3): nothing listens there, MSW answers.
    expect((await fetch(target(service.servers[0]!), { headers })).status).toBe(defaultStatus(op));
    servers.splice(0).forEach((s) => s.close());

    listen(...handlers({ baseUrl: "https://elsewhere.example/v9/" }));
    expect((await fetch(target("https://elsewhere.example/v9"), { headers })).status).toBe(defaultStatus(op));
    // Not under the base URL: not ours (MSW reports the unhandled request: fetch fails).
    await expect(fetch(target("https://elsewhere.example/v8"), { headers })).rejects.toThrow();
    servers.splice(0).forEach((s) => s.close());

    listen(...handlers({ baseUrl: "/v9" }));
    expect((await fetch(target("http://any.example/v9"), { headers })).status).toBe(defaultStatus(op));
    expect((await fetch(target("https://other.example:8443/v9"), { headers })).status).toBe(defaultStatus(op));
  });

  it("type-checks strict with msw's types: overrides typed by the generated server's handlers", () => {
    const consumer = [
      'import { setupServer } from "msw/node";',
      'import { webhooksAPIMswHandlers, webhooksAPIMockHandlers } from "./generated/webhooks/msw.js";',
      "setupServer(...webhooksAPIMswHandlers({",
      '  baseUrl: "https://x.example/api",',
      "  handlers: {",
      '    getWebhook: ({ path }) => ({ status: 404, body: { errors: [{ code: "shop_api_no_webhook_found", message: String(path.id) }] } }),',
      "  },",
      "}));",
      "// @ts-expect-error a 200 of getWebhook carries a WebhookEnvelope",
      "webhooksAPIMswHandlers({ handlers: { getWebhook: () => ({ status: 200, body: { count: 1 } }) } });",
      "// @ts-expect-error 418 is not a status getWebhook declares",
      'webhooksAPIMswHandlers({ handlers: { getWebhook: () => ({ status: 418, body: { errors: [] } }) } });',
      "// @ts-expect-error an error code the spec does not list",
      'webhooksAPIMswHandlers({ handlers: { getWebhook: () => ({ status: 404, body: { errors: [{ code: "nope", message: "" }] } }) } });',
      "// @ts-expect-error no such operation",
      "webhooksAPIMswHandlers({ handlers: { getWebhooks: () => ({ status: 200 }) } });",
      "export const list = webhooksAPIMockHandlers.listWebhooks;",
    ].join("\n");
    writeFileSync(path.join(dir, "consumer.ts"), consumer);
    writeFileSync(path.join(dir, "example.ts"), example("msw-example.ts"));
    // The seeds, the corner cases (both date modes) and two corpus documents (all 19 would double the time).
    const checked = ["webhooks", "members", "pets", "pets-dates", "v3-0-petstore-expanded", "v2-0-uber"];
    const roots = [path.join(dir, "consumer.ts"), path.join(dir, "example.ts"), ...checked.map((d) => path.join(dir, "generated", d, "msw.ts"))];
    const program = ts.createProgram(roots, { ...STRICT_OPTIONS, types: ["node"], lib: [...STRICT_OPTIONS.lib!] });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file && d.start !== undefined ? `${path.relative(dir, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : "";
      return where + ts.flattenDiagnosticMessageText(d.messageText, "\n");
    });
    expect(diagnostics).toEqual([]);
  });

  it("msw.ts is owned like built-in output: in the manifest, counted in --json, compared by check, deterministic", async () => {
    const out = path.join(dir, "generated/webhooks");
    const manifest = JSON.parse(readFileSync(path.join(out, ".specforge-manifest.json"), "utf8")) as { files: string[] };
    expect(manifest.files).toContain("msw.ts");
    const file = path.join(out, "msw.ts");
    const original = readFileSync(file, "utf8");
    expect(original.startsWith("// @generated by specforge from specs/webhooks.openapi.yaml. DO NOT EDIT.\n")).toBe(true);
    const check = await runCli(dir, "check", "--json");
    expect(check.code).toBe(0);
    writeFileSync(file, original.replace("status: 200,", "status: 201,"));
    const stale = await runCli(dir, "check", "--json");
    expect(stale.code).not.toBe(0);
    expect(stale.out + stale.err).toContain("msw.ts");
    // generate puts it back byte for byte: the output depends only on the spec.
    const again = await runCli(dir, "generate", "--json");
    expect(again.code).toBe(0);
    const events = again.out.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.find((e) => e.type === "generated" && e.dir === "webhooks")?.files).toBe(manifest.files.length);
    expect(readFileSync(file, "utf8")).toBe(original);
    expect((await runCli(dir, "check")).code).toBe(0);
  });

  it("the docs/plugins.md MSW example runs as written", async () => {
    writeFileSync(path.join(dir, "example.ts"), example("msw-example.ts"));
    // The example states what it gets with node:assert: importing it runs those assertions.
    const text = example("msw-example.ts");
    expect(text.match(/^assert\./gm)?.length).toBeGreaterThanOrEqual(5);
    await expect(import(pathToFileURL(path.join(dir, "example.ts")).href)).resolves.toBeDefined();
  });
});
