/**
 * Spec files in UTF-16 (XML 1.0 §4.3.3: such an entity starts with a byte order mark) are read as such, both byte
 * orders; a UTF-8 file stays UTF-8. Some of the W3C XSD suite's schemas (IBM's XSD 1.1 groups) are UTF-16: they
 * were refused with "text data outside of root node".
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { decodeSpecText, nodeSpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";

const SCHEMA = `<?xml version="1.0" encoding="UTF-16"?>\n<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="été" type="xs:string"/></xs:schema>`;
const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(SCHEMA, "utf16le")]);
const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(SCHEMA, "utf16le").swap16()]);
const tmp = mkdtempSync(path.join(os.tmpdir(), "specforge-utf16-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("UTF-16 spec files", () => {
  it("decode by their byte order mark, either byte order; UTF-8 is unchanged", () => {
    expect(decodeSpecText(le)).toBe(SCHEMA);
    expect(decodeSpecText(be)).toBe(SCHEMA);
    expect(decodeSpecText(Buffer.from(SCHEMA, "utf8"))).toBe(SCHEMA);
  });

  it("generate like their UTF-8 twin", () => {
    for (const [name, bytes] of [["le.xsd", le], ["be.xsd", be]] as const) {
      writeFileSync(path.join(tmp, name), bytes);
      const out = generateSpec({ file: path.join(tmp, name), display: name }, nodeSpecHost({ cwd: tmp }));
      expect(out.doc.elements.map((e) => e.name.local)).toEqual(["été"]);
    }
  });
});
