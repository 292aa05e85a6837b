/**
 * No injection through specs. test/hostile/specs/ holds one hostile spec per format: names that are reserved words,
 * `constructor`, `__proto__`, `then`, leading digits, non-ASCII, names that collide after sanitizing; documentation
 * with `*\/`, U+2028 and U+2029; enum values, defaults, patterns, namespaces, SOAP actions and paths with quotes,
 * backslashes, `${`, newlines — and `globalThis.__pwned = ...` / `process.exit(7)` in every text position.
 *
 * For each: every artifact is generated, type-checked under strict, scanned (as a TypeScript AST) for any code the
 * spec slipped in, imported and used (codecs, validators, clients and servers over loopback), and checked to do what
 * the spec means. `globalThis.__pwned` stays undefined and process.exit is never called.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { nodeSpecHost } from "../../src/parsers/host.js";
import { generateSpec, type SpecOutput } from "../../src/pipeline/generate-files.js";
import { serveNode, type NodeServerHandle } from "../../src/runtime/http/node.js";
import { typecheckFiles } from "../helpers/typecheck.js";

const SPECS = path.join(import.meta.dirname, "specs");
const pwned = () => (globalThis as { __pwned?: unknown }).__pwned;

// The spec's hostile enumeration (WSDL and OpenAPI carry the same list), exactly as the spec means it.
const HOSTILE_VALUES = [
  "constructor", "__proto__", 'a"b', "it's", "back\\slash", "${globalThis.__pwned = 3}", "line\nbreak",
  "*/ process.exit(7) /*", "u\u2028v\u2029w", "", "ñandú", "toString",
];

// ---- generation helpers -------------------------------------------------------------------------------------------

const roots: string[] = [];
const servers: NodeServerHandle[] = [];
let exitSpy: ReturnType<typeof vi.spyOn>;

beforeAll(() => {
  delete (globalThis as { __pwned?: unknown }).__pwned;
  exitSpy = vi.spyOn(process, "exit").mockImplementation(((code?: number) => {
    throw new Error(`process.exit(${code}) called by generated code`);
  }) as never);
});

afterAll(async () => {
  for (const s of servers) await s.close();
  for (const r of roots) rmSync(r, { recursive: true, force: true });
  expect(exitSpy).not.toHaveBeenCalled();
  expect(pwned()).toBeUndefined();
  exitSpy.mockRestore();
});

interface Generated {
  readonly out: SpecOutput;
  readonly files: Map<string, string>;
  /** Absolute folder of the spec's generated files. */
  readonly dir: string;
}

function generate(spec: string): Generated {
  const out = generateSpec({ file: path.join(SPECS, spec), display: spec }, nodeSpecHost({}));
  const root = mkdtempSync(path.join(tmpdir(), "specforge-hostile-"));
  roots.push(root);
  for (const f of out.files) {
    mkdirSync(path.dirname(path.join(root, f.path)), { recursive: true });
    writeFileSync(path.join(root, f.path), f.content);
  }
  return { out, files: new Map(out.files.map((f) => [f.path, f.content])), dir: path.join(root, out.dir) };
}

/** Identifiers a hostile spec tried to turn into code; none may appear outside strings and comments. */
const INJECTED = new Set(["__pwned", "exit", "process"]);

function injectedCode(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && INJECTED.has(node.text)) {
      const { line, character } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
      found.push(`${file}:${line + 1}:${character + 1}: ${node.text}`);
    }
    // Template literals are never how generated code carries spec text.
    if (ts.isTemplateExpression(node)) found.push(`${file}: template expression ${node.getText(sf).slice(0, 60)}`);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  // Every comment opened is closed where the emitter meant: the file parsed without syntax errors.
  const diagnostics = (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
  for (const d of diagnostics) found.push(`${file}: syntax: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
  return found;
}

function checkStatic(g: Generated, artifacts: string[]): void {
  expect([...g.files.keys()].map((p) => path.posix.basename(p)).sort()).toEqual([...artifacts, "index.ts"].sort());
  expect(typecheckFiles(g.files)).toEqual([]);
  const injected = [...g.files].flatMap(([file, text]) => injectedCode(file, text));
  expect(injected).toEqual([]);
  // The hostile documentation is kept (escaped), not dropped.
  const types = g.files.get(`${g.out.dir}/types.ts`)!;
  expect(types).toContain("*\\/ globalThis.__pwned = 1; process.exit(7); /*");
  expect(types).toContain("ñandú 数据");
}

async function importAll(g: Generated): Promise<Record<string, any>> {
  const mod = (await import(path.join(g.dir, "index.ts"))) as Record<string, any>;
  expect(pwned()).toBeUndefined();
  return mod;
}

async function listen(handler: (request: Request) => Promise<Response>): Promise<NodeServerHandle> {
  const server = await serveNode(handler, { onError: () => undefined });
  servers.push(server);
  return server;
}

/** A client object must not be a thenable: `await` hands back the client itself. */
async function notThenable(client: object): Promise<void> {
  expect("then" in client).toBe(false);
  expect(await Promise.resolve(client)).toBe(client);
}

// ---- proto ----------------------------------------------------------------------------------------------------------

describe("hostile.proto", () => {
  let g: Generated;
  let m: Record<string, any>;
  beforeAll(async () => {
    g = generate("hostile.proto");
    m = await importAll(g);
  });

  it("generates every artifact, strict-clean, with no injected code", () => {
    checkStatic(g, ["types.ts", "protobuf.ts", "protojson.ts", "validate.ts", "prototext.ts", "feed.ts", "connect.ts"]);
  });

  it("enum values and defaults are exactly the spec's", () => {
    expect(m.Kinds_KindValues).toEqual(["constructor", "__proto__", "toString", "hasOwnProperty", "prototype", "then", "valueOf", "__defineGetter__"]);
    expect(m.ObjectValues).toEqual(["Function", "Promise", "Symbol"]);
    const d = m.ConstructorDefaults;
    expect(d.Proto).toBe('"; globalThis.__pwned = 3; "\\ ${globalThis.__pwned = 4} */ \n\r\t\u2028 \u2029 end');
    expect(d.constructor$).toBe("` + (globalThis.__pwned = 5) + `");
    expect(d.prototype).toBe("*/ process.exit(7) /*");
    expect(d.then).toBe("\\");
    expect(d.kind).toBe("__proto__");
    expect(d.raw).toEqual(new Uint8Array([0, 1, 255, 34, 39]));
    expect([d.big, d.ubig, d.valueOf$, d.inf]).toEqual([-(2n ** 63n), 2n ** 64n - 1n, -2147483648, -Infinity]);
    expect(Number.isNaN(d.nan)).toBe(true);
  });

  /** Every field set, Object.prototype member names included (escaped with `$`). */
  const full = () => ({
    Proto: "\"'`${x}` */ \u2028\u2029 ñ",
    constructor$: "c",
    prototype: "p",
    toString$: "t",
    valueOf$: -5,
    kind: "__proto__",
    obj: "Promise",
    then: "th",
    nan: 1.5,
    inf: Infinity,
    raw: new Uint8Array([1, 2]),
    big: -5n,
    ubig: 2n ** 64n - 1n,
    fooBar: "1",
    fooBar_2: "2",
    fooBar_3: "3",
    FooBar: "4",
    classes: [{ function: 1, return: "r" }],
    DefineSetter: Object.fromEntries([["__proto__", "x"], ["constructor", "y"]]),
    error: { message: "m" },
    uint8Array: { bytes: new Uint8Array([3]) },
    hasOwnProperty$: { case: "isPrototypeOf$", value: "ip" },
    group: { propertyIsEnumerable$: "pe" },
    jsonWeird: "jw",
    self: { constructor$: "nested", kind: "then" },
  });

  it("the binary codec round-trips a value with every hostile name; absent fields stay absent", () => {
    const value = full();
    const back = m.decodeConstructor(m.encodeConstructor(value));
    expect(back).toEqual(value);
    expect(Object.hasOwn(back.DefineSetter, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(back.DefineSetter)).toBe(Object.prototype);
    expect(m.validateConstructor(back)).toEqual([]);
    const empty = m.decodeConstructor(new Uint8Array(0));
    expect(Object.keys(empty)).toEqual([]);
    expect(m.encodeConstructor(empty)).toEqual(new Uint8Array(0));
    // A plain object's inherited members are not fields: nothing is written for them.
    expect(m.encodeConstructor({})).toEqual(new Uint8Array(0));
  });

  it("the text format prints every hostile name and string exactly as protoc --decode does", () => {
    const bytes = m.encodeConstructor(full());
    const dir = path.join(import.meta.dirname, "specs");
    const theirs = execFileSync("protoc", [`-I${dir}`, "--decode=hostile.v1.constructor", "hostile.proto"], { cwd: dir, input: bytes, stdio: ["pipe", "pipe", "pipe"] }).toString("utf8");
    expect(m.toTextConstructor(m.decodeConstructor(bytes))).toBe(theirs);
    expect(theirs).toContain('__proto__: "\\"\\\'`${x}` */ ');
  });

  it("ProtoJSON round-trips it with the spec's json_name keys; __proto__ keys never reach a prototype", () => {
    const value = full();
    const text = m.toJsonStringConstructor(value);
    const json = JSON.parse(text);
    expect(Object.keys(json)).toEqual(expect.arrayContaining(["Proto", "constructor", "__proto__x", 'a"b${c}\\d */ e', "DefineSetter"]));
    expect(json.__proto__x).toBe("t");
    // foo_bar, foo__bar and fooBar_ share the JSON name "fooBar" (protoc allows that in proto2 with a warning; in
    // proto3 it is a spec error): ProtoJSON keeps the last one. Every other field round-trips.
    expect(m.fromJsonStringConstructor(text)).toEqual({ ...value, fooBar: "3", fooBar_2: undefined, fooBar_3: undefined });
    // "__proto__" is the proto name of the field Proto (ProtoJSON accepts proto names): data, type-checked as such.
    const hostile = '{"DefineSetter": {"__proto__": "x"}, "self": {"__proto__": "y"}, "constructor": "z", "toString": "w"}';
    const read = m.fromJsonStringConstructor(hostile);
    expect(Object.hasOwn(read.DefineSetter, "__proto__")).toBe(true);
    expect([read.self.Proto, read.constructor$, read.toString$]).toEqual(["y", "z", "w"]);
    expect(() => m.fromJsonStringConstructor('{"__proto__": {"polluted": true}}')).toThrow("/__proto__: expected a string, got an object");
    expect(() => m.fromJsonStringConstructor('{"self": {"hasOwnProperty": 1}}')).toThrow(/hasOwnProperty/);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
  });

  it("Connect: client and handler over loopback, in both formats; methods named then/__proto__ are escaped", async () => {
    const handler = m.create__proto__Handler({
      constructor: async (req: any) => ({ ...req, then: "echo" }),
      toString: async (page: any) => page,
      hasOwnProperty: async (c: any) => ({ message: `function=${c.function}` }),
      then$: async (page: any) => ({ ...page, nextRequestUrl: "then" }),
      __proto__$: async (page: any) => ({ ...page, nextRequestUrl: "proto" }),
    });
    const server = await listen(handler);
    for (const format of ["proto", "json"] as const) {
      const client = m.create__proto__Client({ baseUrl: server.url, format });
      await notThenable(client);
      const value = full();
      const merged = format === "json" ? { fooBar: "3", fooBar_2: undefined, fooBar_3: undefined } : {};
      expect(await client.constructor(value)).toEqual({ ...value, ...merged, then: "echo" });
      expect(await client.hasOwnProperty({ function: 7 })).toEqual({ message: "function=7" });
      expect((await client.then$({ nextRequestUrl: "" })).nextRequestUrl).toBe("then");
      expect((await client.__proto__$({ nextRequestUrl: "" })).nextRequestUrl).toBe("proto");
      expect(Object.getPrototypeOf(client)).toBe(Object.prototype);
    }
  });
});

// ---- WSDL -----------------------------------------------------------------------------------------------------------

describe("hostile.wsdl", () => {
  let g: Generated;
  let m: Record<string, any>;
  beforeAll(async () => {
    g = generate("hostile.wsdl");
    m = await importAll(g);
  });

  it("generates every artifact, strict-clean, with no injected code", () => {
    checkStatic(g, ["types.ts", "xml.ts", "validate.ts", "client.ts", "server.ts"]);
  });

  it("the enumeration's values are exactly the spec's", () => {
    expect(m.KindValues).toEqual(HOSTILE_VALUES);
    for (const v of HOSTILE_VALUES) expect(m.validateKind(v)).toEqual([]);
    expect(m.validateKind("a\\\"b")).not.toEqual([]);
  });

  const full = () => ({
    __proto__$: "p\"'<&>]]> \u2028",
    constructor$: "c",
    prototype: "pr",
    toString$: "ts",
    hasOwnProperty$: 5,
    kind: HOSTILE_VALUES.filter((v) => v.trim() === v && v !== ""),
    code: 'ab")/; globalThis.__pwned = 4; /',
    "a-b": "1",
    "a.b": "2",
    a_b: "3",
    "Größe": "1.5",
    "数据": "d",
    then: "t",
    child: { constructor$: "inner" },
    class: { $type: "class", valueOf$: "v", function: "f" },
    defaulted: "x",
    __proto__$_2: "attr \"'<&\n\t",
    valueOf$: "va",
    fixedOne: "\"'\\\n",
  });

  it("the XML codec round-trips a value with every hostile name; <__proto__> never sets a prototype", () => {
    const value = full();
    const xml = m.encodeConstructorElement(value);
    const back = m.decodeConstructorElement(xml);
    expect(back).toEqual(value);
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(m.validateConstructor(back)).toEqual([]);
    // The same element names in a payload decode into the escaped properties, never onto the prototype.
    const ns = 'urn:hostile"${globalThis.__pwned=9}`\\*/';
    const attr = ns.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
    const payload = `<x:constructor xmlns:x="${attr}"><x:__proto__>evil</x:__proto__><x:constructor>c</x:constructor><x:child><x:__proto__>deep</x:__proto__></x:child></x:constructor>`;
    const read = m.decodeConstructorElement(payload);
    expect(read).toEqual({ __proto__$: "evil", constructor$: "c", child: { __proto__$: "deep" } });
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(m.encodeConstructorElement({})).not.toContain("function");
  });

  it("the translated pattern means what the XSD says", () => {
    expect(m.validateCode('ab")/; globalThis.__pwned = 4; /')).toEqual([]);
    expect(m.validateCode('ab")/; globalThis.__pwned = 4; /*/')).toEqual([]);
    expect(m.validateCode("abc")).toEqual([expect.objectContaining({ rule: "pattern" })]);
  });

  it("SOAP client and server over loopback; operations named __proto__/then/setEndpoint are escaped on the client", async () => {
    // Handler keys go through the naming rule too: `then$`, `__proto__$` (the handlers object is not a thenable).
    const handlers = {
      __proto__$: (input: any) => ({ ...input, then: "echo" }),
      then$: (input: any) => ({ ...input, function: "then" }),
    };
    const server = await listen(m.create__proto__Server(handlers));
    const client = m.create__proto__Client({ endpoint: `${server.url}/soap` });
    await notThenable(client);
    const value = full();
    expect((await client.__proto__$(value)).body).toEqual({ ...value, then: "echo" });
    expect((await client.then$({ $type: "class", valueOf$: "v" })).body).toEqual({ $type: "class", valueOf$: "v", function: "then" });
    // No handler for "constructor": a Server fault, not Object() echoing the input back.
    await expect(client.constructor({ message: "m" })).rejects.toThrow("operation constructor is not implemented");
    await expect(client.setEndpoint$({ url: "http://127.0.0.1:1/" })).rejects.toThrow("operation setEndpoint is not implemented");
    expect(client.endpoint).toBe(`${server.url}/soap`);
  });
});

// ---- OpenAPI --------------------------------------------------------------------------------------------------------

describe("hostile.openapi.yaml", () => {
  let g: Generated;
  let m: Record<string, any>;
  beforeAll(async () => {
    g = generate("hostile.openapi.yaml");
    m = await importAll(g);
  });

  it("generates every artifact, strict-clean, with no injected code", () => {
    checkStatic(g, ["types.ts", "validate.ts", "json.ts", "client.ts", "server.ts"]);
  });

  it("enum values are exactly the spec's", () => {
    expect(m.KindValues).toEqual(HOSTILE_VALUES);
    expect(m.ConstructorConstValues).toEqual(["${globalThis.__pwned = 12}"]);
    expect(m.ΩmegaValues).toEqual(["α", "β"]);
    for (const v of HOSTILE_VALUES) expect(m.isKind(v)).toBe(true);
    expect(m.isKind("a\\\"b")).toBe(false);
  });

  it("JSON codecs keep __proto__/constructor as data, round-trip them, and never touch a prototype", () => {
    const text = '{"__proto__":"p","constructor":"c","toString":"ab\\")/; globalThis.__pwned = 4; /","hasOwnProperty":true,"kind":["__proto__","a\\"b"],"a-b":"1","0lead":"z","then":"t","child":{"__proto__":"q","constructor":"d"},"map":{"__proto__":"m","constructor":"n"}}';
    const value = m.decodeConstructorJson(text);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(value["__proto__"]).toBe("p");
    expect(value.map["__proto__"]).toBe("m");
    expect(m.encodeConstructorJson(value)).toBe(text);
    expect(({} as { constructor: unknown }).constructor).toBe(Object);
    // Inherited members are not properties: `constructor` is required and {} does not have it.
    expect(m.isConstructor({})).toBe(false);
    expect(m.validateConstructor({})).toEqual([expect.objectContaining({ path: "/constructor", rule: "required" })]);
    expect(() => m.decodeConstructorJson('{"constructor":"c","toString":"abc"}')).toThrow(expect.objectContaining({ name: "ValidationError" }));
  });

  it("REST client and server over loopback: hostile parameter names and values arrive as the spec means", async () => {
    const seen: unknown[] = [];
    const server = await listen(
      m.createHostileAPIGlobalThisPwned10Server({
        then$: ({ path: p, query, header }: any) => {
          seen.push({ proto: Object.hasOwn(p, "__proto__") ? p["__proto__"] : "inherited", query, header });
          return { status: 200, body: { constructor: p["__proto__"], kind: query.constructor === undefined ? [] : [query.constructor] } };
        },
        proto: ({ body }: any) => ({ status: 200, body }),
        constructor: ({ body }: any) => ({ status: 201, body: body ?? {} }),
        toString: () => ({ status: 204, body: undefined }),
      }),
    );
    const client = m.createHostileAPIGlobalThisPwned10Client({ baseUrl: `${server.url}/api/v1` });
    await notThenable(client);
    const got = await client.then$({
      path: Object.fromEntries([["__proto__", 'p/q"${x}']]),
      query: { constructor: "u\u2028v\u2029w", toString: 3 },
      header: { "x-evil": "ok" },
    });
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ constructor: 'p/q"${x}', kind: ["u\u2028v\u2029w"] });
    expect(seen).toEqual([{ proto: 'p/q"${x}', query: { constructor: "u\u2028v\u2029w", toString: 3 }, header: { "x-evil": "ok" } }]);
    // A value outside the enum is the server's 400, not the handler's business.
    const bad = await fetch(`${server.url}/api/v1/things/x?constructor=nope`);
    expect(bad.status).toBe(400);
    const body = Object.fromEntries([["__proto__", "b"], ["constructor", "c"]]);
    const put = await client.proto({ path: Object.fromEntries([["__proto__", "k"]]), body });
    expect(put.body).toEqual(body);
    expect(Object.hasOwn(put.body, "__proto__")).toBe(true);
    expect((await client.constructor({ body: { function: "f" } })).body).toEqual({ function: "f" });
    expect((await client.toString()).status).toBe(204);
  });
});
