/**
 * processContents="strict" (XSD 1.0 3.10.1, issue 27, the invalid side of the W3C suite): an element a strict
 * wildcard matches that names a global element must be valid against that declaration. The decoder reads it by the
 * declaration (its value has the element's type, written back the same way) and the validator checks it with the
 * element's type check; lax and skip wildcards keep generic open content. Cross-checked with xmllint.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateInlineXsd } from "../../helpers/xsd-inline.js";
import { xmllintValidate } from "../xml/helpers/xmllint.js";

const SCHEMA = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:w" targetNamespace="urn:w" elementFormDefault="qualified">
  <xs:simpleType name="Code"><xs:restriction base="xs:ID"><xs:length value="2"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Codes"><xs:restriction><xs:simpleType><xs:list itemType="xs:ID"/></xs:simpleType><xs:length value="2"/></xs:restriction></xs:simpleType>
  <xs:element name="code" type="tns:Code"/>
  <xs:element name="codes" type="tns:Codes"/>
  <xs:element name="count" type="xs:int" nillable="true"/>
  <xs:element name="point"><xs:complexType><xs:sequence><xs:element name="x" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
  <xs:element name="out"><xs:complexType><xs:sequence><xs:any processContents="strict" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>
  <xs:element name="loose"><xs:complexType><xs:sequence><xs:any processContents="lax" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>
</xs:schema>`;

type Fn = (...args: unknown[]) => unknown;
const doc = (root: string, body: string) => `<${root} xmlns="urn:w" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">${body}</${root}>`;

const VALID = [
  "<code>ab</code>",
  "<codes>ab cd</codes>",
  "<count>7</count><count xsi:nil='true'/>",
  "<point><x>3</x></point><code>zz</code>",
];
const INVALID_BY_VALIDATOR = ["<code>abc</code>", "<codes>ab cd ef</codes>"];
const INVALID_BY_DECODER = ["<count>seven</count>", "<point><y>3</y></point>"];

describe("strict wildcards validate their items against global declarations", () => {
  const gen = generateInlineXsd(SCHEMA);
  const schemaFile = path.join(mkdtempSync(path.join(os.tmpdir(), "strict-any-")), "s.xsd");
  writeFileSync(schemaFile, SCHEMA);

  it("type-checks strict", () => {
    expect(gen.typecheck()).toEqual([]);
  });

  it("reads a declared item by its element (typed value) and writes it back the same", () => {
    const m = gen.load();
    const decode = m.decodeOutElement as Fn;
    const encode = m.encodeOutElement as Fn;
    const v = decode(doc("out", "<count>7</count><codes> ab  cd </codes><point><x>3</x></point><other>t</other>")) as { $any: unknown[] };
    expect(v.$any).toEqual([
      { ns: "urn:w", name: "count", value: 7 },
      { ns: "urn:w", name: "codes", value: ["ab", "cd"] },
      { ns: "urn:w", name: "point", value: { x: 3 } },
      // Not declared: generic open content, as before.
      { ns: "urn:w", name: "other", value: "t" },
    ]);
    expect(decode(encode(v))).toEqual(v);
    expect((m.validateOut as Fn)(v)).toEqual([]);
  });

  it("accepts the valid documents, as xmllint does, and they round-trip", () => {
    const m = gen.load();
    const docs = VALID.map((b) => doc("out", b));
    expect(xmllintValidate(schemaFile, docs)).toEqual([]);
    for (const d of docs) {
      const v = (m.decodeOutElement as Fn)(d);
      expect((m.validateOut as Fn)(v)).toEqual([]);
      expect((m.decodeOutElement as Fn)((m.encodeOutElement as Fn)(v))).toEqual(v);
      expect(xmllintValidate(schemaFile, [(m.encodeOutElement as Fn)(v) as string])).toEqual([]);
    }
  });

  it("rejects what xmllint rejects: facets by the validator, lexical and structural errors by the decoder", () => {
    const m = gen.load();
    const invalid = [...INVALID_BY_VALIDATOR, ...INVALID_BY_DECODER].map((b) => doc("out", b));
    expect(xmllintValidate(schemaFile, invalid).length).toBe(invalid.length);
    const [tooLong, tooMany] = INVALID_BY_VALIDATOR.map((b) => (m.validateOut as Fn)((m.decodeOutElement as Fn)(doc("out", b))));
    expect(tooLong).toEqual([expect.objectContaining({ path: "/$any/0/value", message: expect.stringMatching(/length must be 2/) })]);
    expect(tooMany).toEqual([expect.objectContaining({ path: "/$any/0/value", message: expect.stringMatching(/2/) })]);
    for (const b of INVALID_BY_DECODER) expect(() => (m.decodeOutElement as Fn)(doc("out", b))).toThrow(/\$any\/0\/value/);
  });

  it("checks nil against the declaration's nillable, and a value given in code against its type", () => {
    const m = gen.load();
    const validate = m.validateOut as Fn;
    expect(validate({ $any: [{ ns: "urn:w", name: "count", value: null }] })).toEqual([]);
    expect(validate({ $any: [{ ns: "urn:w", name: "code", value: null }] })).toEqual([expect.objectContaining({ path: "/$any/0/value", message: "code is not nillable" })]);
    expect(validate({ $any: [{ ns: "urn:w", name: "point", value: { x: "3" } }] })).not.toEqual([]);
  });

  it("leaves lax content generic (not typed, not checked)", () => {
    const m = gen.load();
    const v = (m.decodeLooseElement as Fn)(doc("loose", "<count>7</count><code>abc</code>"));
    expect(v).toEqual({ $any: [{ ns: "urn:w", name: "count", value: "7" }, { ns: "urn:w", name: "code", value: "abc" }] });
    expect((m.validateLoose as Fn)(v)).toEqual([]);
  });
});

const ATTRS = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:a" elementFormDefault="qualified">
  <xs:element name="other"><xs:complexType><xs:anyAttribute namespace="##other" processContents="skip"/></xs:complexType></xs:element>
  <xs:element name="listed"><xs:complexType><xs:anyAttribute namespace="##targetNamespace ##local" processContents="skip"/></xs:complexType></xs:element>
</xs:schema>`;

describe("xsd:anyAttribute namespace constraints", () => {
  const gen = generateInlineXsd(ATTRS);
  const schemaFile = path.join(mkdtempSync(path.join(os.tmpdir(), "any-attr-")), "s.xsd");
  writeFileSync(schemaFile, ATTRS);
  const cases: [root: string, attrs: string, valid: boolean][] = [
    ["other", `xmlns:x="urn:x" x:a="1"`, true],
    ["other", `xmlns:t="urn:a" t:a="1"`, false],
    ["other", `a="1"`, false],
    ["listed", `xmlns:t="urn:a" t:a="1" b="2"`, true],
    ["listed", `xmlns:x="urn:x" x:a="1"`, false],
  ];
  const docOf = (root: string, attrs: string) => `<${root} xmlns="urn:a" ${attrs}/>`;

  it("agree with xmllint on which attributes a constraint admits", () => {
    const failing = new Set(xmllintValidate(schemaFile, cases.map(([r, a]) => docOf(r, a))).map((f) => Number(/doc(\d+)\.xml$/.exec(f.file)![1])));
    expect(cases.map((_, i) => !failing.has(i))).toEqual(cases.map(([, , valid]) => valid));
    const m = gen.load();
    for (const [root, attrs, valid] of cases) {
      const name = root === "other" ? "Other" : "Listed";
      const issues = (m[`validate${name}`] as Fn)((m[`decode${name}Element`] as Fn)(docOf(root, attrs))) as { path: string; message: string }[];
      if (valid) expect(issues).toEqual([]);
      else expect(issues).toEqual([expect.objectContaining({ message: expect.stringMatching(/^namespace not allowed here \(xsd:anyAttribute namespace=/) })]);
    }
  });
});
