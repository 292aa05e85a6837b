/**
 * Depth and size (issue 32, item 3): parsers stay linear on deep nesting and huge literals, and stop beyond their
 * documented depth limit with a located error. Times are compared with a baseline measured in the same test (a
 * ratio, never a wall-clock limit), each the best of a few runs.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nodeSpecHost } from "../../src/parsers/host.js";
import { MAX_PROTO_DEPTH } from "../../src/parsers/proto/parser.js";
import { parseProto } from "../../src/parsers/proto/index.js";
import { MAX_XML_DEPTH } from "../../src/parsers/xml/read.js";
import { generateSpec } from "../../src/pipeline/generate-files.js";
import { readSpecFile } from "../../src/parsers/openapi/read.js";
import { parse as parseYaml } from "yaml";
import { tokenize } from "../../src/parsers/proto/tokenizer.js";

const dir = mkdtempSync(path.join(tmpdir(), "specforge-limits-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The best of `runs` timings of `fn` (ms), and its last result. */
function best<T>(runs: number, fn: () => T): { ms: number; result: T } {
  let ms = Infinity;
  let result!: T;
  for (let k = 0; k < runs; k++) {
    const t = performance.now();
    result = fn();
    ms = Math.min(ms, performance.now() - t);
  }
  return { ms, result };
}

describe("proto string literals", () => {
  it("bytes and value: escapes (one byte each, combined as UTF-8), literal UTF-8, lone surrogates, octal and hex", () => {
    const str = (literal: string) => tokenize(`option x = ${literal};`, "t.proto").find((t) => t.kind === "string")!;
    const a = str(`"a\\303\\251b\\x41\\101\\u00e9\\U0001F600ñ\\n"`);
    expect(a.value).toBe("aébAAé😀ñ\n");
    expect(a.latin1).toBe("a\xc3\xa9bAA\xc3\xa9\xf0\x9f\x98\x80\xc3\xb1\n");
    const b = str(`'\\377x'`);
    expect(b.value).toBe("\ufffdx");
    expect(b.latin1).toBe("\xffx");
    const c = str(`"${"x".repeat(100)}\ud800${"y".repeat(100)}"`);
    expect(c.value).toBe(`${"x".repeat(100)}\ufffd${"y".repeat(100)}`);
    expect(c.latin1).toBe(`${"x".repeat(100)}\xef\xbf\xbd${"y".repeat(100)}`);
    expect(str(`"q\\"\\\\'"`).value).toBe(`q"\\'`);
  });

  it("a 50 MB string literal parses in a small multiple of the time reading the file takes", () => {
    const chunk = "Lorem ipsum dolor sit amet, ".repeat(36) + "ñandú \\n\\x41\\303\\251 ";
    const literal = chunk.repeat(Math.ceil((50 << 20) / chunk.length));
    const file = path.join(dir, "big.proto");
    writeFileSync(file, `syntax = "proto3";\npackage p;\noption java_package = "${literal}";\nmessage M { string s = 1; }\n`);
    const read = best(3, () => readFileSync(file, "utf8"));
    const parsed = best(3, () => parseProto(file, nodeSpecHost({})));
    expect(parsed.result.types.map((t) => t.name)).toEqual(["M"]);
    // Parsing reads the file too; about 2.5x the read alone here (50 MB at ~3 s per MB before).
    expect(parsed.ms / read.ms).toBeLessThan(6);
  }, 120_000);
});

/** The message a generation fails with (the test fails when it succeeds). */
function generationError(file: string, display: string): string {
  try {
    generateSpec({ file, display }, nodeSpecHost({}));
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`${display} generated`);
}

/** An XSD whose element declarations nest `levels` deep (three XML elements a level). */
function deepXsd(levels: number): string {
  let open = "";
  let close = "";
  for (let i = 0; i < levels; i++) {
    open += `<xs:element name="e${i}"><xs:complexType><xs:sequence>`;
    close = `</xs:sequence></xs:complexType></xs:element>${close}`;
  }
  return `<?xml version="1.0"?>\n<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:d">\n${open}${close}\n</xs:schema>\n`;
}

function deepProto(levels: number): string {
  return `syntax = "proto3";\npackage d;\n${"message M { ".repeat(levels)}int32 x = 1; ${"}".repeat(levels)}\n`;
}

describe("deep nesting", () => {
  it(`XSD: nesting up to the limit (${MAX_XML_DEPTH} XML elements) generates; deeper stops at the first element too deep, located`, () => {
    const ok = path.join(dir, "ok.xsd");
    writeFileSync(ok, deepXsd(Math.floor((MAX_XML_DEPTH - 1) / 3)));
    const out = generateSpec({ file: ok, display: "ok.xsd" }, nodeSpecHost({}));
    expect(out.files.find((f) => f.path.endsWith("types.ts"))!.content).toContain("e84");
    const deep = path.join(dir, "deep.xsd");
    writeFileSync(deep, deepXsd(10_000));
    // The 256th element inside the root (xs:schema is 1) is the 86th level's xs:element, at its '<' on line 3.
    const col = 1 + deepXsd(10_000).split("\n")[2]!.indexOf(`<xs:element name="e85">`);
    expect(generationError(deep, "deep.xsd")).toBe(`${deep}:3:${col}: nesting deeper than ${MAX_XML_DEPTH}`);
  });

  it("XSD: 10,000 and 100,000 levels are refused in time linear in the file (ratio to 10x less nesting)", () => {
    const files = [10_000, 100_000].map((levels) => {
      const file = path.join(dir, `deep-${levels}.xsd`);
      writeFileSync(file, deepXsd(levels));
      return file;
    });
    const small = best(3, () => generationError(files[0]!, "a.xsd"));
    const large = best(3, () => generationError(files[1]!, "b.xsd"));
    expect([small.result, large.result].every((m) => m.endsWith(`nesting deeper than ${MAX_XML_DEPTH}`))).toBe(true);
    // Ten times the file: linear is ~10x (at 10,000 levels this took 77 s before, quadratic).
    expect(large.ms / small.ms).toBeLessThan(30);
  });

  it(`proto: messages nested up to ${MAX_PROTO_DEPTH} generate; deeper (even 100,000) stops located, in linear time`, () => {
    const ok = path.join(dir, "ok.proto");
    writeFileSync(ok, deepProto(MAX_PROTO_DEPTH));
    expect(generateSpec({ file: ok, display: "ok.proto" }, nodeSpecHost({})).files.length).toBeGreaterThan(0);
    const col = 1 + "message M { ".length * MAX_PROTO_DEPTH;
    const files = [10_000, 100_000].map((levels) => {
      const file = path.join(dir, `deep-${levels}.proto`);
      writeFileSync(file, deepProto(levels));
      return file;
    });
    const small = best(3, () => generationError(files[0]!, "deep.proto"));
    const large = best(3, () => generationError(files[1]!, "deep.proto"));
    expect(small.result).toBe(`${files[0]}:3:${col}: nesting deeper than ${MAX_PROTO_DEPTH}`);
    expect(large.result).toBe(`${files[1]}:3:${col}: nesting deeper than ${MAX_PROTO_DEPTH}`);
    expect(large.ms / small.ms).toBeLessThan(30);
  });
});

/** Parse `file` (an OpenAPI document whose enum holds a 50 MB value and "small") in a child with a 768 MB heap. */
function expectBigEnumParsedInSmallHeap(file: string): void {
    const r = spawnSync(process.execPath, ["--max-old-space-size=768", "--import", "tsx", path.join(import.meta.dirname, "big-enum-child.ts"), file], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      timeout: 120_000,
      maxBuffer: 1 << 20,
    });
    expect(r.stderr.toString()).not.toMatch(/heap out of memory|Allocation failed/);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout.toString()).values).toEqual([50 << 20, 5]);
}

describe("OpenAPI huge strings", () => {
  const value = "x".repeat(50 << 20);
  const spec = (extra: string) =>
    `{"openapi": "3.0.3", "info": {"title": "E", "version": "1"}, "paths": {}, "components": {"schemas": {"Big": {"type": "string", "enum": ["${value}", "small"]}${extra}}}}\n`;

  it("a 50 MB enum value parses within a 768 MB heap (it needed gigabytes: yaml builds the scalar a character at a time)", () => {
    const file = path.join(dir, "big.openapi.json");
    writeFileSync(file, spec(""));
    expectBigEnumParsedInSmallHeap(file);
  }, 180_000);

  it("positions after a huge string are those of the file as written", () => {
    const file = path.join(dir, "bad.openapi.json");
    const text = spec(`, "Bad": {"$ref": "#/components/schemas/Missing"}`);
    writeFileSync(file, text);
    const col = text.indexOf('"$ref"') + 1;
    expect(generationError(file, "bad.openapi.json")).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:1:${col}: `));
  }, 60_000);
});

describe("OpenAPI huge strings in YAML", () => {
  const value = "x".repeat(50 << 20);
  const spec = (extra: string) =>
    `openapi: 3.0.3\ninfo: {title: E, version: "1"}\npaths: {}\ncomponents:\n  schemas:\n    Big:\n      type: string\n      enum: ["${value}", small]\n${extra}`;

  it("a 50 MB double-quoted enum value parses within a 768 MB heap (yaml alone needed gigabytes)", () => {
    const file = path.join(dir, "big.openapi.yaml");
    writeFileSync(file, spec(""));
    expectBigEnumParsedInSmallHeap(file);
  }, 180_000);

  it("positions after a huge string are those of the file as written", () => {
    const file = path.join(dir, "bad.openapi.yaml");
    const text = spec(`    Bad: {$ref: "#/components/schemas/Missing"}\n`);
    writeFileSync(file, text);
    const line = text.slice(0, text.indexOf("$ref")).split("\n").length;
    const col = text.indexOf("$ref") - text.lastIndexOf("\n", text.indexOf("$ref"));
    expect(generationError(file, "bad.openapi.yaml")).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:${line}:${col}: `));
  }, 60_000);

  it("decodes every YAML escape as yaml does, and leaves quotes in comments and other scalars alone", () => {
    const escapes = String.raw`\0\a\b\t\n\v\f\r\e\ \"\/\\\N\_\L\P\x41\u00e9\U0001F600` + "\t";
    const long = "y".repeat(70_000);
    const text = [
      `# a comment with a "${long}" in it`,
      `a: "${long}${escapes}${long}"`,
      `b: plain "${long}" text`,
      `c: '${long}"'`,
      `k: "v"`,
      `d: [1, "${long}\x42"]`,
      "",
    ].join("\n");
    const ours = readSpecFile("t.yaml", text, "t.yaml").value;
    expect(ours).toEqual(parseYaml(text));
    // A malformed escape, or a key longer than YAML allows, is left to yaml, which reports it.
    expect(() => readSpecFile("t.yaml", `"${long}": v\n`, "t.yaml")).toThrow(/invalid YAML\/JSON/);
    expect(() => readSpecFile("t.yaml", `a: "${long}\\q"\n`, "t.yaml")).toThrow(/invalid YAML\/JSON/);
  });
});
