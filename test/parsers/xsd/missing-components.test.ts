/**
 * Missing components (XSD 1.0 Part 1 §5.3; W3C suite saxonData Missing/missing001-006): a reference to a type or
 * element no schema declares is an error only where an instance needs it. specforge degrades, never refuses: an
 * element's or attribute's type=, a list's itemType and a union's memberTypes that name nothing are located warnings
 * and stand for anyType / anySimpleType; a missing substitution group head leaves the element in no group. A base=
 * naming nothing stays an error (missing004, missing005: the type cannot be defined), and so does an element ref=.
 */
import { describe, expect, it } from "vitest";
import type { RecordType } from "../../../src/ir/model.js";
import { generateInlineXsd } from "../../helpers/xsd-inline.js";
import { errorOf, parseFiles, parseXsdText, recordOf, schema, typeOf } from "./util.js";

describe("missing components", () => {
  it("an element's, an attribute's, a list item's and a union member's missing type are warnings with a fallback", () => {
    const ir = parseXsdText(
      [
        `<xsd:element name="good" type="xsd:int"/>`,
        `<xsd:element name="bad" type="tns:absent"/>`,
        `<xsd:complexType name="R"><xsd:sequence><xsd:element name="f" type="tns:gone"/></xsd:sequence><xsd:attribute name="a" type="tns:gone2"/></xsd:complexType>`,
        `<xsd:simpleType name="L"><xsd:list itemType="tns:gone3"/></xsd:simpleType>`,
        `<xsd:simpleType name="U"><xsd:union memberTypes="xsd:int tns:gone4"/></xsd:simpleType>`,
        `<xsd:element name="member" substitutionGroup="tns:rotten"/>`,
      ].join("\n"),
    );
    expect(ir.warnings?.map((w) => `${w.line}:${w.column}: ${w.detail}`)).toEqual([
      "3:1: unknown type 'tns:absent' ({urn:t}absent): a missing component, the element is typed as xsd:anyType (open content)",
      "4:41: unknown type 'tns:gone' ({urn:t}gone): a missing component, the element is typed as xsd:anyType (open content)",
      "4:95: unknown type 'tns:gone2' ({urn:t}gone2): a missing component, the attribute is typed as xsd:anySimpleType (a string)",
      "5:26: unknown type 'tns:gone3' ({urn:t}gone3): a missing component, the list's items are typed as xsd:anySimpleType (strings)",
      "6:26: unknown type 'tns:gone4' ({urn:t}gone4): a missing component, the union member is typed as xsd:anySimpleType (a string)",
      "7:1: unknown substitution group head 'tns:rotten' ({urn:t}rotten): a missing component, the element is a member of no substitution group",
    ]);
    expect(ir.elements.find((e) => e.name.local === "bad")!.type).toEqual({ kind: "scalar", scalar: "any", builtin: "xsd:anyType" });
    expect(ir.elements.find((e) => e.name.local === "member")!.substitutionGroup).toBeUndefined();
    expect(recordOf(ir, "R").members).toMatchObject([
      { name: "f", type: { kind: "scalar", scalar: "any" } },
      { name: "a", type: { kind: "scalar", scalar: "string", builtin: "xsd:anySimpleType" } },
    ]);
    expect(typeOf(ir, "L")).toMatchObject({ kind: "alias", target: { kind: "list", of: { kind: "scalar", scalar: "string" } } });
  });

  it("a missing base, and an element ref to nothing, stay errors (missing004, missing005)", () => {
    expect(errorOf(() => parseXsdText(`<xsd:simpleType name="S"><xsd:restriction base="tns:absent"><xsd:pattern value="1"/></xsd:restriction></xsd:simpleType>`))).toBe(
      "/spec/a.xsd:2:26: unknown type 'tns:absent' ({urn:t}absent)",
    );
    expect(errorOf(() => parseXsdText(`<xsd:complexType name="T"><xsd:sequence><xsd:element ref="tns:absent"/></xsd:sequence></xsd:complexType>`))).toBe(
      "/spec/a.xsd:2:41: unknown element 'tns:absent' ({urn:t}absent)",
    );
  });

  it("a missing component of a schema whose import names no file says which import that was", () => {
    const ir = parseFiles("/spec/a.xsd", {
      "/spec/a.xsd": schema(`<xsd:import namespace="urn:g" schemaLocation="g.xsd"/>\n<xsd:element name="e" type="g:T" xmlns:g="urn:g"/>`),
    });
    expect(ir.warnings?.map((w) => w.detail)).toEqual([
      "xsd:import schemaLocation 'g.xsd': no such file; the imported schema is left out (a schemaLocation is a hint, XSD 1.0 §4.2.3)",
      "unknown type 'g:T' ({urn:g}T): a missing component, the element is typed as xsd:anyType (open content); the schema of 'urn:g' was not read (its schemaLocation at /spec/a.xsd:2:1 names no file)",
    ]);
    expect(
      errorOf(() => parseFiles("/spec/a.xsd", { "/spec/a.xsd": schema(`<xsd:import namespace="urn:g" schemaLocation="g.xsd"/>\n<xsd:complexType name="T" xmlns:g="urn:g"><xsd:complexContent><xsd:extension base="g:B"/></xsd:complexContent></xsd:complexType>`) })),
    ).toBe("/spec/a.xsd:3:63: unknown type 'g:B' ({urn:g}B); the schema of 'urn:g' was not read (its schemaLocation at /spec/a.xsd:2:1 names no file)");
  });

  it("the generated code type-checks; the used declarations decode, the degraded one reads open content", () => {
    const gen = generateInlineXsd(
      `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="good" type="xs:integer"/><xs:element name="bad" type="absent"/>` +
        `<xs:element name="holder"><xs:complexType><xs:sequence><xs:element name="v" type="absentToo"/></xs:sequence><xs:attribute name="at" type="absent3"/></xs:complexType></xs:element></xs:schema>`,
    );
    expect(gen.doc.warnings).toHaveLength(3);
    expect(gen.typecheck()).toEqual([]);
    const xml = gen.load() as Record<string, (v: unknown) => unknown>;
    expect(xml.decodeGoodElement!("<good>3</good>")).toBe(3n);
    const holder = xml.decodeHolderElement!(`<holder at="x y"><v><deep>1</deep></v></holder>`) as { at: string; v: unknown };
    expect(holder.at).toBe("x y");
    expect(xml.decodeHolderElement!(xml.encodeHolderElement!(holder) as string)).toEqual(holder);
    expect((gen.doc.types.find((t) => t.name === "holder") as RecordType).members.map((m) => m.name)).toEqual(["v", "at"]);
  });
});
