/**
 * Several wildcards in a sequence, admitting the same namespaces (`<any namespace="##other"/><any namespace="A"/>`,
 * W3C suite wildI011, mgF018, addB135): each child goes to the first wildcard that can take one more, so each
 * occurring once holds one element. The first took them all, and the validator found it over its maxOccurs and the
 * next one missing. libxml2 judges the documents and the re-encoded output.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateInlineXsd } from "../../helpers/xsd-inline.js";
import { xmllintValidate } from "./helpers/xmllint.js";

type Fn = (v: unknown) => unknown;
const xsd = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t" xmlns:t="urn:t">
  <xs:element name="two"><xs:complexType><xs:sequence>
    <xs:any namespace="##other" processContents="lax"/><xs:any namespace="urn:a" processContents="lax"/>
  </xs:sequence></xs:complexType></xs:element>
  <xs:element name="then-many"><xs:complexType><xs:sequence>
    <xs:any namespace="##other" processContents="skip"/><xs:any namespace="##any" processContents="skip" maxOccurs="unbounded"/>
  </xs:sequence></xs:complexType></xs:element>
</xs:schema>`;

describe("wildcards in a sequence", () => {
  const gen = generateInlineXsd(xsd);
  const m = gen.load() as Record<string, Fn>;
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "specforge-wild-")), "wild.xsd");
  writeFileSync(file, xsd);
  const issues = (el: string, v: unknown) => (m[`validate${el}`]!(v) as { path: string; rule: string }[]).map((i) => `${i.path} ${i.rule}`);

  it("type-check strict", () => {
    expect(gen.typecheck()).toEqual([]);
  });

  it("give each wildcard the elements it can take, in order, and write them back", () => {
    const docs = [
      '<t:two xmlns:t="urn:t"><a:b xmlns:a="urn:a">1</a:b><a:b xmlns:a="urn:a">2</a:b></t:two>',
      '<t:then-many xmlns:t="urn:t"><x:y xmlns:x="urn:x">1</x:y><x:y xmlns:x="urn:x">2</x:y><t:z>3</t:z></t:then-many>',
    ];
    const two = m.decodeTwoElement!(docs[0]) as Record<string, { value: unknown }[]>;
    expect(Object.values(two).map((items) => items.map((i) => i.value))).toEqual([["1"], ["2"]]);
    expect(issues("Two", two)).toEqual([]);
    const many = m.decodeThenManyElement!(docs[1]) as Record<string, { value: unknown }[]>;
    expect(Object.values(many).map((items) => items.map((i) => i.value))).toEqual([["1"], ["2", "3"]]);
    expect(issues("ThenMany", many)).toEqual([]);
    const outs = [m.encodeTwoElement!(two) as string, m.encodeThenManyElement!(many) as string];
    expect(m.decodeTwoElement!(outs[0])).toEqual(two);
    expect(m.decodeThenManyElement!(outs[1])).toEqual(many);
    expect(xmllintValidate(file, [...docs, ...outs])).toEqual([]);
  });

  it("still report an element too many", () => {
    const doc = '<t:two xmlns:t="urn:t"><a:b xmlns:a="urn:a">1</a:b><a:b xmlns:a="urn:a">2</a:b><a:b xmlns:a="urn:a">3</a:b></t:two>';
    expect(issues("Two", m.decodeTwoElement!(doc)).length).toBeGreaterThan(0);
    expect(xmllintValidate(file, [doc])).toHaveLength(1);
  });
});

/**
 * A wildcard before a declared element that it also admits (`e1, any, e2`, W3C suite QFE1700c2): the first `<e2>`
 * after `<e1>` is the wildcard's, in sequence order; the field took it (and refused its content as not an int).
 */
describe("a wildcard before an element it admits", () => {
  const xsd = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
    <xs:element name="e2" type="xs:int"/>
    <xs:element name="root"><xs:complexType><xs:sequence>
      <xs:element name="e1" type="xs:string"/><xs:any namespace="##any" processContents="skip"/><xs:element ref="e2"/>
    </xs:sequence></xs:complexType></xs:element>
  </xs:schema>`;
  const m = generateInlineXsd(xsd).load() as Record<string, Fn>;
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "specforge-wild-")), "before.xsd");
  writeFileSync(file, xsd);

  it("gives the wildcard the first one, the field the next", () => {
    const doc = "<root><e1>a</e1><e2>not an int</e2><e2>5</e2></root>";
    const v = m.decodeRootElement!(doc) as Record<string, unknown>;
    expect(v.e1).toBe("a");
    expect(v.e2).toBe(5);
    expect(Object.values(v).filter(Array.isArray)).toEqual([[{ ns: "", name: "e2", value: "not an int" }]]);
    const out = m.encodeRootElement!(v) as string;
    expect(m.decodeRootElement!(out)).toEqual(v);
    expect(xmllintValidate(file, [doc, out])).toEqual([]);
  });
});
