/**
 * Spec errors end to end, per parser: the CLI prints exactly `file:line:col: message` (no stack trace), exits 1,
 * and leaves the output folder exactly as it was (same files, same bytes, same modification times, no staging
 * leftovers). The parsers' own tables (test/parsers/*\/errors.test.ts) cover many more messages at parse level;
 * these rows are the kinds the issue names, run through the command line.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { REPO } from "../helpers/seeds.js";

interface Row {
  readonly name: string;
  /** Files of the failing spec, relative to the project; the first one is the spec given to the CLI. */
  readonly files: Record<string, string>;
  /** The exact stderr line (without the newline). */
  readonly message: string;
}

const XSD = "http://www.w3.org/2001/XMLSchema";
const schema = (body: string) => `<xsd:schema xmlns:xsd="${XSD}" xmlns:tns="urn:t" targetNamespace="urn:t" elementFormDefault="qualified">\n${body}\n</xsd:schema>\n`;
const wsdl = (body: string) =>
  `<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:tns="urn:w" targetNamespace="urn:w">\n${body}\n</wsdl:definitions>\n`;
const v30 = (body: string) => `openapi: 3.0.3\ninfo: {title: T, version: "1"}\n${body}`;
const P3 = 'syntax = "proto3";\n';

const GOOD = {
  wsdl: ["good.xsd", schema(`<xsd:element name="Hello"><xsd:complexType><xsd:sequence><xsd:element name="name" type="xsd:string"/></xsd:sequence></xsd:complexType></xsd:element>`)],
  openapi: ["good.yaml", v30(`paths: {}\ncomponents:\n  schemas:\n    Hello: {type: object, properties: {name: {type: string}}}\n`)],
  proto: ["good.proto", P3 + "message Hello { string name = 1; }\n"],
} as const;

const ROWS: Record<keyof typeof GOOD, Row[]> = {
  wsdl: [
    { name: "malformed XML", files: { "bad.xsd": schema(`<xsd:complexType name="A">\n  <xsd:sequence>\n</xsd:complexType>`) }, message: "bad.xsd:4:1: end tag </xsd:complexType> does not match <xsd:sequence> (opened at line 3, column 3)" },
    { name: "DOCTYPE in a spec", files: { "bad.xsd": `<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n` + schema("") }, message: "bad.xsd:1:1: DOCTYPE is not allowed" },
    // An element's type= naming nothing is a warning (a missing component, typed anyType); a base= is an error.
    { name: "unknown type", files: { "bad.xsd": schema(`<xsd:simpleType name="S"><xsd:restriction base="tns:Nope"/></xsd:simpleType>`) }, message: "bad.xsd:2:26: unknown type 'tns:Nope' ({urn:t}Nope)" },
    { name: "unknown element reference", files: { "bad.xsd": schema(`<xsd:complexType name="T"><xsd:sequence>\n<xsd:element ref="tns:nope"/></xsd:sequence></xsd:complexType>`) }, message: "bad.xsd:3:1: unknown element 'tns:nope' ({urn:t}nope)" },
    {
      name: "circular extension",
      files: { "bad.xsd": schema(`<xsd:complexType name="A"><xsd:complexContent><xsd:extension base="tns:B"/></xsd:complexContent></xsd:complexType>\n<xsd:complexType name="B"><xsd:complexContent><xsd:extension base="tns:A"/></xsd:complexContent></xsd:complexType>`) },
      message: "bad.xsd:2:1: circular type derivation: {urn:t}A -> {urn:t}B -> {urn:t}A",
    },
    { name: "duplicate type", files: { "bad.xsd": schema(`<xsd:complexType name="A"/>\n<xsd:complexType name="A"/>`) }, message: "bad.xsd:3:1: duplicate type '{urn:t}A' (first declared at bad.xsd:2:1)" },
    { name: "duplicate wsdl:message", files: { "bad.wsdl": wsdl(`<wsdl:message name="m"/>\n<wsdl:message name="m"/>`) }, message: "bad.wsdl:3:1: duplicate wsdl:message '{urn:w}m' (first declared at bad.wsdl:2:1)" },
    { name: "unknown wsdl:message", files: { "bad.wsdl": wsdl(`<wsdl:portType name="P"><wsdl:operation name="o">\n<wsdl:input message="tns:m"/></wsdl:operation></wsdl:portType>`) }, message: "bad.wsdl:3:1: unknown message 'tns:m' ({urn:w}m)" },
    {
      name: "xsd:redefine of a type the redefined schema does not declare",
      files: { "bad.xsd": schema(`<xsd:redefine schemaLocation="inc.xsd">\n<xsd:simpleType name="Nope"><xsd:restriction base="tns:Nope"/></xsd:simpleType></xsd:redefine>`), "inc.xsd": `<xsd:schema xmlns:xsd="${XSD}" targetNamespace="urn:t"/>\n` },
      message: "bad.xsd:3:1: xsd:redefine of type '{urn:t}Nope', which the redefined schema does not declare",
    },
    { name: "unsupported xsd:interleave", files: { "bad.xsd": schema(`<xsd:complexType name="T"><xsd:interleave/></xsd:complexType>`) }, message: "bad.xsd:2:27: xsd:interleave is not supported in xsd:complexType" },
    { name: "WSDL 2.0", files: { "bad.wsdl": `<description xmlns="http://www.w3.org/ns/wsdl"/>\n` }, message: "bad.wsdl:1:1: WSDL 2.0 is not supported (only WSDL 1.1)" },
    {
      name: "malformed XML in an included schema",
      files: { "bad.xsd": schema(`<xsd:include schemaLocation="inc.xsd"/>`), "inc.xsd": `<xsd:schema xmlns:xsd="${XSD}" targetNamespace="urn:t">\n  <oops></xsd:schema>\n` },
      message: "inc.xsd:2:9: end tag </xsd:schema> does not match <oops> (opened at line 2, column 3)",
    },
  ],
  openapi: [
    { name: "malformed YAML", files: { "bad.yaml": `openapi: 3.0.3\ninfo: {title: T, version: "1"\npaths: {}\n` }, message: "bad.yaml:3:1: invalid YAML/JSON: Flow map in block collection must be sufficiently indented and end with a }" },
    { name: "malformed JSON", files: { "bad.json": `{"openapi": "3.0.3",\n "info": {"title": "T", "version": "1"},\n "paths": {,}}\n` }, message: `bad.json:3:12: invalid JSON: expected a property name in double quotes, found ","` },
    { name: "duplicate key (JSON)", files: { "bad.json": `{"openapi": "3.0.3",\n "info": {"title": "T", "version": "1"},\n "info": {}}\n` }, message: 'bad.json:3:2: duplicate key "info" (first at line 2, column 2; not allowed in a JSON spec)' },
    { name: "duplicate schema name (YAML)", files: { "bad.yaml": v30(`components:\n  schemas:\n    A: {type: string}\n    A: {type: integer}\n`) }, message: "bad.yaml:6:5: invalid YAML/JSON: Map keys must be unique" },
    { name: "unknown $ref", files: { "bad.yaml": v30(`components:\n  schemas:\n    A: {type: object, properties: {b: {$ref: "#/components/schemas/Missing"}}}\n`) }, message: "bad.yaml:5:40: unknown $ref target '#/components/schemas/Missing'" },
    { name: "unknown schema type", files: { "bad.yaml": v30(`components:\n  schemas:\n    A: {type: strang}\n`) }, message: 'bad.yaml:5:9: unknown schema type "strang"' },
    {
      name: "circular allOf inheritance",
      files: { "bad.yaml": v30(`components:\n  schemas:\n    A: {allOf: [{$ref: "#/components/schemas/B"}, {type: object, properties: {a: {type: string}}}]}\n    B: {allOf: [{$ref: "#/components/schemas/A"}, {type: object, properties: {b: {type: string}}}]}\n`) },
      message: "bad.yaml:5:5: circular allOf inheritance: A -> B -> A",
    },
    { name: "circular $ref aliases", files: { "bad.yaml": v30(`components:\n  schemas:\n    A: {$ref: "#/components/schemas/B"}\n    B: {$ref: "#/components/schemas/A"}\n`) }, message: "bad.yaml:5:5: circular $ref: A -> B -> A" },
    { name: "duplicate operationId", files: { "bad.yaml": v30(`paths:\n  /a: {get: {operationId: same, responses: {}}}\n  /b: {get: {operationId: same, responses: {}}}\n`) }, message: 'bad.yaml:5:14: duplicate operationId "same" (also used by GET /a)' },
    { name: "Swagger 1.2", files: { "bad.yaml": `swagger: "1.2"\ninfo: {title: T, version: "1"}\n` }, message: 'bad.yaml:1:1: unsupported Swagger version "1.2": expected "2.0" (as a string), or an OpenAPI 3.0/3.1 document' },
    { name: "Swagger 2.0 body parameter without schema", files: { "bad.yaml": `swagger: "2.0"\ninfo: {title: T, version: "1"}\npaths:\n  /a:\n    post:\n      parameters: [{name: b, in: body}]\n      responses: {"204": {description: ok}}\n` }, message: 'bad.yaml:6:20: body parameter "b" needs a schema' },
    { name: "custom YAML tag", files: { "bad.yaml": `openapi: 3.0.3\ninfo: {title: !secret T, version: "1"}\n` }, message: "bad.yaml:2:15: custom YAML tag !secret is not allowed" },
  ],
  proto: [
    { name: "malformed .proto (missing semicolon)", files: { "bad.proto": P3 + "message A { int32 a = 1 }\n" }, message: 'bad.proto:2:25: expected ";", found "}"' },
    { name: "malformed .proto (stray character)", files: { "bad.proto": P3 + "message A { int32 a = 1; } @\n" }, message: 'bad.proto:2:28: expected top-level statement, found "@"' },
    { name: "unterminated string", files: { "bad.proto": P3 + 'option java_package = "abc;\n' }, message: "bad.proto:2:23: unterminated string literal" },
    { name: "unknown type", files: { "bad.proto": P3 + "message A {\n  Missing m = 1;\n}\n" }, message: 'bad.proto:3:3: unknown type "Missing"' },
    { name: "duplicate message", files: { "bad.proto": P3 + "package p;\nmessage A {}\nmessage A {}\n" }, message: 'bad.proto:4:1: "A" is already defined in "p" (first defined at bad.proto:3:1)' },
    { name: "duplicate field name", files: { "bad.proto": P3 + "message A {\n  int32 a = 1;\n  string a = 2;\n}\n" }, message: 'bad.proto:4:3: "a" is already defined in "A" (first defined at bad.proto:3:3)' },
    { name: "duplicate field number", files: { "bad.proto": P3 + "message A {\n  int32 a = 1;\n  int32 b = 1;\n}\n" }, message: 'bad.proto:4:13: field number 1 has already been used in "A" by field "a"' },
    { name: "duplicate JSON name", files: { "bad.proto": P3 + "message A {\n  string foo_bar = 1;\n  string fooBar = 2;\n}\n" }, message: 'bad.proto:4:3: the default JSON name of field "fooBar" ("fooBar") conflicts with the default JSON name of field "foo_bar" in "A"' },
    { name: "unsupported edition", files: { "bad.proto": 'edition = "2022";\n' }, message: 'bad.proto:1:11: edition "2022" is not supported (supported: "2023", "2024")' },
    { name: "optional label in editions", files: { "bad.proto": 'edition = "2023";\nmessage A { optional int32 a = 1; }\n' }, message: 'bad.proto:2:13: the "optional" label is not allowed in editions; use [features.field_presence = EXPLICIT] (the default)' },
    { name: "import cycle", files: { "bad.proto": P3 + 'import "a.proto";\n', "a.proto": P3 + 'import "bad.proto";\n' }, message: "a.proto:2:1: import cycle: bad.proto -> a.proto -> bad.proto" },
  ],
};

// ---- helpers ---------------------------------------------------------------------------------------------------------

const roots: string[] = [];
afterAll(() => {
  for (const d of roots) rmSync(d, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "specforge-hostile-errors-"));
  roots.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

/** Every entry under `dir` (hidden ones included) with its bytes and mtime: what "exactly as it was" compares. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      const st = statSync(path.join(dir, p));
      if (e.isDirectory()) {
        out[`${p}/`] = `dir ${st.mtimeMs}`;
        walk(p);
      } else out[p] = `${st.mtimeMs} ${readFileSync(path.join(dir, p), "utf8")}`;
    }
  };
  walk("");
  return out;
}

const run = runCli;

// ---- tests -----------------------------------------------------------------------------------------------------------

for (const format of Object.keys(ROWS) as (keyof typeof GOOD)[]) {
  describe(`${format}: spec errors through the CLI`, () => {
    const [goodName, goodText] = GOOD[format];

    it.each(ROWS[format])("$name", async (row) => {
      const dir = project({ [goodName]: goodText, ...row.files });
      const first = await run(dir, "generate", goodName, "--out", "gen");
      expect(first.err).toBe("");
      expect(first.code).toBe(0);
      // Change the good spec, so a run that wrote anything would change its output.
      writeFileSync(path.join(dir, goodName), goodText.replaceAll("Hello", "Changed"));
      const before = snapshot(path.join(dir, "gen"));
      const bad = Object.keys(row.files)[0]!;
      const res = await run(dir, "generate", goodName, bad, "--out", "gen");
      // One error, then the count a run with errors ends with.
      expect(res.err).toBe(`${row.message}\n1 error in 1 spec\n`);
      expect(res.code).toBe(1);
      expect(res.out).toBe("");
      expect(snapshot(path.join(dir, "gen"))).toEqual(before);
      // check reports the same error the same way.
      const checked = await run(dir, "check", bad, "--out", "gen");
      expect(checked).toMatchObject({ code: 1, err: `${row.message}\n1 error in 1 spec\n` });
    });

    it("the installed bin prints the same line without a stack trace and exits 1", () => {
      const row = ROWS[format][0]!;
      const dir = project({ [goodName]: goodText, ...row.files });
      const bin = path.join(REPO, "bin/specforge.js");
      expect(spawnSync(process.execPath, [bin, "generate", goodName, "--out", "gen", "--quiet"], { cwd: dir }).status).toBe(0);
      const before = snapshot(path.join(dir, "gen"));
      const res = spawnSync(process.execPath, [bin, "generate", goodName, Object.keys(row.files)[0]!, "--out", "gen"], { cwd: dir, encoding: "utf8" });
      expect(res.status).toBe(1);
      expect(res.stderr).toBe(`${row.message}\n1 error in 1 spec\n`);
      expect(res.stderr).not.toMatch(/^\s+at /m);
      expect(snapshot(path.join(dir, "gen"))).toEqual(before);
    });
  });
}

it("counts: every kind the issue names has rows in every format", () => {
  const all = Object.values(ROWS).flat().map((r) => r.name);
  expect(all.length).toBeGreaterThanOrEqual(30);
  for (const kind of ["malformed", "unknown", "circular", "duplicate", "unsupported"]) {
    expect(all.filter((n) => n.includes(kind)).length, kind).toBeGreaterThanOrEqual(2);
  }
});
