import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { nodeSpecHost } from "../../src/parsers/host.js";
import { generateSpec } from "../../src/pipeline/generate-files.js";

/**
 * A schema with more global elements than V8 takes as call arguments (somewhere above 100,000): the XML codec table
 * was once built with `push(...lines)` and overflowed the stack on inputs this size (the generate bench's 100-copy
 * partner WSDL found it). 150,000 one-line elements keep the input small and the run to a few seconds.
 */
const COUNT = 150_000;
const dir = mkdtempSync(path.join(tmpdir(), "specforge-many-elements-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it(`generates every artifact of a schema with ${COUNT} global elements`, () => {
  const elements = Array.from({ length: COUNT }, (_, i) => `  <xs:element name="e${i}" type="xs:string"/>`).join("\n");
  const file = path.join(dir, "many.xsd");
  writeFileSync(file, `<?xml version="1.0"?>\n<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:many" elementFormDefault="qualified">\n${elements}\n</xs:schema>\n`);
  const { files } = generateSpec({ file, display: "many.xsd" }, nodeSpecHost({ cwd: dir }));
  const xml = files.find((f) => f.path.endsWith("xml.ts"));
  expect(xml, files.map((f) => f.path).join(", ")).toBeDefined();
  // The first and the last element both reach the table.
  expect(xml!.content).toMatch(/"e0"/);
  expect(xml!.content).toMatch(new RegExp(`"e${COUNT - 1}"`));
});
