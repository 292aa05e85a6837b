import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repeatedContentProto, repeatedPartnerWsdl } from "../../bench/generate.bench.js";
import { nodeSpecHost } from "../../src/parsers/host.js";
import { generateSpec } from "../../src/pipeline/generate-files.js";

/** The linearity cases of `npm run bench generate` must be real specs: N copies give N times the types. Not timed. */
const dir = mkdtempSync(path.join(tmpdir(), "specforge-repeat-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function generate(name: string, text: string) {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return generateSpec({ file, display: name }, nodeSpecHost({ cwd: dir }));
}

function file(out: ReturnType<typeof generate>, name: string): string {
  return out.files.find((f) => f.path.endsWith(`/${name}`))?.content ?? "";
}

describe("repeated specs for the generation benchmark", () => {
  it("content.proto x10: ten renamed copies of every message, each with its codec", () => {
    const one = generate("one.proto", repeatedContentProto(1));
    const ten = generate("ten.proto", repeatedContentProto(10));
    expect(ten.doc.types.length).toBe(10 * one.doc.types.length);
    expect(ten.doc.types.map((t) => t.name)).toContain("Response10");
    expect(file(ten, "protobuf.ts")).toContain("export function decodeResponse10(");
    // References are renamed with their copy: copy 7's Entry points at copy 7's PermalinkEntry.
    expect(file(ten, "types.ts")).toMatch(/permalinkEntry\?: PermalinkEntry7;/);
  });

  it("sf-partner-v40 schemas x10: ten namespaces with every type each", () => {
    const one = generate("one.wsdl", repeatedPartnerWsdl(1));
    const ten = generate("ten.wsdl", repeatedPartnerWsdl(10));
    expect(one.doc.types.length).toBeGreaterThan(300);
    expect(ten.doc.types.length).toBe(10 * one.doc.types.length);
    const namespaces = new Set(ten.doc.elements.map((e) => e.name.ns));
    expect([...namespaces].filter((ns) => ns.startsWith("urn:copy10.")).length).toBeGreaterThan(0);
    // xml.ts's table has an element entry `["E", ns, "login", "codec", false]` per copy, each copy's namespace a constant.
    const xml = file(ten, "xml.ts");
    expect(xml).toMatch(/^const ns\d+ = "urn:copy10\.partner\.soap\.sforce\.com";$/m);
    expect(xml.match(/^ {6}\["\w+", ns\d+, "login", "r\$\w+", false\],$/gm)).toHaveLength(10);
  });
});
