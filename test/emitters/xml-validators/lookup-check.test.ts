/**
 * validate.ts's rule tables all pass `lookupCheck`; it was only emitted when some table line named a check, so a
 * schema whose records have only object rules (a bounded list, minOccurs above 1, a renamed key) or no checked
 * fields failed strict tsc with "Cannot find name 'lookupCheck'" and threw at run time (945 schemas of the W3C XSD
 * suite, issue 27).
 */
import { describe, expect, it } from "vitest";
import { generateInlineXsd } from "../../helpers/xsd-inline.js";

const XS = `xmlns:xs="http://www.w3.org/2001/XMLSchema"`;
type Validate = (v: unknown) => { path: string; message: string }[];

describe("lookupCheck", () => {
  it("exists when the only rule is an object rule (bounded list of a pattern type)", () => {
    const gen = generateInlineXsd(`<xs:schema ${XS}>
      <xs:element name="root"><xs:complexType><xs:sequence>
        <xs:element name="r" type="test" maxOccurs="10"/>
      </xs:sequence></xs:complexType></xs:element>
      <xs:simpleType name="test"><xs:restriction base="xs:string"><xs:pattern value=".x"/></xs:restriction></xs:simpleType>
    </xs:schema>`);
    expect(gen.files.get("validate.ts")).toMatch(/function lookupCheck\(name: string\)/);
    expect(gen.typecheck()).toEqual([]);
    const validate = gen.load().validateRoot as Validate;
    expect(validate({ r: ["ax", "bx"] })).toEqual([]);
    expect(validate({ r: ["ax", "b"] }).map((i) => i.path)).toEqual(["/r/1"]);
    expect(validate({ r: Array(11).fill("ax") }).map((i) => i.path)).toEqual(["/r"]);
  });

  it("exists when a record has no checked field at all", () => {
    const gen = generateInlineXsd(`<xs:schema ${XS}>
      <xs:element name="root"><xs:complexType><xs:sequence>
        <xs:any processContents="skip" minOccurs="0"/>
      </xs:sequence></xs:complexType></xs:element>
    </xs:schema>`);
    expect(gen.typecheck()).toEqual([]);
    expect((gen.load().validateRoot as Validate)({})).toEqual([]);
  });
});
