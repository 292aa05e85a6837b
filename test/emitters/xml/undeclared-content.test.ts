/**
 * What the schema forbids and the decoder reads past (it stays lenient: a SOAP service may add elements and
 * attributes): undeclared attributes and child elements, a single element met again (xsd:all, or after a sequence's
 * end), characters or elements in empty content, elements in simple content. The decoder returns the same value as
 * without them and notes each in a non-enumerable slot; `validate<T>` reports them with the record's path. libxml2
 * judges every document too (W3C suite: MS-Particles, MS-ModelGroups, MS-Attribute, suntest test008...).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { generateInlineXsd } from "../../helpers/xsd-inline.js";
import { xmllintValidate } from "./helpers/xmllint.js";

type Fn = (v: unknown) => unknown;
type Issues = { path: string; rule: string; message: string }[];
const xsd = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t" xmlns:t="urn:t" elementFormDefault="qualified">
  <xs:complexType name="Base"><xs:sequence><xs:element name="a" type="xs:int"/></xs:sequence>
    <xs:attribute name="foo" type="xs:string"/><xs:attribute name="bar" type="xs:string"/></xs:complexType>
  <xs:complexType name="Restricted"><xs:complexContent><xs:restriction base="t:Base">
    <xs:sequence><xs:element name="a" type="xs:int"/></xs:sequence>
    <xs:attribute name="bar" use="prohibited"/></xs:restriction></xs:complexContent></xs:complexType>
  <xs:complexType name="Empty"><xs:attribute name="id" type="xs:int"/></xs:complexType>
  <xs:complexType name="Price"><xs:simpleContent><xs:extension base="xs:decimal"><xs:attribute name="cur" type="xs:string"/></xs:extension></xs:simpleContent></xs:complexType>
  <xs:element name="order"><xs:complexType><xs:sequence>
    <xs:element name="x" type="xs:string"/>
    <xs:element name="y" type="xs:string" minOccurs="0"/>
    <xs:element name="r" type="t:Restricted" minOccurs="0"/>
    <xs:element name="e" type="t:Empty" minOccurs="0"/>
    <xs:element name="p" type="t:Price" minOccurs="0"/>
    <xs:element name="m" minOccurs="0"><xs:complexType mixed="1"><xs:attribute name="k" type="xs:string"/></xs:complexType></xs:element>
  </xs:sequence><xs:attribute name="id" type="xs:int"/></xs:complexType></xs:element>
  <xs:element name="bag"><xs:complexType><xs:all><xs:element name="u" type="xs:int"/><xs:element name="v" type="xs:int" minOccurs="0"/></xs:all></xs:complexType></xs:element>
</xs:schema>`;
const T = `xmlns="urn:t"`;

describe("content the schema does not declare", () => {
  const m = generateInlineXsd(xsd).load() as Record<string, Fn>;
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "specforge-undeclared-")), "t.xsd");
  writeFileSync(file, xsd);
  const validateOf = (doc: string): Fn => (doc.startsWith("<bag") ? m.validateBag! : m.validateOrder!);
  const decodeOf = (doc: string): Fn => (doc.startsWith("<bag") ? m.decodeBagElement! : m.decodeOrderElement!);

  it("valid documents: no issues, and libxml2 agrees (an inherited attribute of a restriction; text in mixed empty content)", () => {
    const valid = [
      `<order ${T} id="1"><x>a</x><y>b</y><r foo="kept"><a>1</a></r><e id="2"/><p cur="EUR">1.5</p><m k="1">any text</m></order>`,
      `<order ${T}><x>a</x><e></e></order>`,
      `<bag ${T}><v>2</v><u>1</u></bag>`,
    ];
    expect(xmllintValidate(file, valid)).toEqual([]);
    for (const doc of valid) expect(validateOf(doc)(decodeOf(doc)(doc)), doc).toEqual([]);
    expect(m.decodeOrderElement!(valid[0])).toMatchObject({ r: { foo: "kept", a: 1 } });
    // White space in empty content is let through (pretty-printed documents), where libxml2 reads XSD 1.0 to the letter.
    expect(m.validateOrder!(m.decodeOrderElement!(`<order ${T}><x>a</x><e>  \n </e></order>`))).toEqual([]);
  });

  const invalid: [doc: string, path: string, message: string][] = [
    [`<order ${T} id="1" extra="no"><x>a</x></order>`, "", "attribute extra is not declared"],
    [`<order ${T} xmlns:o="urn:o" o:id="1"><x>a</x></order>`, "", "attribute {urn:o}id is not declared"],
    [`<order ${T}><x>a</x><r bar="1"><a>1</a></r></order>`, "/r", "attribute bar is not declared"],
    [`<order ${T}><x>a</x><z>1</z></order>`, "", "element {urn:t}z is not allowed here"],
    [`<order ${T}><x>a</x><y>b</y><x>c</x></order>`, "", "element {urn:t}x occurs more than once"],
    [`<bag ${T}><u>1</u><v>2</v><u>3</u></bag>`, "", "element {urn:t}u occurs more than once"],
    [`<order ${T}><x>a</x><e>text</e></order>`, "/e", "character data is not allowed (the type's content is empty)"],
    [`<order ${T}><x>a</x><e><x>a</x></e></order>`, "/e", "child elements are not allowed (the type's content is empty)"],
    [`<order ${T}><x>a</x><p>1<b/></p></order>`, "/p", "child elements are not allowed (the type has simple content)"],
  ];

  it("invalid documents: libxml2 rejects each; the decoder reads it leniently and validate reports it with a path", () => {
    const rejected = xmllintValidate(
      file,
      invalid.map(([d]) => d),
    );
    expect(rejected).toHaveLength(invalid.length);
    for (const [doc, at, message] of invalid) {
      const value = decodeOf(doc)(doc);
      const issues = validateOf(doc)(value) as Issues;
      expect(issues, doc).toHaveLength(1);
      expect(issues[0]!.path, doc).toBe(at);
      expect(issues[0]!.message, doc).toContain(message);
    }
  });

  it("does not note the attributes SOAP puts on any element (encodingStyle, mustUnderstand, soapenc:*)", () => {
    const doc = `<order ${T} xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:e="http://schemas.xmlsoap.org/soap/encoding/" xmlns:s12="http://www.w3.org/2003/05/soap-envelope" s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" s:mustUnderstand="1" s12:role="r" e:root="1"><x>a</x></order>`;
    expect(m.validateOrder!(m.decodeOrderElement!(doc))).toEqual([]);
    // Any other namespace is noted.
    expect(m.validateOrder!(m.decodeOrderElement!(doc.replace('e:root="1"', 'xmlns:w="urn:w" w:root="1"')))).toHaveLength(1);
  });

  it("leaves the decoded value as it was: the notes are a non-enumerable slot (keys, JSON, deep equality)", () => {
    const plain = m.decodeOrderElement!(`<order ${T} id="1"><x>a</x></order>`);
    const noted = m.decodeOrderElement!(`<order ${T} id="1" extra="no"><x>a</x><z/></order>`) as object;
    expect(isDeepStrictEqual(noted, plain)).toBe(true);
    expect(Object.keys(noted)).toEqual(["x", "id"]);
    expect(JSON.stringify(noted)).toBe(JSON.stringify(plain));
    // A copy leaves the notes behind: validate the value the decoder returned.
    expect(m.validateOrder!({ ...noted })).toEqual([]);
    expect(m.validateOrder!(noted)).toHaveLength(2);
  });
});
