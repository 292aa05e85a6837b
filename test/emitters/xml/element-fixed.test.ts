/**
 * `fixed` on element declarations (XSD 1.0 Part 1 §3.3.4, Element Locally Valid (Element) 5.2.2.2; issue 27, the
 * W3C suite's ElemDecl valueConstraint groups): an element whose value differs from its fixed value, compared in the
 * value space of its type ("1.0" equals "1" for a decimal), is invalid; an empty element takes the fixed value. A
 * local element's fixed value is reported by validate<T>; a document's root element (a string or number, with no
 * record to note it on) is refused by decode<E>Element. Every verdict is cross-checked with libxml2.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateInlineXsd } from "../../helpers/xsd-inline.js";
import { xmllintValidate } from "./helpers/xmllint.js";

type Fn = (...args: unknown[]) => unknown;
type Issue = { path: string; rule: string };

const dir = mkdtempSync(path.join(os.tmpdir(), "specforge-element-fixed-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCHEMA = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:t" targetNamespace="urn:t" elementFormDefault="qualified">
  <xs:element name="price" type="xs:decimal" fixed="1.0"/>
  <xs:element name="label" type="xs:string" fixed="alpha beta"/>
  <xs:element name="note" fixed="alpha beta"/>
  <xs:element name="order">
    <xs:complexType><xs:sequence><xs:element name="rate" type="xs:decimal" fixed="2.50"/></xs:sequence></xs:complexType>
  </xs:element>
</xs:schema>`;

describe("fixed values of elements", () => {
  const gen = generateInlineXsd(SCHEMA);
  const m = gen.load();
  const xsd = path.join(dir, "fixed.xsd");
  writeFileSync(xsd, SCHEMA);
  const libxml2 = (xml: string): boolean => xmllintValidate(xsd, [xml]).length === 0;
  /** specforge's verdict on a document: decoded without error and no issue from the type's validator. */
  const accepts = (root: string, xml: string, validate?: string): boolean => {
    let value: unknown;
    try {
      value = (m[`decode${root}Element`] as Fn)(xml);
    } catch (e) {
      expect((e as Error).name).toBe("XmlDecodeError");
      return false;
    }
    return validate === undefined || (m[validate] as (v: unknown) => Issue[])(value).length === 0;
  };

  // libxml2 compares an xsd:decimal's fixed value by its lexical form ("1" does not match "1.0"), where XSD 1.0
  // compares values (§3.3.4 5.2.2.2.2, "the actual value ... equal to the {value constraint} value"): these cases
  // follow the Recommendation and are checked to be the ones libxml2 refuses.
  const lexicalInLibxml2 = [
    ["Price", '<price xmlns="urn:t">1</price>'],
    ["Price", '<price xmlns="urn:t">1.000</price>'],
    ["Price", '<price xmlns="urn:t"> 01.000 </price>'],
    ["Order", '<order xmlns="urn:t"><rate>2.5</rate></order>', "validateOrder"],
  ] as const;
  const cases: [root: string, xml: string, valid: boolean, validate?: string][] = [
    ["Price", '<price xmlns="urn:t">1.0</price>', true],
    ["Price", '<price xmlns="urn:t"/>', true],
    ["Price", '<price xmlns="urn:t">1.01</price>', false],
    ["Price", '<price xmlns="urn:t">2</price>', false],
    ["Label", '<label xmlns="urn:t">alpha beta</label>', true],
    ["Label", '<label xmlns="urn:t"/>', true],
    ["Label", '<label xmlns="urn:t">beta alpha</label>', false],
    ["Note", '<note xmlns="urn:t">alpha beta</note>', true],
    ["Note", '<note xmlns="urn:t">beta alpha</note>', false],
    ["Order", '<order xmlns="urn:t"><rate>2.50</rate></order>', true, "validateOrder"],
    ["Order", '<order xmlns="urn:t"><rate>2.6</rate></order>', false, "validateOrder"],
  ];

  it("type-checks strict", () => {
    expect(gen.typecheck()).toEqual([]);
  });

  it.each(cases)("%s %s: valid %s, as libxml2 says", (root, xml, valid, validate) => {
    expect(libxml2(xml)).toBe(valid);
    expect(accepts(root, xml, validate)).toBe(valid);
  });

  it.each(lexicalInLibxml2)("%s %s: valid in the value space (libxml2 compares the lexical form)", (root, xml, validate?: string) => {
    expect(libxml2(xml)).toBe(false);
    expect(accepts(root, xml, validate)).toBe(true);
  });

  it("an empty root element takes the fixed value", () => {
    expect((m.decodePriceElement as Fn)('<price xmlns="urn:t"/>')).toBe("1.0");
    expect((m.decodeLabelElement as Fn)('<label xmlns="urn:t"/>')).toBe("alpha beta");
  });
});

const ABSTRACT = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:a" targetNamespace="urn:a" elementFormDefault="qualified">
  <xs:element name="shape" abstract="true" type="xs:string"/>
  <xs:element name="square" substitutionGroup="t:shape" type="xs:string"/>
  <xs:element name="any" abstract="true"/>
</xs:schema>`;

describe("abstract elements (cvc-elt.2)", () => {
  const gen = generateInlineXsd(ABSTRACT);
  const m = gen.load();
  const xsd = path.join(dir, "abstract.xsd");
  writeFileSync(xsd, ABSTRACT);
  const libxml2 = (xml: string): boolean => xmllintValidate(xsd, [xml]).length === 0;

  it("type-checks strict", () => {
    expect(gen.typecheck()).toEqual([]);
  });

  it.each([
    ["Shape", '<shape xmlns="urn:a">x</shape>', false],
    ["Any", '<any xmlns="urn:a"/>', false],
    ["Square", '<square xmlns="urn:a">x</square>', true],
  ] as const)("%s %s: valid %s, as libxml2 says", (root, xml, valid) => {
    expect(libxml2(xml)).toBe(valid);
    const decode = () => (m[`decode${root}Element`] as Fn)(xml);
    if (valid) expect(decode()).toBe("x");
    else expect(decode).toThrow(/is abstract/);
  });
});
