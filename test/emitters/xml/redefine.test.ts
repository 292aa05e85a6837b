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
