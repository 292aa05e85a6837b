/**
 * XSD identity constraints (issue 27, the invalid side of the W3C suite: xs:unique, xs:key and xs:keyref were not
 * checked at all): the parser compiles their XPaths (the XSD 1.0 subset: `.//`, `|`, child steps, `@attribute`
 * fields, prefixes of the schema), xml.ts lists them, and decoding a document checks them on its tree. Every case is
 * cross-checked with xmllint, which must agree.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateInlineXsd } from "../../helpers/xsd-inline.js";
import { xmllintValidate } from "./helpers/xmllint.js";

const SCHEMA = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:s="urn:shop" targetNamespace="urn:shop" elementFormDefault="qualified">
  <xs:element name="shop">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="product" maxOccurs="unbounded">
          <xs:complexType>
            <xs:sequence><xs:element name="sku" type="xs:string" minOccurs="0"/><xs:element name="price" type="xs:decimal"/></xs:sequence>
            <xs:attribute name="id" type="xs:int"/>
          </xs:complexType>
        </xs:element>
        <xs:element name="order" minOccurs="0" maxOccurs="unbounded">
          <xs:complexType><xs:attribute name="product" type="xs:int" use="required"/></xs:complexType>
        </xs:element>
      </xs:sequence>
    </xs:complexType>
    <xs:key name="productId"><xs:selector xpath="s:product"/><xs:field xpath="@id"/></xs:key>
    <xs:unique name="sku"><xs:selector xpath=".//s:product"/><xs:field xpath="s:sku"/></xs:unique>
    <xs:keyref name="orderedProduct" refer="s:productId"><xs:selector xpath="s:order"/><xs:field xpath="@product"/></xs:keyref>
  </xs:element>
</xs:schema>`;

const shop = (body: string) => `<shop xmlns="urn:shop">${body}</shop>`;
const product = (id: string, sku: string | undefined, price = "1") => `<product${id === "" ? "" : ` id="${id}"`}>${sku === undefined ? "" : `<sku>${sku}</sku>`}<price>${price}</price></product>`;

const VALID = [
  shop(product("1", "a") + product("2", "b")),
  // sku is optional: a unique ignores products without it.
  shop(product("1", undefined) + product("2", undefined) + product("3", "a")),
  // keys compare in their value space: 1 and 01 are one int, so 2 and 02 resolve the orders.
  shop(product("1", "a") + product("02", "b") + `<order product="2"/><order product="1"/>`),
  // xsd:string keeps its spaces: " a " is another value than "a".
  shop(product("1", "a") + product("2", " a ")),
];
const INVALID: [string, RegExp][] = [
  [shop(product("1", "a") + product("1", "b")), /xsd:key \{urn:shop\}productId: duplicate value "1"/],
  [shop(product("1", "a") + product("+01", "b")), /xsd:key \{urn:shop\}productId: duplicate value "1"/],
  [shop(product("", "a")), /xsd:key \{urn:shop\}productId: <product> lacks a key field/],
  [shop(product("1", "a") + product("2", "a")), /xsd:unique \{urn:shop\}sku: duplicate value "a"/],
  [shop(product("1", "a") + `<order product="3"/>`), /xsd:keyref \{urn:shop\}orderedProduct: no \{urn:shop\}productId has the value "3"/],
];

describe("identity constraints", () => {
  const gen = generateInlineXsd(SCHEMA);
  const schemaFile = path.join(mkdtempSync(path.join(os.tmpdir(), "idc-")), "s.xsd");
  writeFileSync(schemaFile, SCHEMA);

  it("are listed in xml.ts with compiled XPaths, and the code type-checks strict", () => {
    const xml = gen.files.get("xml.ts")!;
    expect(xml).toContain(`["urn:shop", "shop", "keyref", "{urn:shop}orderedProduct", "{urn:shop}productId", [["{urn:shop}order"]], [[["@{}product"]]]],`);
    expect(xml).toContain(`["urn:shop", "shop", "unique", "{urn:shop}sku", "", [["//", "{urn:shop}product"]], [[["{urn:shop}sku"]]]],`);
    expect(gen.typecheck()).toEqual([]);
  });

  it("accept what xmllint accepts", () => {
    expect(xmllintValidate(schemaFile, VALID)).toEqual([]);
    const decode = gen.load().decodeShopElement as (xml: string) => unknown;
    for (const d of VALID) expect(() => decode(d)).not.toThrow();
  });

  it("reject what xmllint rejects, saying which constraint and value", () => {
    expect(xmllintValidate(schemaFile, INVALID.map(([d]) => d)).length).toBe(INVALID.length);
    const decode = gen.load().decodeShopElement as (xml: string) => unknown;
    for (const [d, message] of INVALID) expect(() => decode(d)).toThrow(message);
  });

  it("leave a constraint whose XPath is outside the XSD 1.0 subset unchecked, with a located warning", () => {
    const odd = SCHEMA.replace(`<xs:selector xpath="s:order"/>`, `<xs:selector xpath="s:order[1]"/>`);
    const g = generateInlineXsd(odd);
    expect(g.doc.warnings?.map((w) => `${w.file}:${w.line}: ${w.detail}`)).toEqual(["/spec/inline.xsd:18: xsd:keyref orderedProduct: an XPath outside the XSD 1.0 subset; the constraint is not checked"]);
    const decode = g.load().decodeShopElement as (xml: string) => unknown;
    expect(() => decode(shop(product("1", "a") + `<order product="3"/>`))).not.toThrow();
  });
});

const ID_SCHEMA = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:ids" targetNamespace="urn:ids" elementFormDefault="qualified">
  <xs:simpleType name="Code"><xs:restriction base="xs:ID"><xs:maxLength value="8"/></xs:restriction></xs:simpleType>
  <xs:element name="doc">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="item" minOccurs="0" maxOccurs="unbounded"><xs:complexType><xs:attribute name="id" type="xs:ID"/></xs:complexType></xs:element>
        <xs:element name="code" type="t:Code" minOccurs="0" maxOccurs="unbounded"/>
        <xs:element name="ref" type="xs:IDREF" minOccurs="0" maxOccurs="unbounded"/>
        <xs:element name="refs" type="xs:IDREFS" minOccurs="0"/>
        <xs:element name="skipped" minOccurs="0"><xs:complexType><xs:sequence><xs:any processContents="skip" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>
      </xs:sequence>
    </xs:complexType>
  </xs:element>
</xs:schema>`;

const ids = (body: string) => `<doc xmlns="urn:ids">${body}</doc>`;

describe("xsd:ID and xsd:IDREF(S) per document", () => {
  const gen = generateInlineXsd(ID_SCHEMA);
  const schemaFile = path.join(mkdtempSync(path.join(os.tmpdir(), "ids-")), "s.xsd");
  writeFileSync(schemaFile, ID_SCHEMA);
  const valid = [
    ids(`<item id="a"/><item id="b"/><code> c </code><ref>a</ref><ref>c</ref><refs>a  b c</refs>`),
    ids(`<item/><item/>`),
    // The content of a processContents="skip" wildcard is not assessed: its <code>a</code> is no ID.
    ids(`<item id="a"/><skipped><code>a</code><item id="a"/></skipped>`),
  ];
  const invalid: [string, RegExp][] = [
    [ids(`<item id="a"/><item id="a"/>`), /\/doc\/item\/@id: ID "a" is not unique in the document/],
    // IDs of an attribute and of an element (a restriction of xs:ID) share one space.
    [ids(`<item id="a"/><code>a</code>`), /\/doc\/code: ID "a" is not unique/],
    [ids(`<item id="a"/><ref>b</ref>`), /IDREF "b" names no ID of the document/],
    [ids(`<item id="a"/><refs>a b</refs>`), /IDREF "b" names no ID of the document/],
  ];

  it("are listed in xml.ts by element and attribute name", () => {
    const xml = gen.files.get("xml.ts")!;
    expect(xml).toContain(`["@{}id", "ID"],`);
    expect(xml).toContain(`["{urn:ids}code", "ID"],`);
    expect(xml).toContain(`["{urn:ids}refs", "IDREFS"],`);
  });

  it("accept what xmllint accepts; reject duplicate IDs and dangling IDREFs", () => {
    expect(xmllintValidate(schemaFile, valid)).toEqual([]);
    // libxml2 checks only the uniqueness of ID attributes under a schema (not element IDs, not IDREF resolution);
    // the W3C suite's expected outcomes (ElemDecl idConstrDefs003*, 004*, 005*) are the reference for the others.
    expect(xmllintValidate(schemaFile, [invalid[0]![0]]).length).toBe(1);
    const decode = gen.load().decodeDocElement as (xml: string) => unknown;
    for (const d of valid) expect(() => decode(d)).not.toThrow();
    for (const [d, message] of invalid) expect(() => decode(d)).toThrow(message);
  });
});
