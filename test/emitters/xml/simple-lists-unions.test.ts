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

/**
 * A union's writer picks the member by the value's shape; a member that is a named restriction (an alias) has the
 * shape of its base: `typeof v === "bigint"` for a restriction of xsd:integer, not the string test every named
 * member got (strict tsc: "Conversion of type 'string' to type 'bigint' may be a mistake", W3C XSD suite
 * particlesIk018, issue 27).
 */
describe("unions of named restrictions", () => {
  const gen = generateInlineXsd(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:u" targetNamespace="urn:u">
    <xs:simpleType name="U"><xs:union>
      <xs:simpleType><xs:restriction base="xs:integer"/></xs:simpleType>
      <xs:simpleType><xs:restriction base="xs:boolean"/></xs:simpleType>
      <xs:simpleType><xs:restriction base="xs:string"/></xs:simpleType>
    </xs:union></xs:simpleType>
    <xs:element name="u" type="tns:U"/>
  </xs:schema>`);

  it("test members by their base's shape, and type-check strict", () => {
    expect(gen.files.get("xml.ts")).toContain('if (typeof v === "bigint")');
    expect(gen.files.get("xml.ts")).toContain('if (typeof v === "boolean")');
    expect(gen.typecheck()).toEqual([]);
  });

  it("write each member back in its own lexical form", () => {
    const m = gen.load();
    for (const [text, value] of [["12345678901234567890", 12345678901234567890n], ["true", true], ["x y", "x y"]] as const) {
      const decoded = (m.decodeUElement as Fn)(`<u xmlns="urn:u">${text}</u>`);
      expect(decoded).toEqual(value);
      expect((m.encodeUElement as Fn)(decoded)).toContain(`>${text}</`);
    }
  });
});
