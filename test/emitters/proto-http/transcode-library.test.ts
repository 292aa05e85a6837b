/**
 * HTTP/JSON transcoding end to end: a Library-shaped googleapis service (fixtures/transcode/library.proto, after
 * google/example/library/v1) generated once, one handler with one implementation, called over REST (the generated
 * client with protocol "rest", and plain fetch with hand-written URLs and JSON), Connect and gRPC. The same scenario
 * gives the same answers over every protocol, and errors map to their HTTP statuses with google.rpc.Status bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RpcError } from "../../../src/runtime/connect/error.js";
import { serveNode, type NodeServerHandle } from "../../../src/runtime/http/node.js";
import { serveNodeHttp2, type NodeHttp2ServerHandle } from "../../../src/runtime/http/node-http2.js";
import { generateFixture, library } from "./transcode-fixture.js";

let g: Awaited<ReturnType<typeof generateFixture>>;
let server: NodeServerHandle;
let h2: NodeHttp2ServerHandle;
const seen: { method: string; request: unknown }[] = [];
const lib = library(seen);

beforeAll(async () => {
  g = await generateFixture("library.proto");
  const handler = g.gen.createLibraryServiceHandler(lib.impl);
  server = await serveNode(handler);
  h2 = await serveNodeHttp2(handler);
}, 60_000);
afterAll(async () => {
  await Promise.all([server?.close(), h2?.close()]);
  g?.remove();
});

/** Every answer and error of one scenario, as JSON (ProtoJSON of the answers, code and message of errors). */
async function scenario(client: Record<string, (r: unknown) => Promise<unknown>>): Promise<unknown[]> {
  lib.reset();
  const log: unknown[] = [];
  const j = (name: string, value: unknown) => g.gen[`toJson${name}`](value);
  const step = async (name: string, call: () => Promise<unknown>, type: string) => {
    try {
      log.push([name, j(type, await call())]);
    } catch (e) {
      expect(e).toBeInstanceOf(RpcError);
      log.push([name, (e as RpcError).code, (e as RpcError).rawMessage]);
    }
  };
  await step("create shelf", () => client.createShelf!({ shelf: { name: "", theme: "History" } }), "Shelf");
  await step("create shelf 2", () => client.createShelf!({ shelf: { name: "", theme: "Fiction & Co/ish" } }), "Shelf");
  await step("create shelf without theme", () => client.createShelf!({ shelf: { name: "", theme: "" } }), "Shelf");
  await step("get shelf", () => client.getShelf!({ name: "shelves/1", library: "" }), "Shelf");
  await step("get shelf of a library", () => client.getShelf!({ name: "shelves/2", library: "main" }), "Shelf");
  await step("get missing shelf", () => client.getShelf!({ name: "shelves/99", library: "" }), "Shelf");
  await step("list shelves page 1", () => client.listShelves!({ pageSize: 1, pageToken: "" }), "ListShelvesResponse");
  await step("list shelves page 2", () => client.listShelves!({ pageSize: 1, pageToken: "1" }), "ListShelvesResponse");
  const book = (title: string, author: string, pages: bigint, genre: string, tags: string[]) =>
    ({ name: "", author, title, read: false, pageCount: pages, genre, tags });
  await step("create book", () => client.createBook!({ parent: "shelves/1", book: book("SPQR", "Beard", 608n, "HISTORY", ["rome", "ancient"]) }), "Book");
  await step("create book 2", () => client.createBook!({ parent: "shelves/1", book: book("Dune", "Herbert", 412n, "FICTION", []) }), "Book");
  await step("create book 3", () => client.createBook!({ parent: "shelves/2", book: book("Emma", "Austen", 9007199254740993n, "FICTION", ["ü/ß ?&="]) }), "Book");
  await step("get book", () => client.getBook!({ name: "shelves/1/books/3" }), "Book");
  await step("get book, bad name", () => client.getBook!({ name: "shelves/1/books/77" }), "Book");
  await step("list books", () => client.listBooks!({ parent: "shelves/1", pageSize: 0, pageToken: "" }), "ListBooksResponse");
  await step("update book", () => client.updateBook!({ book: { ...book("SPQR (2nd ed.)", "", 0n, "GENRE_UNSPECIFIED", []), name: "shelves/1/books/3", read: true }, updateMask: { paths: ["title", "read"] } }), "Book");
  await step("update book without mask", () => client.updateBook!({ book: { ...book("x", "", 0n, "FICTION", []), name: "shelves/1/books/3" } }), "Book");
  await step("search by authors", () => client.searchBooks!({ parent: "shelves/1", authors: ["Herbert", "Beard"], genres: [] }), "SearchBooksResponse");
  await step("search by filter", () => client.searchBooks!({ parent: "shelves/1", authors: [], filter: { minPages: 500n, genre: "HISTORY", read: true }, genres: [] }), "SearchBooksResponse");
  await step("search by genres", () => client.searchBooks!({ parent: "shelves/1", authors: [], genres: ["FICTION", "HISTORY"] }), "SearchBooksResponse");
  await step("delete non-empty shelf", () => client.deleteShelf!({ name: "shelves/1" }), "Empty");
  await step("merge with itself", () => client.mergeShelves!({ name: "shelves/1", otherShelf: "shelves/1" }), "Shelf");
  await step("merge", () => client.mergeShelves!({ name: "shelves/1", otherShelf: "shelves/2" }), "Shelf");
  await step("books after merge", () => client.listBooks!({ parent: "shelves/1", pageSize: 0, pageToken: "" }), "ListBooksResponse");
  await step("get operation", () => client.getOperation!({ name: "operations/a/b/c" }), "Operation");
  await step("cancel operation", () => client.cancelOperation!({ name: "operations/x", reason: "user asked" }), "Operation");
  await step("purge", () => client.purgeShelf!({ name: "shelves/1", library: "" }), "Empty");
  await step("purge missing", () => client.purgeShelf!({ name: "shelves/2", library: "" }), "Empty");
  return log;
}

/**
 * A request as the implementation saw it, for comparison: bigints marked, and empty lists and messages dropped (the
 * binary and JSON readers may leave an absent repeated field out or make it [], which the types allow).
 */
function seenRequests(): unknown[] {
  const prune = (v: unknown): unknown => {
    if (typeof v === "bigint") return `${v}n`;
    if (Array.isArray(v)) return v.length === 0 ? undefined : v.map(prune);
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const p = prune(x);
        if (p !== undefined) out[k] = p;
      }
      return Object.keys(out).length === 0 ? undefined : out;
    }
    return v;
  };
  return seen.map((s) => [s.method, prune(s.request)]);
}

/** response_body "books": over REST a search answers its books only (http.proto: other response fields are ignored). */
function asRest(log: unknown[]): unknown[] {
  return log.map((entry) => {
    const [name, value] = entry as [string, Record<string, unknown>];
    return name.startsWith("search") && value !== null && typeof value === "object" ? [name, { ...value, total: undefined }] : entry;
  });
}

describe("one handler, every protocol, the same answers", () => {
  let reference: unknown[];
  const requests: Record<string, unknown[]> = {};
  beforeAll(async () => {
    reference = await scenario(g.gen.createLibraryServiceClient({ baseUrl: server.url }));
    requests.connect = seenRequests();
  });

  it("the reference run (Connect) covers answers and errors", () => {
    expect(reference).toHaveLength(27);
    const codes = reference.filter((r) => (r as unknown[]).length === 3).map((r) => (r as unknown[])[1]);
    expect(codes).toEqual(["invalid_argument", "not_found", "not_found", "invalid_argument", "failed_precondition", "already_exists", "not_found"]);
    expect(reference).toContainEqual(["search by genres", { books: [
      { name: "shelves/1/books/3", author: "Beard", title: "SPQR (2nd ed.)", read: true, pageCount: "608", genre: "HISTORY", tags: ["rome", "ancient"] },
      { name: "shelves/1/books/4", author: "Herbert", title: "Dune", pageCount: "412", genre: "FICTION" },
    ], total: 2 }]);
  });

  it.each([
    ["REST (protocol \"rest\")", () => g.gen.createLibraryServiceClient({ baseUrl: server.url, protocol: "rest" })],
    ["Connect JSON", () => g.gen.createLibraryServiceClient({ baseUrl: server.url, format: "json" })],
    ["gRPC-Web", () => g.gen.createLibraryServiceClient({ baseUrl: server.url, protocol: "grpc-web" })],
    ["gRPC (HTTP/2)", () => g.gen.createLibraryServiceClient({ baseUrl: h2.url, protocol: "grpc" })],
  ] as const)("%s", async (name, make) => {
    const answers = await scenario(make());
    if (name.startsWith("REST")) {
      expect(answers).toEqual(asRest(reference));
      expect(answers).not.toEqual(reference);
    } else expect(answers).toEqual(reference);
    // The implementation saw the same request messages.
    expect(seenRequests()).toEqual(requests.connect);
  });

  it("the REST client sends the routes http.proto describes", async () => {
    const sent: string[] = [];
    const client = g.gen.createLibraryServiceClient({
      baseUrl: server.url,
      protocol: "rest",
      fetch: async (input: Request) => {
        sent.push(`${input.method} ${input.url.slice(server.url.length)}${input.body ? ` ${await input.clone().text()}` : ""}`);
        return fetch(input);
      },
    });
    await scenario(client);
    expect(sent).toEqual([
      'POST /v1/shelves {"theme":"History"}',
      'POST /v1/shelves {"theme":"Fiction & Co/ish"}',
      "POST /v1/shelves {}",
      "GET /v1/shelves/1",
      "GET /v1/shelves/2?library=main",
      "GET /v1/shelves/99",
      "GET /v1/shelves?pageSize=1",
      "GET /v1/shelves?pageSize=1&pageToken=1",
      'POST /v1/shelves/1/books {"author":"Beard","title":"SPQR","pageCount":"608","genre":"HISTORY","tags":["rome","ancient"]}',
      'POST /v1/shelves/1/books {"author":"Herbert","title":"Dune","pageCount":"412","genre":"FICTION"}',
      'POST /v1/shelves/2/books {"author":"Austen","title":"Emma","pageCount":"9007199254740993","genre":"FICTION","tags":["ü/ß ?&="]}',
      "GET /v1/shelves/1/books/3",
      "GET /v1/shelves/1/books/77",
      "GET /v1/shelves/1/books",
      'PATCH /v1/shelves/1/books/3?updateMask=title%2Cread {"name":"shelves/1/books/3","title":"SPQR (2nd ed.)","read":true}',
      'PATCH /v1/shelves/1/books/3 {"name":"shelves/1/books/3","title":"x","genre":"FICTION"}',
      "GET /v1/shelves/1/books:search?authors=Herbert&authors=Beard",
      "GET /v1/shelves/1/books:search?filter.minPages=500&filter.genre=HISTORY&filter.read=true",
      "GET /v1/shelves/1/books:search?genres=FICTION&genres=HISTORY",
      "DELETE /v1/shelves/1",
      'POST /v1/shelves/1:merge {"otherShelf":"shelves/1"}',
      'POST /v1/shelves/1:merge {"otherShelf":"shelves/2"}',
      "GET /v1/shelves/1/books",
      "GET /v1/operations/a/b/c",
      'POST /v1/operations/x:cancel {"reason":"user asked"}',
      "PURGE /v1/shelves/1/cache",
      "PURGE /v1/shelves/2/cache",
    ]);
  });
});

describe("plain fetch against the REST routes", () => {
  const call = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(server.url + url, {
      method,
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body), headers: { "content-type": "application/json" } }),
    });
    const text = await response.text();
    return { status: response.status, type: response.headers.get("content-type"), json: text ? JSON.parse(text) : undefined };
  };
  beforeAll(async () => {
    lib.reset();
    await call("POST", "/v1/shelves", { theme: "Maps" });
    await call("POST", "/v1/shelves/1/books", { title: "Atlas", author: "Mercator", pageCount: 120, genre: "HISTORY", read: true });
    await call("POST", "/v1/shelves/1/books", { title: "Ulysses", author: "Joyce", pageCount: "730", genre: 1 });
  });

  it("path variables, additional bindings and proto or JSON names in the query", async () => {
    expect(await call("GET", "/v1/shelves/1")).toEqual({ status: 200, type: "application/json", json: { name: "shelves/1", theme: "Maps" } });
    expect((await call("GET", "/v1/libraries/north/shelves/1")).json).toEqual({ name: "shelves/1", theme: "Maps @north" });
    expect((await call("GET", "/v1/shelves?page_size=1")).json).toEqual({ shelves: [{ name: "shelves/1", theme: "Maps" }] });
    expect((await call("GET", "/v1/shelves?pageSize=1&pageToken=1")).json).toEqual({});
  });

  it("response_body answers the field alone; repeated and nested query parameters", async () => {
    const r = await call("GET", "/v1/shelves/1/books:search?filter.min_pages=100&filter.genre=HISTORY");
    expect(r.json).toEqual([{ name: "shelves/1/books/2", author: "Mercator", title: "Atlas", read: true, pageCount: "120", genre: "HISTORY" }]);
    expect((await call("GET", "/v1/shelves/1/books:search?genres=1&genres=HISTORY")).json.map((b: { title: string }) => b.title)).toEqual(["Atlas", "Ulysses"]);
    expect((await call("GET", "/v1/shelves/1/books:search?authors=Joyce&authors=Nobody")).json.map((b: { title: string }) => b.title)).toEqual(["Ulysses"]);
    expect((await call("GET", "/v1/shelves/1/books:search?authors=Nobody")).json).toEqual([]);
  });

  it("body \"field\" with a path variable inside it, and a FieldMask in the query", async () => {
    const r = await call("PATCH", "/v1/shelves/1/books/3?update_mask=title,pageCount", { title: "Ulysses (annotated)", pageCount: 800, author: "ignored" });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ name: "shelves/1/books/3", author: "Joyce", title: "Ulysses (annotated)", pageCount: "800", genre: "FICTION" });
    const last = seen[seen.length - 1]!;
    expect(last.method).toBe("updateBook");
    expect((last.request as { book: { name: string } }).book.name).toBe("shelves/1/books/3");
  });

  it("** takes the rest of the path; %2F stays encoded in multi-segment variables; verbs select their route", async () => {
    expect((await call("GET", "/v1/operations/a/b/c")).json).toEqual({ name: "operations/a/b/c", done: true });
    expect((await call("GET", "/v1/operations")).json).toEqual({ name: "operations", done: true });
    expect((await call("GET", "/v1/operations/x%2Fy/%C3%BC")).json).toEqual({ name: "operations/x%2Fy/ü", done: true });
    expect((await call("POST", "/v1/operations/a/b:cancel", { reason: "r" })).json).toEqual({ name: "operations/a/b", reason: "r" });
    expect((await call("GET", "/v1/shelves/%31")).json).toEqual({ name: "shelves/1", theme: "Maps" });
  });

  it("gRPC status to HTTP status, with google.rpc.Status bodies", async () => {
    expect(await call("GET", "/v1/shelves/9")).toEqual({ status: 404, type: "application/json", json: { code: 5, message: "shelves/9 does not exist" } });
    expect((await call("POST", "/v1/shelves", {})).status).toBe(400);
    expect((await call("POST", "/v1/shelves", {})).json).toEqual({ code: 3, message: "a shelf needs a theme" });
    expect(await call("DELETE", "/v1/shelves/1")).toMatchObject({ status: 400, json: { code: 9 } });
    expect(await call("POST", "/v1/shelves/1:merge", { otherShelf: "shelves/1" })).toMatchObject({ status: 409, json: { code: 6 } });
    expect(await call("PURGE", "/v1/shelves/7/cache")).toMatchObject({ status: 404, json: { code: 5 } });
  });

  it("bad requests are 400 invalid_argument; unknown routes 404; other methods 405", async () => {
    const bad = async (method: string, url: string, body?: unknown) => {
      const r = await call(method, url, body);
      expect(r.status, `${method} ${url}`).toBe(400);
      expect(r.json.code).toBe(3);
      return r.json.message as string;
    };
    expect(await bad("GET", "/v1/shelves?nope=1")).toContain("unknown query parameter");
    expect(await bad("GET", "/v1/shelves?pageSize=x")).toContain("int32");
    expect(await bad("GET", "/v1/shelves?pageSize=1&pageSize=2")).toContain("more than once");
    expect(await bad("GET", "/v1/shelves/1/books:search?filter.read=yes")).toContain("true or false");
    expect(await bad("GET", "/v1/shelves/1/books:search?filter=x")).toContain("cannot be set from the URL");
    expect(await bad("GET", "/v1/shelves/1?name=shelves/2")).toContain("bound by the path");
    expect(await bad("POST", "/v1/shelves/1/books?book.title=x", { title: "y" })).toContain("is the body");
    expect(await bad("POST", "/v1/shelves/1:merge?otherShelf=x", {})).toContain("body: \"*\"");
    expect(await bad("POST", "/v1/shelves", "{not json")).toContain("not JSON");
    expect(await bad("POST", "/v1/shelves/1:merge", [1])).toContain("JSON object");
    expect(await bad("POST", "/v1/shelves", { theme: 5 })).toContain("cannot decode request");
    expect(await bad("GET", "/v1/shelves/%E0%A4%A")).toContain("percent escape");
    expect(await call("GET", "/v1/nothing/here")).toMatchObject({ status: 404, json: { code: 5 } });
    const put = await fetch(`${server.url}/v1/shelves`, { method: "PUT" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST");
    expect(await put.json()).toMatchObject({ code: 12 });
    // The RPC routes are unchanged.
    const rpc = await fetch(`${server.url}/specforge.library.v1.LibraryService/CountBooks`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ parent: "shelves/1" }) });
    expect(await rpc.json()).toEqual({ count: 2 });
  });

  it("the REST client refuses methods without a binding and bad path values, and reads Status errors", async () => {
    const client = g.gen.createLibraryServiceClient({ baseUrl: server.url, protocol: "rest" });
    await expect(client.countBooks!({ parent: "shelves/1", pageSize: 0, pageToken: "" })).rejects.toMatchObject({ code: "unimplemented" });
    await expect(client.getBook!({ name: "books/1" })).rejects.toMatchObject({ code: "invalid_argument", rawMessage: expect.stringContaining("does not match shelves/*/books/*") });
    await expect(client.getShelf!({ name: "", library: "" })).rejects.toMatchObject({ code: "invalid_argument" });
    const error = await client.getShelf!({ name: "shelves/404", library: "" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: "not_found", rawMessage: "shelves/404 does not exist" });
    const streaming = client.watchShelf!({ name: "shelves/1", library: "" });
    await expect(streaming[Symbol.asyncIterator]().next()).rejects.toMatchObject({ code: "unimplemented" });
  });
});
