/**
 * Facets whose meaning depends on the base type (W3C XSD suite, NIST datatype groups, issue 27): range facets on
 * dates, times and durations compare in their order; a pattern is checked only where the value keeps the instance's
 * lexical form (both forms of a boolean); QName and NOTATION length facets are always satisfied; an enumeration of a non-string
 * base holds its lexical forms.
 */
import { describe, expect, it } from "vitest";
import { generateInlineXsd } from "../../helpers/xsd-inline.js";

const gen = generateInlineXsd(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:simpleType name="Day"><xs:restriction base="xs:date"><xs:minExclusive value="1970-01-01"/><xs:maxExclusive value="1970-01-03"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="MonthDay"><xs:restriction base="xs:gDay"><xs:maxExclusive value="---25"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Span"><xs:restriction base="xs:duration"><xs:maxInclusive value="P1D"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="One"><xs:restriction base="xs:boolean"><xs:pattern value="[1]{1}"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Sci"><xs:restriction base="xs:double"><xs:pattern value="\\d{1}E\\-\\d{3}"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Name1"><xs:restriction base="xs:QName"><xs:length value="1"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Pictures"><xs:restriction base="xs:NOTATION"><xs:enumeration value="jpeg"/><xs:enumeration value="g"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Picture4"><xs:restriction base="Pictures"><xs:length value="4"/></xs:restriction></xs:simpleType>
  <xs:notation name="jpeg" public="image/jpeg"/><xs:notation name="g" public="image/gif"/>
  <xs:simpleType name="Small"><xs:restriction base="xs:byte"><xs:enumeration value="1"/><xs:enumeration value="-7"/></xs:restriction></xs:simpleType>
  <xs:element name="day" type="Day"/>
</xs:schema>`);
const m = gen.load();
const issues = (type: string, value: unknown): string[] =>
  ((m[`validate${type}`] as (v: unknown) => { rule: string }[])(value)).map((i) => i.rule);

describe("facets by base type", () => {
  it("type-check strict", () => {
    expect(gen.typecheck()).toEqual([]);
  });

  it("order dates, gDays and durations", () => {
    expect(issues("Day", "1970-01-02")).toEqual([]);
    expect(issues("Day", "1970-01-01")).toEqual(["range"]);
    expect(issues("Day", "1970-01-03")).toEqual(["range"]);
    expect(issues("MonthDay", "---24")).toEqual([]);
    expect(issues("MonthDay", "---25")).toEqual(["range"]);
    expect(issues("Span", "PT24H")).toEqual([]);
    expect(issues("Span", "P1DT1S")).toEqual(["range"]);
  });

  it("check a boolean's pattern on both of its forms, and leave numbers' patterns to the decoder", () => {
    expect(issues("One", true)).toEqual([]);
    expect(issues("One", false)).toEqual(["pattern"]);
    expect(gen.files.get("validate.ts")).toContain("// pattern checked by the decoder (the value of double does not keep its lexical form)");
    expect(issues("Sci", 1e-100)).toEqual([]);
  });

  it("accept any QName length and take enumerations of numbers as their lexical forms", () => {
    expect(issues("Name1", "p:long")).toEqual([]);
    // Through an enumeration of NOTATION too (W3C NOTATION_length001): the length facet holds, the enumeration counts.
    expect(issues("Picture4", "g")).toEqual([]);
    expect(issues("Picture4", "mpeg")).toEqual(["enum"]);
    expect(issues("Small", "-7")).toEqual([]);
    expect(issues("Small", "2")).toEqual(["enum"]);
    expect(issues("Small", -7)).toEqual(["type"]);
  });
});
