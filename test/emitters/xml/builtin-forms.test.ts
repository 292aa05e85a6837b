/**
 * String-valued builtins with a lexical form of their own (gYear, gYearMonth, gMonth, gMonthDay, gDay, language,
 * Name, NCName, NMTOKEN) and dates that do not exist (1999-02-29, year 0000): the decoder keeps the text, the
 * validator checks the form (W3C suite MS-DataTypes Name004, gDay004, gMonth003, date004, dateTime011...). libxml2
 * judges every value the same way.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateInlineXsd } from "../../helpers/xsd-inline.js";
import { xmllintValidate } from "./helpers/xmllint.js";

type Fn = (v: unknown) => unknown;
const TYPES = ["gYear", "gYearMonth", "gMonth", "gMonthDay", "gDay", "language", "Name", "NCName", "NMTOKEN", "date", "dateTime"] as const;
const xsd = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="v"><xs:complexType><xs:choice>
${TYPES.map((t) => `    <xs:element name="${t}" type="xs:${t}"/>`).join("\n")}
  </xs:choice></xs:complexType></xs:element>
  <xs:simpleType name="ints"><xs:list itemType="xs:int"/></xs:simpleType>
  <xs:element name="u"><xs:simpleType><xs:union memberTypes="xs:gMonth xs:gYear ints"/></xs:simpleType></xs:element>
  <xs:simpleType name="big"><xs:restriction base="xs:long"><xs:minInclusive value="100"/></xs:restriction></xs:simpleType>
  <xs:element name="w"><xs:simpleType><xs:union memberTypes="xs:long xs:NCName big"/></xs:simpleType></xs:element>
</xs:schema>`;

const VALID: [type: (typeof TYPES)[number], text: string][] = [
  ["gYear", "2001"], ["gYear", "-0045Z"], ["gYear", "12345+14:00"], ["gYearMonth", "1999-05"], ["gMonth", "--03"], ["gMonth", "--12Z"],
  ["gMonthDay", "--02-29"], ["gMonthDay", "--12-31-05:00"], ["gDay", "---15"], ["gDay", "---31Z"], ["language", "en-US"], ["language", "x-klingon"],
  ["Name", "fo:o"], ["Name", "_a.b-c"], ["Name", "été"], ["NCName", "foo"], ["NMTOKEN", "1fo"], ["date", "2000-02-29"], ["dateTime", "2001-04-30T23:59:59Z"],
];
const INVALID: [type: (typeof TYPES)[number], text: string][] = [
  ["gYear", ""], ["gYear", "99"], ["gYear", "0000"], ["gYear", "2000-00"], ["gYearMonth", "1999-15"], ["gYearMonth", "0000-01"], ["gMonth", "--03--"],
  ["gMonth", "--3--"], ["gMonth", "1999-05-10"], ["gMonthDay", "--02-30"], ["gMonthDay", "---03-15"], ["gDay", "--15"], ["gDay", "---32"],
  ["language", "1ko"], ["language", "en-USxxxxxxxx"], ["Name", "1fo"], ["Name", "-foo"], ["Name", "@test"], ["NCName", "fo:foo"], ["NCName", ".foo"],
  ["NMTOKEN", "a b"], ["date", "1999-02-29"], ["date", "2001-04-31"], ["dateTime", "0000-01-01T00:00:00"],
];

describe("string builtins' lexical forms", () => {
  const generated = generateInlineXsd(xsd);
  const m = generated.load() as Record<string, Fn>;
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "specforge-forms-")), "forms.xsd");
  writeFileSync(file, xsd);
  const doc = ([type, text]: [string, string]) => `<v><${type}>${text}</${type}></v>`;
  const issues = (d: string) => {
    try {
      return (m.validateV ?? m.validateVElement)!(m.decodeVElement!(d)) as unknown[];
    } catch (e) {
      return [String(e)];
    }
  };

  it("accepts what libxml2 accepts", () => {
    const docs = VALID.map(doc);
    expect(xmllintValidate(file, docs)).toEqual([]);
    for (const d of docs) expect(issues(d), d).toEqual([]);
  });

  it("tells a union's members apart by their forms (W3C suite stE080: gMonth, gYear, a list of int)", () => {
    const docs = ["<u>--05</u>", "<u>2004</u>", "<u>1 2 3 4 20 100</u>"];
    expect(xmllintValidate(file, docs)).toEqual([]);
    const values = docs.map((d) => m.decodeUElement!(d));
    expect(values).toEqual(["--05", "2004", [1, 2, 3, 4, 20, 100]]);
    expect(values.map((v) => m.decodeUElement!(m.encodeUElement!(v)))).toEqual(values);
    expect(xmllintValidate(file, ["<u>--13</u>"])).toHaveLength(1);
    expect(() => m.decodeUElement!("<u>--13</u>")).toThrow();
  });

  it("type-checks strict, a union's form test followed by a member of another type included (W3C stE017)", () => {
    expect(generated.typecheck()).toEqual([]);
    expect(m.decodeWElement!("<w>abc</w>")).toBe("abc");
    expect(m.encodeWElement!(m.decodeWElement!("<w>12</w>"))).toContain(">12</w>");
  });

  it("reports what libxml2 rejects, each with its path", () => {
    const docs = INVALID.map(doc);
    expect(xmllintValidate(file, docs)).toHaveLength(docs.length);
    for (const [i, d] of docs.entries()) {
      const found = issues(d);
      expect(found, d).toHaveLength(1);
      if (typeof found[0] !== "string") expect(found[0], d).toMatchObject({ path: `/${INVALID[i]![0]}` });
    }
  });
});
