/**
 * google/api/http.proto's rules, as its comments state them: each example mapping (HTTP request -> gRPC request
 * message) is served by the generated handler and produced by the generated client with protocol "rest" (message ->
 * HTTP request); the template grammar's rules reject bad templates; the generator rejects bindings http.proto
 * forbids with a located error naming the rule.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { lowerDescriptors } from "../../../src/parsers/proto-descriptors/index.js";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SpecError } from "../../../src/errors.js";
import { nodeSpecHost } from "../../../src/parsers/host.js";
import { generateFromDocument, generateSpec } from "../../../src/pipeline/generate-files.js";
import { HttpTemplateError, parsePathTemplate, templatesOverlap, formatPathTemplate } from "../../../src/runtime/rpc/http-template.js";
import { compileBinding } from "../../../src/runtime/rpc/transcode.js";
import { RestRouter } from "../../../src/runtime/rpc/transcode-router.js";
import { SHARED } from "../../helpers/seeds.js";
import { typecheckFiles } from "../../helpers/typecheck.js";
import { FIXTURES, generateFixture } from "./transcode-fixture.js";


interface Row {
  /** What http.proto says (quoted or paraphrased from its comments). */
  readonly rule: string;
  readonly service: string;
  readonly rpc: string;
  readonly type: string;
  readonly http: { readonly method: string; readonly url: string; readonly body?: unknown };
  /** The request message the implementation gets, as ProtoJSON. */
  readonly message: Record<string, unknown>;
  /** false: the client does not send this request for this message (an additional binding, a kept %2F). */
  readonly client?: false;
}

const ROWS: readonly Row[] = [
  {
    rule: "`GET /v1/messages/123456` | `GetMessage(name: \"messages/123456\")` (get: \"/v1/{name=messages/*}\")",
    service: "NameTemplate", rpc: "getMessage", type: "NameRequest",
    http: { method: "GET", url: "/v1/messages/123456" }, message: { name: "messages/123456" },
  },
  {
    rule: "`GET /v1/messages/123456/foo` | `GetMessage(message_id: \"123456\" sub: SubMessage(subfield: \"foo\"))`",
    service: "NestedPath", rpc: "getMessage", type: "SubRequest",
    http: { method: "GET", url: "/v1/messages/123456/foo" }, message: { messageId: "123456", sub: { subfield: "foo" } },
  },
  {
    rule: "`GET /v1/messages/123456?revision=2&sub.subfield=foo` | `GetMessage(message_id: \"123456\" revision: 2 sub: SubMessage(subfield: \"foo\"))`",
    service: "QueryParameters", rpc: "getMessage", type: "SubRequest",
    http: { method: "GET", url: "/v1/messages/123456?revision=2&sub.subfield=foo" }, message: { messageId: "123456", revision: "2", sub: { subfield: "foo" } },
  },
  {
    rule: "`PATCH /v1/messages/123456 { \"text\": \"Hi!\" }` | `UpdateMessage(message_id: \"123456\" message { text: \"Hi!\" })` (body: \"message\")",
    service: "BodyField", rpc: "updateMessage", type: "UpdateMessageRequest",
    http: { method: "PATCH", url: "/v1/messages/123456", body: { text: "Hi!" } }, message: { messageId: "123456", message: { text: "Hi!" } },
  },
  {
    rule: "`PATCH /v1/messages/123456 { \"text\": \"Hi!\" }` | `UpdateMessage(message_id: \"123456\" text: \"Hi!\")` (body: \"*\")",
    service: "BodyStar", rpc: "updateMessage", type: "IdMessage",
    http: { method: "PATCH", url: "/v1/messages/123456", body: { text: "Hi!" } }, message: { messageId: "123456", text: "Hi!" },
  },
  {
    rule: "additional_bindings: `GET /v1/messages/123456` | `GetMessage(message_id: \"123456\")`",
    service: "AdditionalBindings", rpc: "getMessage", type: "UserMessageRequest",
    http: { method: "GET", url: "/v1/messages/123456" }, message: { messageId: "123456" },
  },
  {
    rule: "additional_bindings: `GET /v1/users/me/messages/123456` | `GetMessage(user_id: \"me\" message_id: \"123456\")`",
    service: "AdditionalBindings", rpc: "getMessage", type: "UserMessageRequest",
    http: { method: "GET", url: "/v1/users/me/messages/123456" }, message: { messageId: "123456", userId: "me" }, client: false,
  },
  {
    rule: "a repeated field: `...?param=A&param=B`; a message field: each field a parameter, `...?foo.a=A&foo.b=B&foo.c=C`",
    service: "QueryKinds", rpc: "list", type: "KindsRequest",
    http: { method: "GET", url: "/v1/shelves/s1/items?param=A&param=B&foo.a=A&foo.b=B&foo.c=C" },
    message: { parent: "shelves/s1", param: ["A", "B"], foo: { a: "A", b: "B", c: "C" } },
  },
  {
    rule: "URL query parameters map to (c) fields: primitive and repeated primitive types (bool, double, uint64, enum, bytes, repeated int32)",
    service: "QueryKinds", rpc: "list", type: "KindsRequest",
    http: { method: "GET", url: "/v1/shelves/s1/items?flag=true&ratio=0.5&big=18446744073709551615&color=BLUE&blob=AQID&ids=1&ids=-2" },
    message: { parent: "shelves/s1", flag: true, ratio: 0.5, big: "18446744073709551615", color: "BLUE", blob: "AQID", ids: [1, -2] },
  },
  {
    rule: "`{var}` is `{var=*}`: all characters except [-_.~0-9a-zA-Z] are percent-encoded; the server decodes them",
    service: "Expansion", rpc: "single", type: "NameRequest",
    http: { method: "GET", url: "/v1/single/a%2Fb%20c%3F%2A%21" }, message: { name: "a/b c?*!" },
  },
  {
    rule: "a multi-segment variable percent-encodes all characters except [-_.~/0-9a-zA-Z]",
    service: "Expansion", rpc: "multi", type: "NameRequest",
    http: { method: "GET", url: "/v1/multi/things/x%20y/z%C3%BC" }, message: { name: "things/x y/zü" },
  },
  {
    rule: "the server decodes multi-segment variables except %2F and %2f, which stay as sent",
    service: "Expansion", rpc: "multi", type: "NameRequest",
    http: { method: "GET", url: "/v1/multi/things/a%2fb%2Fc/%41" }, message: { name: "things/a%2Fb%2Fc/A" }, client: false,
  },
  {
    rule: "`**` matches zero or more path segments",
    service: "Expansion", rpc: "multi", type: "NameRequest",
    http: { method: "GET", url: "/v1/multi/things" }, message: { name: "things" },
  },
  {
    rule: "Verb = \":\" LITERAL (a custom method: post: \"/v1/{name=things/**}:cancel\" body: \"*\")",
    service: "Expansion", rpc: "cancel", type: "NameRequest",
    http: { method: "POST", url: "/v1/multi/things/a/b:cancel", body: {} }, message: { name: "things/a/b" },
  },
  {
    rule: "custom: an HTTP method not in the pattern field (kind: \"OPTIONS\")",
    service: "Expansion", rpc: "head", type: "NameRequest",
    http: { method: "OPTIONS", url: "/v1/single/x" }, message: { name: "x" },
  },
];

let g: Awaited<ReturnType<typeof generateFixture>>;
beforeAll(async () => {
  g = await generateFixture("http-examples.proto");
}, 60_000);
afterAll(() => g?.remove());

/** The output a method answers (an echo where the output type is the request's, else a Message). */
function answerOf(row: Row, request: unknown): unknown {
  return row.type === "IdMessage" || row.type === "KindsRequest" ? request : { text: `ok ${row.rpc}` };
}

describe("http.proto's examples: HTTP request -> request message (the generated handler)", () => {
  it.each(ROWS.map((r) => [r.rule, r] as const))("%s", async (_rule, row) => {
    let got: unknown;
    const handler = g.gen[`create${row.service}Handler`]({
      [row.rpc]: async (request: unknown) => {
        got = request;
        return answerOf(row, request);
      },
    });
    const response: Response = await handler(new Request(`http://api.test${row.http.url}`, {
      method: row.http.method,
      ...(row.http.body === undefined ? {} : { body: JSON.stringify(row.http.body), headers: { "content-type": "application/json" } }),
    }));
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expect(g.gen[`toJson${row.type}`](got)).toEqual(row.message);
    expect(JSON.parse(text)).toEqual(row.type === "IdMessage" || row.type === "KindsRequest" ? row.message : { text: `ok ${row.rpc}` });
  });
});

describe("http.proto's examples: request message -> HTTP request (the generated client, protocol \"rest\")", () => {
  it.each(ROWS.filter((r) => r.client !== false).map((r) => [r.rule, r] as const))("%s", async (_rule, row) => {
    const sent: { method: string; url: string; body: unknown; type: string | null }[] = [];
    const client = g.gen[`create${row.service}Client`]({
      baseUrl: "http://api.test",
      protocol: "rest",
      fetch: async (request: Request) => {
        const text = await request.text();
        sent.push({ method: request.method, url: request.url.slice("http://api.test".length), body: text === "" ? undefined : JSON.parse(text), type: request.headers.get("content-type") });
        return new Response(JSON.stringify(answerOf(row, row.message)), { headers: { "content-type": "application/json" } });
      },
    });
    const answer = await client[row.rpc](g.gen[`fromJson${row.type}`](row.message));
    expect(sent).toEqual([{ method: row.http.method, url: row.http.url, body: row.http.body, type: row.http.body === undefined ? null : "application/json" }]);
    expect(answer).toBeDefined();
  });

  it("response_body: the answer body is that field, read back into the response message", async () => {
    const handler = g.gen.createExpansionHandler({ text: async () => ({ text: "plain words" }) });
    const response: Response = await handler(new Request("http://api.test/v1/text/x"));
    expect(await response.json()).toBe("plain words");
    const client = g.gen.createExpansionClient({ baseUrl: "http://api.test", protocol: "rest", fetch: (r: Request) => handler(r) });
    expect(await client.text({ name: "x" })).toEqual({ text: "plain words" });
  });

  it("path values that do not fit a multi-segment variable's template are refused before sending", async () => {
    const client = g.gen.createExpansionClient({ baseUrl: "http://api.test", protocol: "rest", fetch: () => { throw new Error("sent"); } });
    await expect(client.multi({ name: "other/x" })).rejects.toMatchObject({ code: "invalid_argument" });
    await expect(client.single({ name: "" })).rejects.toMatchObject({ code: "invalid_argument" });
  });
});

describe("the path template grammar", () => {
  it.each([
    ["/v1/{name=messages/*}", [{ fieldPath: ["name"], multi: true }], undefined],
    ["/v1/messages/{message_id}/{sub.subfield}", [{ fieldPath: ["message_id"], multi: false }, { fieldPath: ["sub", "subfield"], multi: false }], undefined],
    ["/v1/{name=operations/**}:cancel", [{ fieldPath: ["name"], multi: true }], "cancel"],
    ["/v1/{name=*}", [{ fieldPath: ["name"], multi: false }], undefined],
    ["/v1/*/x/**", [], undefined],
  ] as const)("%s parses", (text, variables, verb) => {
    const t = parsePathTemplate(text);
    expect(t.variables.map((v) => ({ fieldPath: v.fieldPath, multi: v.multi }))).toEqual(variables);
    expect(t.verb).toBe(verb);
    // `{var}` is `{var=*}`: both print the same.
    expect(parsePathTemplate(formatPathTemplate(t))).toEqual(t);
  });

  it.each([
    ["v1/x", 0, 'Template = "/" Segments [ Verb ]'],
    ["/v1//x", 4, 'Segments = Segment { "/" Segment }'],
    ["/v1/x/", 6, 'Segments = Segment { "/" Segment }'],
    ["/v1/{a={b}}", 7, "a variable template must not contain other variables"],
    ["/v1/**/x", 4, "`**` matches zero or more path segments, which must be the last part of the URL path except the `Verb`"],
    ["/v1/{a.}", 5, 'FieldPath = IDENT { "." IDENT }'],
    ["/v1/{1a}", 5, 'FieldPath = IDENT { "." IDENT }'],
    ["/v1/x:", 6, 'Verb = ":" LITERAL'],
    ["/v1/x:a:b", 7, 'Template = "/" Segments [ Verb ]'],
    ["/v1/{a}/{a}", 9, "each field is bound by at most one variable"],
    ["/v1/{a=x", 8, 'Variable = "{" FieldPath [ "=" Segments ] "}"'],
    ["/v1/a b", 5, 'Segment = "*" | "**" | LITERAL | Variable'],
    ["/v1/%zz", 4, 'Segment = "*" | "**" | LITERAL | Variable'],
  ] as const)("%s is refused at offset %i: %s", (text, offset, rule) => {
    let error: unknown;
    try {
      parsePathTemplate(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HttpTemplateError);
    expect((error as HttpTemplateError).offset).toBe(offset);
    expect((error as HttpTemplateError).rule).toBe(rule);
  });

  it.each([
    ["/v1/{name=shelves/*}", "/v1/shelves/{id}", true],
    ["/v1/{name=shelves/*}", "/v1/books/{id}", false],
    ["/v1/{name=operations/**}", "/v1/operations", true],
    ["/v1/{name=operations/**}", "/v1/{name=operations/**}:cancel", false],
    ["/v1/a/*", "/v1/*/b", true],
    ["/v1/a/*", "/v1/a/*/c", false],
    ["/v1/**", "/v2/x", false],
  ] as const)("%s and %s overlap: %s", (a, b, overlap) => {
    expect(templatesOverlap(parsePathTemplate(a), parsePathTemplate(b))).toBe(overlap);
    expect(templatesOverlap(parsePathTemplate(b), parsePathTemplate(a))).toBe(overlap);
  });

  it("matches a path of 200,000 segments against `**` and refuses it elsewhere (depth bounded by the templates)", () => {
    const router = new RestRouter();
    const messages = { "t.R": [{ name: "name", json: "name", kind: "string" as const }] };
    router.add(compileBinding({ bindings: [], messages, input: "t.R", output: "t.R" }, { method: "GET", path: "/v1/{name=x/**}" }), "rest");
    router.add(compileBinding({ bindings: [], messages, input: "t.R", output: "t.R" }, { method: "GET", path: "/v1/x/*/{name}" }), "three");
    const long = `/v1/x/${Array.from({ length: 200_000 }, (_, i) => `s${i}`).join("/")}`;
    const match = router.match("GET", long);
    expect(match?.entry.target).toBe("rest");
    expect(match?.values[0]).toHaveLength(long.length - 4);
    expect(router.match("GET", "/v1/x/a/b")?.entry.target).toBe("three");
    expect(router.match("GET", `/v2${long.slice(3)}`)).toBeUndefined();
  });
});

describe("bindings http.proto forbids are located errors at generation time", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "specforge-transcode-errors-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const generate = (rpcs: string) => {
    const text = [
      'syntax = "proto3";',
      "package e;",
      'import "google/api/annotations.proto";',
      "message Sub { string s = 1; }",
      "message Req { string name = 1; repeated string tags = 2; Sub sub = 3; map<string, string> labels = 4; int32 n = 5; }",
      "message Res { string out = 1; }",
      "service S {",
      rpcs,
      "}",
    ].join("\n");
    writeFileSync(path.join(dir, "e.proto"), text);
    return () => generateSpec({ file: path.join(dir, "e.proto"), display: "e.proto" }, nodeSpecHost({ includeDirs: [dir, FIXTURES, path.join(SHARED, "corpus/proto")] }));
  };
  const errorOf = (run: () => unknown): SpecError => {
    try {
      run();
    } catch (e) {
      expect(e).toBeInstanceOf(SpecError);
      return e as SpecError;
    }
    throw new Error("expected a SpecError");
  };

  it.each([
    ['option (google.api.http).get = "v1/x";', "9:36", 'Template = "/" Segments [ Verb ]'],
    ['option (google.api.http).get = "/v1/{tags}";', "9:36", "the path variables must not refer to any repeated or mapped field"],
    ['option (google.api.http).get = "/v1/{labels}";', "9:36", "the path variables must not refer to any repeated or mapped field"],
    ['option (google.api.http).get = "/v1/{sub}";', "9:36", "fields mapped to the path pattern must have a primitive (non-message) type"],
    ['option (google.api.http).get = "/v1/{nope}";', "9:36", "nope is not a field of e.Req"],
    ['option (google.api.http).get = "/v1/{name.x}";', "9:36", "name is not a message field"],
    ['option (google.api.http) = { post: "/v1/x" body: "nope" };', "9:48", "the referred field must be present at the top-level of the request message type"],
    ['option (google.api.http) = { get: "/v1/x" response_body: "nope" };', "9:47", "the referred field must be present at the top-level of the response message type"],
    ['option (google.api.http) = { get: "/v1/x" post: "/v1/y" };', "9:47", "an HttpRule has one pattern"],
    ['option (google.api.http) = { body: "*" };', "9:32", "an HttpRule needs one pattern"],
    ['option (google.api.http) = { get: "/v1/x" additional_bindings { get: "/v1/y" additional_bindings { get: "/v1/z" } } };', "9:82", "nested bindings must not contain an additional_bindings field themselves"],
    ['option (google.api.http) = { get: "/v1/x" verb: "y" };', "9:47", "HttpRule has no field verb"],
    ['option (google.api.http) = { get: 5 };', "9:34", "get is a string"],
    ['option (google.api.http) = { custom { kind: "GET" } };', "9:34", "a custom pattern needs its path"],
    ['option (google.api.http) = { custom { kind: "G T" path: "/v1/x" } };', "9:43", "is not an HTTP method"],
    ['option (google.api.http) = { get: "/v1/x" additional_bindings: 5 };', "9:47", "additional_bindings are HttpRule messages"],
    ['option (google.api.http) = { get: "/v1/x" additional_bindings: [{ get: "/v1/y" }, { get: "/v1/{tags}" }] };', "9:89", "must not refer to any repeated"],
  ] as const)("%s -> e.proto:%s %s", (option, at, rule) => {
    const e = errorOf(generate(`  rpc M(Req) returns (Res) {\n    ${option}\n  }`));
    expect(`${e.line}:${e.column}`).toBe(at);
    expect(e.file).toBe("e.proto");
    expect(e.detail).toContain("google.api.http");
    expect(e.detail).toContain(rule);
  });

  it("two bindings of a service that can match the same request", () => {
    const e = errorOf(generate([
      "  rpc A(Req) returns (Res) { option (google.api.http).get = \"/v1/{name=shelves/*}\"; }",
      "  rpc B(Req) returns (Res) { option (google.api.http).get = \"/v1/shelves/{n}\"; }",
    ].join("\n")));
    expect(e.message).toMatch(/^e\.proto:9:61: google\.api\.http: GET \/v1\/shelves\/\{n\} can match the same requests as GET \/v1\/\{name=shelves\/\*\} \(rpc A\)/);
  });

  it("a streaming method with a binding is a warning (not served over REST), not an error", () => {
    const out = generate("  rpc W(Req) returns (stream Res) { option (google.api.http).get = \"/v1/w\"; }")();
    expect(out.warnings.map((w) => `${w.file}:${w.line}: ${w.detail}`)).toEqual(["e.proto:8: google.api.http on streaming method W is not served over REST (only unary methods are transcoded)"]);
  });
});

describe("generated connect.ts with transcoding", () => {
  it("type-checks under strict (both fixtures, one program)", () => {
    const files = new Map<string, string>();
    for (const entry of ["library.proto", "http-examples.proto"]) {
      const out = generateSpec({ file: path.join(FIXTURES, entry), display: entry }, nodeSpecHost({ includeDirs: [FIXTURES, path.join(SHARED, "corpus/proto")] }));
      for (const f of out.files) files.set(f.path, f.content);
    }
    expect([...files.keys()].filter((p) => p.endsWith("connect.ts"))).toHaveLength(2);
    expect(files.get("library/connect.ts")).toContain('{ method: "PATCH", path: "/v1/{book.name=shelves/*/books/*}", body: "book" }');
    expect(typecheckFiles(files).filter((d) => !d.startsWith(".."))).toEqual([]);
  });
});

describe("protoc-gen-specforge (descriptors) reads google.api.http too", () => {
  it("the same connect.ts as the .proto front end, for both fixtures", () => {
    const root = mkdtempSync(path.join(tmpdir(), "specforge-transcode-desc-"));
    try {
      for (const entry of ["library.proto", "http-examples.proto"]) {
        const set = path.join(root, `${entry}.binpb`);
        execFileSync("protoc", [`-I${FIXTURES}`, `-I${path.join(SHARED, "corpus/proto")}`, "--include_imports", "--include_source_info", `--descriptor_set_out=${set}`, entry], { timeout: 30_000 });
        const files = fromBinary(FileDescriptorSetSchema, readFileSync(set)).file;
        const spec = { file: path.join(FIXTURES, entry), display: entry };
        const fromDescriptors = generateFromDocument(lowerDescriptors(files, entry), spec).files.find((f) => f.path.endsWith("connect.ts"));
        const fromText = generateSpec(spec, nodeSpecHost({ includeDirs: [FIXTURES, path.join(SHARED, "corpus/proto")] })).files.find((f) => f.path.endsWith("connect.ts"));
        expect(fromDescriptors?.content).toContain("http: {");
        expect(fromDescriptors?.content).toBe(fromText?.content);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
