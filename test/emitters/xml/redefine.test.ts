/**
 * xsd:redefine (XSD 1.0 Part 1 §4.2.2; 134 valid instances of the W3C XSD suite were refused before): the redefined
 * schema is included, and a type, group or attribute group restated in the xsd:redefine replaces the original
 * everywhere, the restatement's reference to its own name meaning the original. Checked against libxml2.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateInlineXsd } from "../../helpers/xsd-inline.js";
import { xmllintValidate } from "./helpers/xmllint.js";

type Fn = (...args: unknown[]) => unknown;

const BASE = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:a="urn:a" targetNamespace="urn:a" elementFormDefault="qualified">
  <xs:complexType name="Address"><xs:sequence><xs:element name="street" type="xs:string"/></xs:sequence></xs:complexType>
  <xs:simpleType name="Code"><xs:restriction base="xs:string"><xs:maxLength value="8"/></xs:restriction></xs:simpleType>
  <xs:group name="Extra"><xs:sequence><xs:element name="note" type="xs:string" minOccurs="0"/></xs:sequence></xs:group>
  <xs:attributeGroup name="Stamp"><xs:attribute name="by" type="xs:string"/></xs:attributeGroup>
  <xs:element name="shipment">
    <xs:complexType>
      <xs:sequence><xs:element name="to" type="a:Address"/><xs:element name="code" type="a:Code"/><xs:group ref="a:Extra"/></xs:sequence>
      <xs:attributeGroup ref="a:Stamp"/>
    </xs:complexType>
  </xs:element>
</xs:schema>`;

const MAIN = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:a="urn:a" targetNamespace="urn:a" elementFormDefault="qualified">
  <xs:redefine schemaLocation="base.xsd">
    <xs:complexType name="Address">
      <xs:complexContent><xs:extension base="a:Address"><xs:sequence><xs:element name="city" type="xs:string"/></xs:sequence></xs:extension></xs:complexContent>
    </xs:complexType>
    <xs:simpleType name="Code"><xs:restriction base="a:Code"><xs:length value="3"/></xs:restriction></xs:simpleType>
    <xs:group name="Extra"><xs:sequence><xs:group ref="a:Extra"/><xs:element name="priority" type="xs:int"/></xs:sequence></xs:group>
    <xs:attributeGroup name="Stamp"><xs:attributeGroup ref="a:Stamp"/><xs:attribute name="at" type="xs:date"/></xs:attributeGroup>
  </xs:redefine>
</xs:schema>`;

const dir = mkdtempSync(path.join(os.tmpdir(), "specforge-redefine-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("xsd:redefine", () => {
  const gen = generateInlineXsd(MAIN, { "base.xsd": BASE });
  const m = gen.load();
  const decode = m.decodeShipmentElement as Fn;
  const encode = m.encodeShipmentElement as Fn;
  writeFileSync(path.join(dir, "base.xsd"), BASE);
  writeFileSync(path.join(dir, "main.xsd"), MAIN);
  const doc =
    '<shipment xmlns="urn:a" by="ann" at="2026-11-28"><to><street>1 Main St</street><city>Springfield</city></to>' +
    "<code>ABC</code><note>fragile</note><priority>2</priority></shipment>";

  it("generates the restated components in place of the originals, and type-checks strict", () => {
    const types = gen.files.get("types.ts")!;
    expect(types).toMatch(/export interface Address extends AddressRedefined \{|Derived by extension from \{@link AddressRedefined\}/);
    expect(gen.typecheck()).toEqual([]);
    expect(xmllintValidate(path.join(dir, "main.xsd"), [doc])).toEqual([]);
  });

  it("decodes, validates and re-encodes an instance of the redefined schema (libxml2-valid)", () => {
    const v = decode(doc);
    // The restated Address derives from the original (kept as Address$redefined), so it carries its XSD type name.
    expect(v).toEqual({ to: { $type: "Address", street: "1 Main St", city: "Springfield" }, code: "ABC", note: "fragile", priority: 2, by: "ann", at: "2026-11-28" });
    expect((m.validateShipment as Fn)(v)).toEqual([]);
    expect((m.validateCode as (x: unknown) => { rule: string }[])("ABCD").map((i) => i.rule)).toEqual(["length"]);
    const out = encode(v) as string;
    expect(decode(out)).toEqual(v);
    expect(xmllintValidate(path.join(dir, "main.xsd"), [out])).toEqual([]);
  });
});

/**
 * A chain of redefines (W3C suite MS-SimpleType stZ033, stZ034; refused before as "circular type derivation"):
 * main.xsd redefines B of mid.xsd, which redefines B of low.xsd. Each restatement's base B is the B of the schema it
 * redefines (that schema's own redefinition), so main's B is {3} ⊂ mid's {2, 3} ⊂ low's string.
 */
describe("xsd:redefine of a redefine", () => {
  const s = (body: string) => `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:foo" xmlns="urn:foo" elementFormDefault="qualified">${body}</xs:schema>`;
  const LOW = s(`<xs:simpleType name="B"><xs:restriction base="xs:string"/></xs:simpleType>`);
  const MID = s(`<xs:redefine schemaLocation="low.xsd"><xs:simpleType name="B"><xs:restriction base="B"><xs:enumeration value="2"/><xs:enumeration value="3"/></xs:restriction></xs:simpleType></xs:redefine><xs:element name="b2" type="B"/>`);
  const TOP = s(`<xs:redefine schemaLocation="mid.xsd"><xs:simpleType name="B"><xs:restriction base="B"><xs:enumeration value="3"/></xs:restriction></xs:simpleType></xs:redefine><xs:element name="b1" type="B"/>`);
  const chain = mkdtempSync(path.join(os.tmpdir(), "specforge-redefine-chain-"));
  writeFileSync(path.join(chain, "low.xsd"), LOW);
  writeFileSync(path.join(chain, "mid.xsd"), MID);
  writeFileSync(path.join(chain, "top.xsd"), TOP);

  it("generates, type-checks, and accepts and rejects what libxml2 does", () => {
    const gen = generateInlineXsd(TOP, { "mid.xsd": MID, "low.xsd": LOW });
    // In declaration order: top's B, mid's (kept when top's redefined it), low's (kept first, when mid's did).
    expect(gen.doc.types.map((t) => t.id)).toEqual(["xsd:{urn:foo}B", "xsd:{urn:foo}B$redefined$redefined", "xsd:{urn:foo}B$redefined"]);
    expect(gen.typecheck()).toEqual([]);
    const m = gen.load();
    const valid = ['<b1 xmlns="urn:foo">3</b1>', '<b2 xmlns="urn:foo">3</b2>'];
    const invalid = ['<b1 xmlns="urn:foo">2</b1>', '<b2 xmlns="urn:foo">2</b2>', '<b1 xmlns="urn:foo">1</b1>'];
    expect(xmllintValidate(path.join(chain, "top.xsd"), valid)).toEqual([]);
    expect(xmllintValidate(path.join(chain, "top.xsd"), invalid).length).toBe(invalid.length);
    const decode = (x: string) => (x.startsWith("<b1") ? (m.decodeB1Element as Fn) : (m.decodeB2Element as Fn))(x);
    for (const x of valid) expect(decode(x)).toBe("3");
    for (const x of invalid) expect(() => decode(x)).toThrow(/is not a value of B/);
  });
});
