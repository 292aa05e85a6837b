/**
 * The canonical petstore-expanded example, as a user would use it: the generated client talks to the generated
 * server over HTTP on loopback, every operation (including `find pet by id`, an operationId with spaces), with the
 * spec's `default` error response and the server's own 400 for a body that breaks the schema.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assignNames } from "../../src/naming/assign-names.js";
import { nodeSpecHost } from "../../src/parsers/host.js";
import { generateSpec } from "../../src/pipeline/generate-files.js";
import { serveNode, type NodeServerHandle } from "../../src/runtime/http/node.js";
import { REPO } from "../helpers/seeds.js";
import { OPENAPI_CORPUS } from "./openapi-corpus.js";
import { pointRuntimeAt } from "../helpers/source-runtime.js";

type Pet = { id: number; name: string; tag?: string };
type Call = (input?: unknown) => Promise<{ status: number; body: any; headers: Record<string, string> }>;

let root: string;
let server: NodeServerHandle;
let client: Record<string, Call>;
let methods: Record<string, string>;

beforeAll(async () => {
  const rel = "oai/v3.0-petstore-expanded.yaml";
  const out = generateSpec({ file: path.join(OPENAPI_CORPUS, rel), display: rel, outDir: "petstore" }, nodeSpecHost({ cwd: OPENAPI_CORPUS }));
  root = mkdtempSync(path.join(tmpdir(), "specforge-petstore-"));
  for (const f of out.files) {
    mkdirSync(path.dirname(path.join(root, f.path)), { recursive: true });
    writeFileSync(path.join(root, f.path), pointRuntimeAt(f.content));
  }
  const names = assignNames(out.doc);
  const service = out.doc.services[0]!;
  if (service.kind !== "http") throw new Error("petstore-expanded has an HTTP service");
  // Method names come from the naming pass: the test follows its rule instead of spelling identifiers itself.
  methods = Object.fromEntries(service.operations.map((op) => [op.name, names.operation(op).method]));
  const api = names.api(0);
  const m = (await import(pathToFileURL(path.join(root, "petstore/index.ts")).href)) as Record<string, any>;

  // int64 ids are plain numbers by default in JSON artifacts (docs/json.md: `int64: "bigint"` opts in).
  const pets = new Map<number, Pet>();
  let next = 1;
  const notFound = (id: unknown) => ({ status: 404, body: { code: 404, message: `no pet ${String(id)}` } });
  server = await serveNode(
    m[api.createServer]({
      [methods.findPets!]: ({ query }: any) => {
        const all = [...pets.values()].filter((p) => !query.tags || query.tags.includes(p.tag));
        return { status: 200, body: all.slice(0, query.limit ?? all.length) };
      },
      [methods.addPet!]: ({ body }: any) => {
        const pet = { id: next++, ...body };
        pets.set(pet.id, pet);
        return { status: 200, body: pet };
      },
      [methods["find pet by id"]!]: ({ path: p }: any) => {
        const pet = pets.get(p.id);
        return pet ? { status: 200, body: pet } : notFound(p.id);
      },
      [methods.deletePet!]: ({ path: p }: any) => (pets.delete(p.id) ? { status: 204 } : notFound(p.id)),
    }, { basePath: "/v2" }),
  );
  client = m[api.createClient]({ baseUrl: `${server.url}/v2` });
});

afterAll(async () => {
  await server?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("petstore-expanded: generated client -> generated server over loopback", () => {
  it("names each operation by the naming rule", () => {
    expect(methods).toEqual({ findPets: "findPets", addPet: "addPet", "find pet by id": "findPetById", deletePet: "deletePet" });
  });

  it("covers every operation and the spec's default error response", async () => {
    const rex = await client.addPet!({ body: { name: "Rex", tag: "dog" } });
    expect(rex.status).toBe(200);
    expect(rex.body).toMatchObject({ name: "Rex", tag: "dog" });
    const tom = await client.addPet!({ body: { name: "Tom", tag: "cat" } });
    const id = tom.body.id;

    const dogs = await client.findPets!({ query: { tags: ["dog"], limit: 10 } });
    expect(dogs.status).toBe(200);
    expect(dogs.body.map((p: Pet) => p.name)).toEqual(["Rex"]);
    expect((await client.findPets!({ query: { limit: 1 } })).body).toHaveLength(1);
    expect((await client.findPets!()).body).toHaveLength(2);

    const found = await client.findPetById!({ path: { id } });
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ name: "Tom", tag: "cat" });

    expect((await client.deletePet!({ path: { id } })).status).toBe(204);
    // `default` covers every other status: the 404 arrives typed, with the Error body, instead of throwing.
    const gone = await client.findPetById!({ path: { id } });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ code: 404, message: `no pet ${String(id)}` });
    const again = await client.deletePet!({ path: { id } });
    expect(again.status).toBe(404);
  });

  it("answers a body that breaks the schema with the server's 400, before the handler runs", async () => {
    const bad = await client.addPet!({ body: { tag: "no name" } });
    expect(bad.status).toBe(400);
    const raw = await fetch(`${server.url}/v2/pets/not-a-number`);
    expect(raw.status).toBe(400);
  });
});
