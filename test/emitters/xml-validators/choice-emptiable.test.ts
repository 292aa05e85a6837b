/**
 * A choice that occurs once is required to have one alternative present, unless an alternative may be empty (XSD 1.0
 * Part 1, 3.8.6 Particle Emptiable: an element or group of minOccurs 0, a sequence of such): then nothing satisfies
 * it. The validator wanted one of them (W3C suite particlesId001, Ie004, Ie013, R011, T003, groupL001v/L004v, ctZ003).
 * libxml2 judges the same documents.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateInlineXsd } from "../../helpers/xsd-inline.js";
import { xmllintValidate } from "../xml/helpers/xmllint.js";

type Fn = (v: unknown) => unknown;

const xsd = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="optional"><xs:complexType><xs:choice><xs:element name="a" type="xs:string" minOccurs="0"/><xs:element name="b" type="xs:string"/></xs:choice></xs:complexType></xs:element>
  <xs:element name="sequence"><xs:complexType><xs:choice><xs:element name="a" type="xs:string"/>
    <xs:sequence><xs:element name="b" type="xs:string" minOccurs="0"/><xs:element name="c" type="xs:string" minOccurs="0"/></xs:sequence></xs:choice></xs:complexType></xs:element>
  <xs:element name="required"><xs:complexType><xs:choice><xs:element name="a" type="xs:string"/>
    <xs:sequence><xs:element name="b" type="xs:string" minOccurs="0"/><xs:element name="c" type="xs:string"/></xs:sequence></xs:choice></xs:complexType></xs:element>
</xs:schema>`;

describe("a choice with an emptiable alternative", () => {
  const gen = generateInlineXsd(xsd);
  const m = gen.load() as Record<string, Fn>;
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "specforge-choice-")), "choice.xsd");
  writeFileSync(file, xsd);
  const rules = (el: string, doc: string) => (m[`validate${el}`]!(m[`decode${el}Element`]!(doc)) as { rule: string }[]).map((i) => i.rule);

  it("type-checks strict", () => {
    expect(gen.typecheck()).toEqual([]);
  });

  it("is satisfied by no element at all, as libxml2 agrees", () => {
    expect(rules("Optional", "<optional/>")).toEqual([]);
    expect(rules("Sequence", "<sequence/>")).toEqual([]);
    expect(xmllintValidate(file, ["<optional/>", "<sequence/>"])).toEqual([]);
  });

  it("still requires an alternative when none may be empty", () => {
    expect(rules("Required", "<required/>")).toEqual(["required"]);
    expect(rules("Required", "<required><c/></required>")).toEqual([]);
    expect(xmllintValidate(file, ["<required/>"])).toHaveLength(1);
  });
});
