/**
 * An attribute without a type (or of type xsd:anySimpleType) has text for a value: a string, not the element-reading
 * "any" codec (which decoded it with "f.codec.parse is not a function": W3C XSD suite attMb009, ctB040, ... issue 27).
 */
import { describe, expect, it } from "vitest";
import { generateInlineXsd } from "../../helpers/xsd-inline.js";
import { parseXsdText, recordOf } from "./util.js";

const BODY = `<xsd:complexType name="T">
    <xsd:attribute name="untyped"/>
    <xsd:attribute name="anySimple" type="xsd:anySimpleType"/>
  </xsd:complexType>
  <xsd:element name="e" type="tns:T"/>`;

describe("attributes of anySimpleType", () => {
  it("lower to strings that say they were anySimpleType", () => {
    const fields = recordOf(parseXsdText(BODY), "T").members;
    expect(fields.map((f) => ("type" in f ? f.type : undefined))).toEqual([
      { kind: "scalar", scalar: "string", builtin: "xsd:anySimpleType" },
      { kind: "scalar", scalar: "string", builtin: "xsd:anySimpleType" },
    ]);
  });

  it("decode and encode as text", () => {
    const gen = generateInlineXsd(`<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:t" targetNamespace="urn:t">${BODY}</xsd:schema>`);
    expect(gen.typecheck()).toEqual([]);
    const m = gen.load() as Record<string, (x: unknown) => unknown>;
    const value = m.decodeEElement!('<t:e xmlns:t="urn:t" untyped=" 12 " anySimple="a&amp;b"/>');
    expect(value).toEqual({ untyped: " 12 ", anySimple: "a&b" });
    expect(m.decodeEElement!(m.encodeEElement!(value))).toEqual(value);
  });
});

describe("simple content of anySimpleType", () => {
  it("is a string $value (its decode crashed on the element 'any' codec)", () => {
    const gen = generateInlineXsd(`<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema">
      <xsd:complexType name="T1"><xsd:simpleContent><xsd:extension base="xsd:anySimpleType"/></xsd:simpleContent></xsd:complexType>
      <xsd:complexType name="T2"><xsd:simpleContent><xsd:extension base="T1"><xsd:attribute name="a" type="xsd:anySimpleType"/></xsd:extension></xsd:simpleContent></xsd:complexType>
      <xsd:element name="e" type="T2"/>
    </xsd:schema>`);
    expect(gen.typecheck()).toEqual([]);
    const m = gen.load() as Record<string, (x: unknown) => unknown>;
    const value = m.decodeEElement!('<e a="1">text &lt;here&gt;</e>');
    expect(value).toMatchObject({ $value: "text <here>", a: "1" });
    expect(m.decodeEElement!(m.encodeEElement!(value))).toEqual(value);
  });
});
