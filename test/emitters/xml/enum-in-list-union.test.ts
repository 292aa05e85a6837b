/**
 * xs:list and xs:union whose item or member type is a named enumeration (issue 27, item 2; 89 schemas of the W3C
 * XSD suite): xml.ts reads each item through read<Enum>, which it must also emit.
 */
import { describe, expect, it } from "vitest";
import { generateInlineXsd } from "../../helpers/xsd-inline.js";

const SCHEMA = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:d" targetNamespace="urn:d" elementFormDefault="qualified">
  <xs:simpleType name="Day"><xs:restriction base="xs:string"><xs:enumeration value="Mon"/><xs:enumeration value="Tue"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Days"><xs:list itemType="tns:Day"/></xs:simpleType>
  <xs:simpleType name="DayOrInt"><xs:union memberTypes="tns:Day xs:int"/></xs:simpleType>
  <xs:element name="days" type="tns:Days"/>
  <xs:element name="dayOrInt" type="tns:DayOrInt"/>
  <xs:element name="plan">
    <xs:complexType><xs:sequence><xs:element name="on" type="tns:Days"/></xs:sequence><xs:attribute name="first" type="tns:DayOrInt"/></xs:complexType>
  </xs:element>
</xs:schema>`;

type Fn = (...args: unknown[]) => unknown;

describe("lists and unions of enumerations", () => {
  const gen = generateInlineXsd(SCHEMA);

  it("emit the read<Enum> they call, and type-check strict", () => {
    expect(gen.files.get("xml.ts")).toMatch(/function readDay\(text: string, path: string\): Day \{/);
    expect(gen.typecheck()).toEqual([]);
  });

  it("decode items and members by the enumeration, and write them back", () => {
    const m = gen.load();
    const days = (m.decodeDaysElement as Fn)('<days xmlns="urn:d"> Mon  Tue Mon </days>');
    expect(days).toEqual(["Mon", "Tue", "Mon"]);
    expect(m.encodeDaysElement as Fn).toBeTypeOf("function");
    expect((m.decodeDaysElement as Fn)((m.encodeDaysElement as Fn)(days))).toEqual(days);
    expect((m.decodeDayOrIntElement as Fn)('<dayOrInt xmlns="urn:d">Tue</dayOrInt>')).toBe("Tue");
    expect((m.decodeDayOrIntElement as Fn)('<dayOrInt xmlns="urn:d">42</dayOrInt>')).toBe(42);
    const plan = (m.decodePlanElement as Fn)('<plan xmlns="urn:d" first="Mon"><on>Tue</on></plan>');
    expect(plan).toEqual({ on: ["Tue"], first: "Mon" });
    expect((m.decodePlanElement as Fn)((m.encodePlanElement as Fn)(plan))).toEqual(plan);
  });

  it("refuse an item that is not a value of the enumeration, naming where", () => {
    const m = gen.load();
    expect(() => (m.decodeDaysElement as Fn)('<days xmlns="urn:d">Mon Sun</days>')).toThrow(/\/1: "Sun" is not a value of Day/);
    expect(() => (m.decodeDayOrIntElement as Fn)('<dayOrInt xmlns="urn:d">Sun</dayOrInt>')).toThrow(/xsd:int/);
  });
});
