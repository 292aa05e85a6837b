/**
 * A Gregorian fragment (xsd:gMonth, gYear, ...) in a union takes only text of its lexical form: `a:b` in a union of
 * gMonth, QName and long is the QName {a}b, written back with its prefix declared (W3C suite stE079, where the QName
 * was read as a gMonth string and written without a namespace declaration). libxml2 judges the output.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateInlineXsd } from "../../helpers/xsd-inline.js";
import { xmllintValidate } from "./helpers/xmllint.js";

type Fn = (v: unknown) => unknown;
const xsd = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="when"><xs:simpleType><xs:union memberTypes="xs:gMonth xs:gYear xs:gDay xs:QName xs:long"/></xs:simpleType></xs:element>
  <xs:simpleType name="flagOrBytes"><xs:union memberTypes="xs:boolean xs:hexBinary"/></xs:simpleType>
  <xs:simpleType name="countOrWord"><xs:union memberTypes="xs:int xs:string"/></xs:simpleType>
  <xs:element name="nested"><xs:simpleType><xs:union memberTypes="flagOrBytes countOrWord"/></xs:simpleType></xs:element>
</xs:schema>`;

describe("a union with Gregorian members", () => {
  const gen = generateInlineXsd(xsd);
  const m = gen.load() as Record<string, Fn>;
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "specforge-greg-")), "u.xsd");
  writeFileSync(file, xsd);

  // A union of named unions: each is written by its own members' shapes (W3C particlesZ007 did not type-check).
  it("type-checks strict", () => {
    expect(gen.typecheck()).toEqual([]);
  });

  it("reads each text as the first member whose lexical form it has, and writes it back valid", () => {
    const cases: [string, unknown][] = [
      ["--05", "--05"],
      ["2024", "2024"],
      ["---31Z", "---31Z"],
      ['<when xmlns:a="a">a:b</when>', "{a}b"],
      ["12345", "12345"], // a year of five digits is a gYear, the first member it fits
      ["123", 123n],
    ];
    for (const [text, value] of cases) {
      const doc = text.startsWith("<") ? text : `<when>${text}</when>`;
      expect(xmllintValidate(file, [doc])).toEqual([]);
      const v = m.decodeWhenElement!(doc);
      expect(v).toEqual(value);
      const out = m.encodeWhenElement!(v) as string;
      expect(xmllintValidate(file, [out])).toEqual([]);
      expect(m.decodeWhenElement!(out)).toEqual(value);
    }
  });

  it("writes a value of a union of unions by the member whose shape it has", () => {
    const cases: [string, unknown][] = [["true", true], ["0A0B", new Uint8Array([10, 11])], ["7", 7], ["word", "word"]];
    for (const [text, value] of cases) {
      const v = m.decodeNestedElement!(`<nested>${text}</nested>`);
      expect(v).toEqual(value);
      const out = m.encodeNestedElement!(v) as string;
      expect(xmllintValidate(file, [out])).toEqual([]);
      expect(m.decodeNestedElement!(out)).toEqual(value);
    }
  });
});
