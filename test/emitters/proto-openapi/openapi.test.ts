/**
 * `--artifacts openapi`: the OpenAPI 3.1 document of a proto's google.api.http routes. Checked three ways: ajv
 * (JSON Schema 2020-12) accepts every component schema and the ProtoJSON of seeded random messages (the generated
 * toJson<T> of values from the mock value generator) validates against them; openapi-typescript reads the document;
 * and the round trip: the document fed back into specforge generates a REST client that talks to the transcoding
 * server of the same proto.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import openapiTS, { astToString } from "openapi-typescript";
import { nodeSpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";
import { ValueGenerator } from "../../../src/mock/values.js";
import { serveNode, type NodeServerHandle } from "../../../src/runtime/http/node.js";
import { assignNames } from "../../../src/naming/assign-names.js";
import { REPO, SHARED } from "../../helpers/seeds.js";
import { BUF_VALIDATE_STUB } from "../protobuf/protovalidate/harness.js";
import { FIXTURES, generateFixture, library } from "../proto-http/transcode-fixture.js";

/** ajv-formats is CommonJS: its default export is the plugin function. */
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

let g: Awaited<ReturnType<typeof generateFixture>>;
let document: any;
let server: NodeServerHandle;
const seen: { method: string; request: unknown }[] = [];
const lib = library(seen);
let root: string;

beforeAll(async () => {
  g = await generateFixture("library.proto", ["openapi", "client"]);
  const text = g.files.get("library/openapi.json");
  expect(text).toBeDefined();
  document = JSON.parse(text!);
  server = await serveNode(g.gen.createLibraryServiceHandler(lib.impl));
  root = mkdtempSync(path.join(tmpdir(), "specforge-proto-openapi-"));
}, 60_000);
afterAll(async () => {
  await server?.close();
  g?.remove();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("the document", () => {
  it("has one operation per binding, multi-segment variables split at their wildcards", () => {
    expect(document.openapi).toBe("3.1.0");
    const operations = Object.entries(document.paths as Record<string, Record<string, { operationId: string }>>).flatMap(([p, ops]) =>
      Object.entries(ops).map(([m, op]) => `${m.toUpperCase()} ${p} ${op.operationId}`));
    expect(operations.sort()).toEqual([
      "DELETE /v1/shelves/{name_1} LibraryService_DeleteShelf",
      "GET /v1/libraries/{library}/shelves/{name_1} LibraryService_GetShelf_2",
      "GET /v1/operations/{name_1} LibraryService_GetOperation",
      "GET /v1/shelves LibraryService_ListShelves",
      "GET /v1/shelves/{name_1} LibraryService_GetShelf",
      "GET /v1/shelves/{name_1}/books/{name_2} LibraryService_GetBook",
      "GET /v1/shelves/{parent_1}/books LibraryService_ListBooks",
      "GET /v1/shelves/{parent_1}/books:search LibraryService_SearchBooks",
      "PATCH /v1/shelves/{book_name_1}/books/{book_name_2} LibraryService_UpdateBook",
      "POST /v1/operations/{name_1}:cancel LibraryService_CancelOperation",
      "POST /v1/shelves LibraryService_CreateShelf",
      "POST /v1/shelves/{name_1}:merge LibraryService_MergeShelves",
      "POST /v1/shelves/{parent_1}/books LibraryService_CreateBook",
    ]);
    // PURGE has no OpenAPI operation: a located warning.
    expect(g.warnings).toEqual([expect.stringMatching(/^library\.proto:\d+:\d+: PURGE \/v1\/\{name=shelves\/\*\}\/cache has no OpenAPI operation/)]);
    const search = document.paths["/v1/shelves/{parent_1}/books:search"].get;
    expect(search.parameters.map((p: { name: string; in: string }) => `${p.in} ${p.name}`)).toEqual([
      "path parent_1", "query authors", "query filter.minPages", "query filter.genre", "query filter.read", "query genres",
    ]);
    expect(search.responses["200"].content["application/json"].schema).toEqual({ type: "array", items: { $ref: "#/components/schemas/specforge.library.v1.Book" } });
    expect(document.paths["/v1/shelves/{book_name_1}/books/{book_name_2}"].patch.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/specforge.library.v1.Book" });
    expect(document.components.schemas["specforge.library.v1.Book"].properties.pageCount).toEqual({ type: "string", format: "int64", pattern: "^-?[0-9]+$" });
    expect(document.components.schemas["specforge.library.v1.Genre"]).toEqual({ type: "string", enum: ["GENRE_UNSPECIFIED", "FICTION", "HISTORY"] });
    expect(document.components.schemas["specforge.library.v1.Shelf"].properties.createTime).toEqual({ type: "string", format: "date-time" });
  });

  it("is not emitted without --artifacts openapi", async () => {
    const plain = generateSpec({ file: path.join(FIXTURES, "library.proto"), display: "library.proto" }, nodeSpecHost({ includeDirs: [FIXTURES, path.join(SHARED, "corpus/proto")] }));
    expect(plain.files.map((f) => f.path)).not.toContain("library/openapi.json");
    expect(plain.files.find((f) => f.path === "library/index.ts")?.content).not.toContain("openapi");
  });
});

describe("ajv accepts the schemas, and the ProtoJSON of generated messages validates against them", () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const f of ["int32", "int64", "uint64", "float", "double"]) ajv.addFormat(f, true);

  it("every component schema compiles; 30 seeded messages of each of the 7 body message types validate", () => {
    ajv.addSchema({ $id: "https://specforge.test/openapi.json", components: document.components });
    const names = assignNames(g.doc);
    const values = new ValueGenerator(g.doc);
    let checked = 0;
    const failures: string[] = [];
    for (const name of Object.keys(document.components.schemas)) {
      const validate = ajv.getSchema(`https://specforge.test/openapi.json#/components/schemas/${name}`);
      expect(validate, name).toBeDefined();
      const type = g.doc.types.find((t) => t.id === `proto:.${name}` && t.kind === "record");
      if (type === undefined) continue;
      const toJson = g.gen[`toJson${names.type(type.id)}`] as (v: unknown) => unknown;
      for (let seed = 0; seed < 30; seed++) {
        const json = toJson(values.value(type.id, seed));
        checked++;
        if (!validate!(json)) failures.push(`${name} seed ${seed}: ${ajv.errorsText(validate!.errors)}`);
      }
    }
    expect(failures).toEqual([]);
    // The messages the routes carry as bodies: Shelf, Book, the two list responses, Operation, and the body "*" requests.
    expect(checked).toBe(30 * 7);
    const book = ajv.getSchema("https://specforge.test/openapi.json#/components/schemas/specforge.library.v1.Book")!;
    expect(book({ pageCount: "9007199254740993", genre: "FICTION" })).toBe(true);
    expect(book({ pageCount: 5 })).toBe(false);
    expect(book({ genre: "NOPE" })).toBe(false);
  });
});

describe("openapi-typescript reads it", () => {
  it("gives types for every path", async () => {
    const text = astToString(await openapiTS(document));
    for (const p of Object.keys(document.paths)) expect(text).toContain(JSON.stringify(p));
    expect(text).toContain('"specforge.library.v1.Book"');
  });
});

describe("round trip: a REST client generated from the document talks to the transcoding server", () => {
  it("answers and errors", async () => {
    const file = path.join(root, "library-openapi.json");
    mkdirSync(root, { recursive: true });
    writeFileSync(file, JSON.stringify(document));
    const out = generateSpec({ file, display: "library-openapi.json", runtimeModule: path.join(REPO, "src/runtime/index.ts") }, nodeSpecHost({}));
    for (const f of out.files) {
      mkdirSync(path.dirname(path.join(root, "gen", f.path)), { recursive: true });
      writeFileSync(path.join(root, "gen", f.path), f.content);
    }
    const rest = (await import(path.join(root, "gen", out.dir, "index.ts"))) as Record<string, any>;
    const client = rest.createLibraryProtoClient({ baseUrl: server.url });
    lib.reset();
    const created = await client.libraryServiceCreateShelf({ body: { theme: "Maps" } });
    expect(created).toMatchObject({ status: 200, body: { name: "shelves/1", theme: "Maps" } });
    expect((await client.libraryServiceGetShelf({ path: { name_1: "1" } })).body).toEqual({ name: "shelves/1", theme: "Maps" });
    expect((await client.libraryServiceGetShelf2({ path: { library: "north", name_1: "1" } })).body).toEqual({ name: "shelves/1", theme: "Maps @north" });
    const book = await client.libraryServiceCreateBook({ path: { parent_1: "1" }, body: { title: "Atlas", author: "Mercator", pageCount: "120", genre: "HISTORY", tags: ["maps"] } });
    expect(book.body).toEqual({ name: "shelves/1/books/2", title: "Atlas", author: "Mercator", pageCount: "120", genre: "HISTORY", tags: ["maps"] });
    await client.libraryServiceCreateBook({ path: { parent_1: "1" }, body: { title: "Ulysses", author: "Joyce", pageCount: "730", genre: "FICTION" } });
    const found = await client.libraryServiceSearchBooks({ path: { parent_1: "1" }, query: { authors: ["Joyce", "Nobody"], "filter.minPages": "100" } });
    expect(found.body.map((b: { title: string }) => b.title)).toEqual(["Ulysses"]);
    const updated = await client.libraryServiceUpdateBook({ path: { book_name_1: "1", book_name_2: "3" }, query: { updateMask: "title" }, body: { title: "Ulysses (annotated)" } });
    expect(updated.body).toMatchObject({ name: "shelves/1/books/3", title: "Ulysses (annotated)", author: "Joyce" });
    expect((await client.libraryServiceListShelves({ query: { pageSize: 1 } })).body).toEqual({ shelves: [{ name: "shelves/1", theme: "Maps" }] });
    const missing = await client.libraryServiceGetBook({ path: { name_1: "1", name_2: "99" } });
    expect(missing).toMatchObject({ status: 404, body: { code: 5, message: "shelves/1/books/99 does not exist" } });
    const merged = await client.libraryServiceMergeShelves({ path: { name_1: "1" }, body: { otherShelf: "shelves/1" } });
    expect(merged).toMatchObject({ status: 409, body: { code: 6 } });
    expect(seen.map((s) => s.method)).toEqual(["createShelf", "getShelf", "getShelf", "createBook", "createBook", "searchBooks", "updateBook", "listShelves", "getBook", "mergeShelves"]);
  });
});

describe("protovalidate rules become JSON Schema keywords where they map", () => {
  it("string lengths, email, numeric ranges, repeated sizes, required", () => {
    const dir = path.join(root, "rules");
    mkdirSync(path.join(dir, "buf/validate"), { recursive: true });
    writeFileSync(path.join(dir, "buf/validate/validate.proto"), BUF_VALIDATE_STUB);
    writeFileSync(path.join(dir, "accounts.proto"), [
      'syntax = "proto3";',
      "package acc.v1;",
      'import "google/api/annotations.proto";',
      'import "buf/validate/validate.proto";',
      "// A sign-up.",
      "message SignUp {",
      "  // Display name.",
      "  string name = 1 [(buf.validate.field).string = {min_len: 3, max_len: 20}];",
      "  string email = 2 [(buf.validate.field).string.email = true, (buf.validate.field).required = true];",
      "  int32 age = 3 [(buf.validate.field).int32 = {gte: 0, lte: 150}];",
      "  repeated string tags = 4 [(buf.validate.field).repeated.max_items = 2];",
      "  double score = 5 [(buf.validate.field).double = {gt: 0, lt: 1}];",
      "}",
      "message Account { string id = 1; }",
      "service Accounts {",
      '  rpc Create(SignUp) returns (Account) { option (google.api.http) = { post: "/v1/accounts" body: "*" }; }',
      "}",
    ].join("\n"));
    const out = generateSpec({ file: path.join(dir, "accounts.proto"), display: "accounts.proto", artifacts: ["openapi"] }, nodeSpecHost({ includeDirs: [dir, FIXTURES, path.join(SHARED, "corpus/proto")] }));
    const doc = JSON.parse(out.files.find((f) => f.path.endsWith("openapi.json"))!.content);
    const schema = doc.components.schemas["acc.v1.SignUp"];
    expect(schema).toEqual({
      type: "object",
      description: "A sign-up.",
      required: ["email"],
      properties: {
        name: { type: "string", minLength: 3, maxLength: 20, description: "Display name." },
        email: { type: "string", format: "email" },
        age: { type: "integer", format: "int32", minimum: 0, maximum: 150 },
        tags: { type: "array", items: { type: "string" }, maxItems: 2 },
        score: { oneOf: [{ type: "number", format: "double" }, { type: "string", enum: ["NaN", "Infinity", "-Infinity"] }], exclusiveMinimum: 0, exclusiveMaximum: 1 },
      },
    });
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addFormat("int32", true).addFormat("double", true);
    ajv.addSchema({ $id: "https://specforge.test/accounts.json", components: doc.components });
    const validate = ajv.getSchema("https://specforge.test/accounts.json#/components/schemas/acc.v1.SignUp")!;
    expect(validate({ name: "ada", email: "ada@example.com", age: 36, tags: ["a"], score: 0.5 })).toBe(true);
    for (const bad of [{ name: "a", email: "a@b.co" }, { email: "not-an-email" }, { email: "a@b.co", age: -5 }, { email: "a@b.co", tags: ["a", "b", "c"] }, { email: "a@b.co", score: 1 }, {}]) {
      expect(validate(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});
