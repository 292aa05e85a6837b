/**
 * Property: whatever operationIds and schema names a document uses (quotes, slashes, dots, spaces, keywords,
 * `__proto__`, `constructor`, U+2028, names equal to runtime exports, names that collide once cased), every
 * artifact generated from it compiles under strict, imports without side effects, and exports only names the
 * naming pass handed out for what the spec declares.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { derivedFunctionNames } from "../../src/naming/derived.js";
import { assignNames } from "../../src/naming/assign-names.js";
import { RUNTIME_EXPORTS } from "../../src/naming/runtime-names.js";
import { memorySpecHost } from "../../src/parsers/host.js";
import { generateSpec } from "../../src/pipeline/generate-files.js";
import { REPO } from "../helpers/seeds.js";
import { typecheckFiles } from "../helpers/typecheck.js";
import { pointRuntimeAt } from "../helpers/source-runtime.js";

const RUNTIME = path.join(REPO, "src/runtime/index.ts");
const pwned = () => (globalThis as { __pwned?: unknown }).__pwned;
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

const HOSTILE_WORDS = [
  "__proto__", "constructor", "then", "toString", "prototype", "hasOwnProperty", "default", "class", "delete",
  "new", "await", "Promise", "Error", "ValidationError", "validation-error", "isNil", "Nil", "Response",
  "URLSearchParams", "PATTERN_1", "VALUES_1", "OBJECT_PROTOTYPE", "Parameters", "Awaited", "RangeError",
  '"; globalThis.__pwned = 1; "', "*/ globalThis.__pwned = 2; /*", "${globalThis.__pwned = 3}", "a\u2028b",
  "u\u2029v", "1st", "", " ", "$", "$ref", "pet.get-one", "meta/root", "find pet by id", "Foo", "foo", "FOO",
  "foo_bar", "fooBar", "Foo$1", "CreatePetResponse", "createPet", "ñandú", "日本",
];
const PIECES = [..."aZ09 _-./$\"'`\\*{}", "\u2028", "__proto__", "constructor", "then", "Json", "Response", "Value"];

/** A name: a hostile word, a runtime export, or a random mix of awkward pieces. */
const nameArb = fc.oneof(
  fc.constantFrom(...HOSTILE_WORDS),
  fc.constantFrom(...RUNTIME_EXPORTS),
  fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 6 }).map((parts) => parts.join("")),
);

function documentOf(schemaNames: readonly string[], operationIds: readonly string[]): string {
  // Null-prototype objects: `schemas["__proto__"] = x` must make a key, not set a prototype.
  const schemas: Record<string, unknown> = Object.create(null);
  schemaNames.forEach((name, i) => {
    schemas[name] =
      i % 3 === 0 ? { type: "string", enum: ["a", name] }
      : i % 3 === 1 ? { type: "object", required: ["id"], properties: Object.fromEntries([["id", { type: "integer" }], [name, { type: "string" }]]) }
      : { oneOf: [{ $ref: `#/components/schemas/${encodePointer(schemaNames[i - 1]!)}` }, { type: "array", items: { type: "string" } }] };
  });
  const paths: Record<string, unknown> = Object.create(null);
  operationIds.forEach((id, i) => {
    const schema = { $ref: `#/components/schemas/${encodePointer(schemaNames[i % schemaNames.length]!)}` };
    paths[`/p${i}/{id}`] = {
      post: {
        operationId: id,
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }, { name: id || "q", in: "query", schema: { type: "string" } }],
        requestBody: { required: true, content: { "application/json": { schema } } },
        responses: { "200": { description: id, content: { "application/json": { schema } } }, "4XX": { description: "bad" } },
      },
    };
  });
  return JSON.stringify({ openapi: "3.1.0", info: { title: operationIds[0] ?? "T", version: "1" }, paths, components: { schemas } });
}

function encodePointer(segment: string): string {
  return encodeURIComponent(segment.replace(/~/g, "~0").replace(/\//g, "~1"));
}

const EXPORT = /^export (?:declare )?(?:async )?(?:function|const|interface|type|class) ([^\s<(:={]+)/gm;

/** Generate, type-check, check the exports, import: the whole property for one document. */
async function checkDocument(schemaNames: readonly string[], operationIds: readonly string[]): Promise<void> {
  const text = documentOf(schemaNames, operationIds);
  const out = generateSpec({ file: "/spec/api.json", display: "api.json", outDir: "api" }, memorySpecHost({ "/spec/api.json": text }));
  const files = new Map(out.files.map((f) => [f.path, f.content]));
  expect(typecheckFiles(files)).toEqual([]);

  // Every exported name is one the naming pass gave out for something the spec declares.
  const names = assignNames(out.doc);
  const allowed = new Set<string>();
  for (const t of out.doc.types) {
    const n = names.type(t.id);
    allowed.add(n);
    for (const d of derivedFunctionNames("openapi", n)) allowed.add(d);
    if (t.kind === "enum") allowed.add(names.enumValues(t.id));
    allowed.add(names.standardSchema(t.id));
    const family = names.family(t.id);
    if (family) allowed.add(family);
  }
  out.doc.services.forEach((_, i) => {
    allowed.add(names.service(i));
    const api = names.api(i);
    for (const n of [api.client, api.createClient, api.handlers, api.server, api.createServer]) allowed.add(n);
  });
  for (const [file, content] of files) {
    for (const m of content.matchAll(EXPORT)) expect(allowed, `${file} exports ${m[1]}`).toContain(m[1]);
    // The one re-export: the runtime API check, under a `$` name no spec name becomes (docs/runtime.md).
    for (const m of content.matchAll(/^export type \{[^\n]*$/gm)) expect(m[0], file).toMatch(/^export type \{ RuntimeApi\d+ as \$specforgeRuntimeApi \} from "[^"]+";$/);
  }

  // Import every module: nothing the spec wrote runs.
  const root = mkdtempSync(path.join(tmpdir(), "specforge-names-"));
  roots.push(root);
  for (const [file, content] of files) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), pointRuntimeAt(content, RUNTIME));
  }
  const index = (await import(pathToFileURL(path.join(root, "api/index.ts")).href)) as Record<string, unknown>;
  expect(pwned()).toBeUndefined();
  expect(typeof index[names.api(0).createClient]).toBe("function");
  expect(typeof index[names.api(0).createServer]).toBe("function");
}

describe("hostile operationIds and schema names", () => {
  it("every hard case at once, as schema names and as operationIds", async () => {
    // The runtime exports generated files actually import, so a clash with one would not compile.
    const imported = ["ValidationError", "ValidationIssue", "RestClientOptions", "RestServerOptions", "restSend", "RestResponse", "RestReply"];
    const all = [...new Set([...HOSTILE_WORDS, ...imported])];
    await checkDocument(all, all);
  }, 60_000);

  it("random ones always give code that compiles, imports cleanly and declares only what the spec means", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(nameArb, { minLength: 3, maxLength: 9 }),
        fc.uniqueArray(nameArb, { minLength: 1, maxLength: 6 }),
        checkDocument,
      ),
      // Each run type-checks a whole generated package (~2 s); 10 runs try ~120 names of each kind.
      { numRuns: 10, seed: 13, endOnFailure: true },
    );
  }, 240_000);
});

/**
 * The same property for proto (issue 28 item 5: "random clashing names for all three formats"): message, enum,
 * service and rpc names glued from pieces that other names' helpers and functions start or end with (Text, Write,
 * Read, Check, String, Json, Value, Defaults, Client, Implementation, Entry, Page, Of), so one message's derived name
 * is often another's type name or derived name. Every message is a proto2 message with a default (a `Defaults`
 * constant), every third a feed page over an earlier message, and the service's rpcs take and return them. Strict
 * tsc must be clean and every function the naming pass promises must be exported by its file, once.
 */
const PROTO_PIECES = ["Foo", "Text", "Write", "Read", "Check", "String", "Json", "Value", "Defaults", "Client", "Implementation", "Entry", "Page", "Of", "S", "_", "x"];
const protoNameArb = fc.array(fc.constantFrom(...PROTO_PIECES), { minLength: 1, maxLength: 3 }).map((p) => p.join("")).filter((n) => /^[A-Za-z]/.test(n));

function protoDocument(messages: readonly string[], service: string, rpcs: readonly string[]): string {
  const lines = ['syntax = "proto2";', "package t;", `enum ${messages[0]}Kind { ${messages[0]!.toUpperCase()}_KIND_A = 0; }`];
  messages.forEach((m, i) => {
    const fields = [`optional int32 x = 1 [default = ${i + 1}];`];
    if (i % 3 === 2) fields.push("optional string next_request_url = 2;", `repeated ${messages[i - 1]} items = 3;`);
    else fields.push(`optional ${messages[0]}Kind kind = 2;`);
    lines.push(`message ${m} { ${fields.join(" ")} }`);
  });
  lines.push(`service ${service} { ${rpcs.map((r, i) => `rpc ${r}(${messages[i % messages.length]}) returns (${messages[(i + 1) % messages.length]});`).join(" ")} }`);
  return lines.join("\n") + "\n";
}

async function checkProtoDocument(messages: readonly string[], service: string, rpcs: readonly string[]): Promise<void> {
  const text = protoDocument(messages, service, rpcs);
  const out = generateSpec({ file: "/spec/a.proto", display: "a.proto", outDir: "p" }, memorySpecHost({ "/spec/a.proto": text }));
  const files = new Map(out.files.map((f) => [f.path, f.content]));
  expect(typecheckFiles(files), text).toEqual([]);
  const exported = (file: string) => [...(files.get(`p/${file}`) ?? "").matchAll(EXPORT)].map((m) => m[1]!);
  for (const [file] of files) {
    const all = exported(path.basename(file));
    expect(all.filter((n, i) => all.indexOf(n) !== i), `${file} of\n${text}`).toEqual([]);
  }
  const names = assignNames(out.doc);
  const expectIn = (file: string, wanted: readonly string[]) => expect(exported(file), `${file} of\n${text}`).toEqual(expect.arrayContaining([...wanted]));
  const records = out.doc.types.filter((t) => t.kind === "record" && !t.id.startsWith("proto:.google."));
  for (const r of records) {
    const d = (role: Parameters<typeof names.derived>[1]) => names.derived(r.id, role);
    expectIn("protobuf.ts", [d("encode"), d("decode"), d("defaults")]);
    expectIn("validate.ts", [d("validate")]);
    expectIn("protojson.ts", [d("toJson"), d("fromJson"), d("toJsonString"), d("fromJsonString")]);
    expectIn("prototext.ts", [d("toText"), d("fromText")]);
    const feed = names.feed(r.id);
    if (feed) expectIn("feed.ts", [feed.fetch, feed.iterate, feed.serve]);
  }
  const s = out.doc.services.findIndex((x) => x.kind === "rpc");
  const rpc = names.rpc(s);
  expectIn("connect.ts", [rpc.client, rpc.implementation, rpc.createClient, rpc.createHandler]);
}

describe("random clashing proto message, service and rpc names", () => {
  it("the hard cases by hand: Value/StringValue, FooDefaults, TextFoo, SClient, a page named like an iterator", async () => {
    await checkProtoDocument(
      ["Foo", "Value", "StringValue", "FooDefaults", "TextFoo", "Entry", "SClient", "StringFoo", "Entries", "SImplementation", "JsonValue", "ValueDefaults"],
      "S",
      ["Get", "get", "Then", "Read"],
    );
  }, 60_000);

  it("random ones: strict tsc clean, every promised function exported once", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(protoNameArb, { minLength: 3, maxLength: 9 }),
        protoNameArb,
        fc.uniqueArray(fc.constantFrom("Get", "Put", "get", "Then", "Read", "Write", "Text", "Value"), { minLength: 1, maxLength: 4 }),
        checkProtoDocument,
      ),
      { numRuns: 8, seed: 28, endOnFailure: true },
    );
  }, 240_000);
});
