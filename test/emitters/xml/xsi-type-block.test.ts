/**
 * xsi:type and `block` (XSD 1.0 3.3.4, Element Locally Valid (Element) 4.3; issue 27, the invalid side of the W3C
 * suite): an xsi:type must name the declared type or one derived from it by no method the element's `block`, its
 * type's `block` or the schema's `blockDefault` prohibits. Cross-checked with xmllint.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateInlineXsd } from "../../helpers/xsd-inline.js";
import { xmllintValidate } from "./helpers/xmllint.js";

const SCHEMA = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:b" targetNamespace="urn:b" elementFormDefault="qualified">
  <xs:complexType name="Base" block="extension"><xs:sequence><xs:element name="a" type="xs:string" minOccurs="0"/></xs:sequence></xs:complexType>
  <xs:complexType name="Narrow"><xs:complexContent><xs:restriction base="t:Base"><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence></xs:restriction></xs:complexContent></xs:complexType>
  <xs:complexType name="Wide"><xs:complexContent><xs:extension base="t:Base"><xs:sequence><xs:element name="b" type="xs:string"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
  <xs:complexType name="NarrowWide"><xs:complexContent><xs:extension base="t:Narrow"><xs:sequence><xs:element name="b" type="xs:string"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
  <xs:complexType name="Open"><xs:sequence><xs:element name="a" type="xs:string" minOccurs="0"/></xs:sequence></xs:complexType>
  <xs:complexType name="OpenNarrow"><xs:complexContent><xs:restriction base="t:Open"><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence></xs:restriction></xs:complexContent></xs:complexType>
  <xs:complexType name="OpenWide"><xs:complexContent><xs:extension base="t:Open"><xs:sequence><xs:element name="b" type="xs:string"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
  <xs:element name="root">
    <xs:complexType><xs:sequence>
      <xs:element name="base" type="t:Base" minOccurs="0"/>
      <xs:element name="open" type="t:Open" minOccurs="0"/>
      <xs:element name="closed" type="t:Open" block="restriction" minOccurs="0"/>
    </xs:sequence></xs:complexType>
  </xs:element>
</xs:schema>`;

const XSI = `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`;
const root = (body: string) => `<root xmlns="urn:b" xmlns:t="urn:b" ${XSI}>${body}</root>`;
const cases: [string, boolean][] = [
  [root(`<base xsi:type="t:Narrow"><a>x</a></base>`), true],
  [root(`<base xsi:type="t:Wide"><b>x</b></base>`), false],
  // Extension at any step of the chain is blocked by the declared type's block.
  [root(`<base xsi:type="t:NarrowWide"><a>x</a><b>y</b></base>`), false],
  [root(`<open xsi:type="t:OpenNarrow"><a>x</a></open><open/>`.replace("<open/>", "")), true],
  [root(`<open xsi:type="t:OpenWide"><b>x</b></open>`), true],
  [root(`<closed xsi:type="t:OpenWide"><b>x</b></closed>`), true],
  [root(`<closed xsi:type="t:OpenNarrow"><a>x</a></closed>`), false],
];

describe("xsi:type under block", () => {
  const gen = generateInlineXsd(SCHEMA);
  const schemaFile = path.join(mkdtempSync(path.join(os.tmpdir(), "block-")), "s.xsd");
  writeFileSync(schemaFile, SCHEMA);

  it("xml.ts names the families without the blocked members, and type-checks strict", () => {
    const xml = gen.files.get("xml.ts")!;
    expect(xml).toMatch(/"base", "base", "f\$AnyBase\/e"\]/);
    expect(xml).toMatch(/"closed", "closed", "f\$AnyOpen\/r"\]/);
    expect(xml).toMatch(/"open", "open", "f\$AnyOpen"\]/);
    expect(gen.typecheck()).toEqual([]);
  });

  it("accepts and rejects what xmllint does", () => {
    const failing = new Set(xmllintValidate(schemaFile, cases.map(([d]) => d)).map((f) => Number(/doc(\d+)\.xml$/.exec(f.file)![1])));
    expect(cases.map((_, i) => !failing.has(i))).toEqual(cases.map(([, valid]) => valid));
    const decode = gen.load().decodeRootElement as (xml: string) => unknown;
    for (const [d, valid] of cases) {
      if (valid) expect(() => decode(d)).not.toThrow();
      else expect(() => decode(d)).toThrow(/xsi:type \{urn:b\}\w+ is not (Base or a type derived from it by a derivation the declaration allows \(blocked: extension\)|Open or a type derived from it by a derivation the declaration allows \(blocked: restriction\))$/);
    }
  });
});
