/**
 * Children out of their xsd:sequence's order (XSD 1.0 cvc-complex-type.2.4): the decoder still reads them (a SOAP
 * service may send elements out of order) but notes it, and `validate<T>` reports it at the record's path. Choices,
 * xsd:all and repeating groups share one rank (no order inside them is noted); records with wildcards or an element
 * name at several places are not checked. libxml2 judges every document (W3C suite: MS-Particles, MS-ModelGroups,
 * MS-Group, suntest, ElemDecl).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateInlineXsd } from "../../helpers/xsd-inline.js";
import { xmllintValidate } from "./helpers/xmllint.js";

type Fn = (v: unknown) => unknown;
type Issues = { path: string; rule: string; message: string }[];
const xsd = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t" xmlns:t="urn:t" elementFormDefault="qualified">
  <xs:complexType name="Base"><xs:sequence><xs:element name="a" type="xs:int"/><xs:element name="b" type="xs:int" minOccurs="0"/></xs:sequence></xs:complexType>
  <xs:complexType name="Ext"><xs:complexContent><xs:extension base="t:Base"><xs:sequence><xs:element name="c" type="xs:int"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
  <xs:complexType name="Inner"><xs:sequence><xs:element name="i1" type="xs:int"/><xs:element name="i2" type="xs:int"/></xs:sequence></xs:complexType>
  <xs:element name="head" type="xs:string"/>
  <xs:element name="member" type="xs:string" substitutionGroup="t:head"/>
  <xs:element name="order"><xs:complexType><xs:sequence>
    <xs:element name="x" type="xs:string"/>
    <xs:element name="y" type="xs:string" minOccurs="0" maxOccurs="unbounded"/>
    <xs:choice><xs:element name="p" type="xs:int"/><xs:sequence><xs:element name="q1" type="xs:int"/><xs:element name="q2" type="xs:int"/></xs:sequence></xs:choice>
    <xs:sequence minOccurs="0"><xs:element name="s1" type="xs:int"/><xs:element name="s2" type="xs:int" minOccurs="0"/></xs:sequence>
    <xs:sequence maxOccurs="3"><xs:element name="r1" type="xs:int"/><xs:element name="r2" type="xs:int"/></xs:sequence>
    <xs:choice minOccurs="0" maxOccurs="unbounded"><xs:element name="k1" type="xs:int"/><xs:element name="k2" type="xs:int"/></xs:choice>
    <xs:element ref="t:head" minOccurs="0"/>
    <xs:element name="inner" type="t:Inner" minOccurs="0"/>
    <xs:element name="ext" type="t:Ext" minOccurs="0"/>
    <xs:element name="z" type="xs:string" minOccurs="0"/>
  </xs:sequence></xs:complexType></xs:element>
  <xs:element name="bag"><xs:complexType><xs:all><xs:element name="u" type="xs:int"/><xs:element name="v" type="xs:int" minOccurs="0"/><xs:element name="w" type="xs:int" minOccurs="0"/></xs:all></xs:complexType></xs:element>
  <xs:element name="open"><xs:complexType><xs:sequence>
    <xs:element name="a" type="xs:int"/><xs:any namespace="##other" processContents="skip" minOccurs="0" maxOccurs="unbounded"/><xs:element name="b" type="xs:int"/>
  </xs:sequence></xs:complexType></xs:element>
</xs:schema>`;
const T = `xmlns="urn:t"`;
const R = "<r1>1</r1><r2>2</r2>";

describe("children out of their sequence's order", () => {
  const m = generateInlineXsd(xsd).load() as Record<string, Fn>;
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "specforge-seq-order-")), "t.xsd");
  writeFileSync(file, xsd);
  const name = (doc: string): string => /^<(\w+)/.exec(doc)![1]!;
  const cap = (s: string): string => s[0]!.toUpperCase() + s.slice(1);
  const check = (doc: string): Issues => (m[`validate${cap(name(doc))}`]!(m[`decode${cap(name(doc))}Element`]!(doc)) as Issues);

  const valid = [
    `<order ${T}><x>a</x><p>1</p>${R}</order>`,
    `<order ${T}><x>a</x><y>1</y><y>2</y><q1>1</q1><q2>2</q2><s1>1</s1><s2>2</s2>${R}${R}${R}<k2>1</k2><k1>2</k1><k2>3</k2><member>m</member><inner><i1>1</i1><i2>2</i2></inner><ext><a>1</a><b>2</b><c>3</c></ext><z>z</z></order>`,
    `<order ${T}><x>a</x><p>1</p><s1>1</s1>${R}<head>h</head><z>z</z></order>`,
    `<bag ${T}><w>3</w><v>2</v><u>1</u></bag>`,
    `<open ${T} xmlns:o="urn:o"><a>1</a><o:x/><o:y/><b>2</b></open>`,
  ];

  it("valid documents (choices, nested and repeating sequences, repeating choices, xsd:all, substitution, extension): no issues, and libxml2 agrees", () => {
    expect(xmllintValidate(file, valid)).toEqual([]);
    for (const doc of valid) expect(check(doc), doc).toEqual([]);
  });

  const invalid: [doc: string, path: string, message: string][] = [
    [`<order ${T}><p>1</p><x>a</x>${R}</order>`, "", "element {urn:t}x comes after element {urn:t}p"],
    [`<order ${T}><x>a</x><y>1</y><p>1</p><y>2</y>${R}</order>`, "", "element {urn:t}y comes after element {urn:t}p"],
    [`<order ${T}><x>a</x><p>1</p><s2>2</s2><s1>1</s1>${R}</order>`, "", "element {urn:t}s1 comes after element {urn:t}s2"],
    [`<order ${T}><x>a</x>${R}<p>1</p></order>`, "", "element {urn:t}p comes after element {urn:t}r1"],
    [`<order ${T}><x>a</x><p>1</p>${R}<z>z</z><k1>1</k1></order>`, "", "element {urn:t}k1 comes after element {urn:t}z"],
    [`<order ${T}><x>a</x><p>1</p>${R}<member>m</member><k1>1</k1></order>`, "", "element {urn:t}k1 comes after element {urn:t}member"],
    [`<order ${T}><x>a</x><p>1</p>${R}<inner><i2>2</i2><i1>1</i1></inner></order>`, "/inner", "element {urn:t}i1 comes after element {urn:t}i2"],
    [`<order ${T}><x>a</x><p>1</p>${R}<ext><a>1</a><c>3</c><b>2</b></ext></order>`, "/ext", "element {urn:t}b comes after element {urn:t}c"],
  ];

  it("invalid documents: libxml2 rejects each; the decoder reads it all and validate reports the order with a path", () => {
    expect(xmllintValidate(file, invalid.map(([d]) => d))).toHaveLength(invalid.length);
    for (const [doc, at, message] of invalid) {
      const issues = check(doc);
      expect(issues, doc).toHaveLength(1);
      expect(issues[0]!.rule, doc).toBe("order");
      expect(issues[0]!.path, doc).toBe(at);
      expect(issues[0]!.message, doc).toContain(message);
    }
    // Read leniently: the value holds every element, as in order.
    expect(m.decodeOrderElement!(invalid[0]![0])).toEqual(m.decodeOrderElement!(`<order ${T}><x>a</x><p>1</p>${R}</order>`));
  });

  it("does not note what it cannot place for sure: an element among a wildcard's (libxml2 rejects it; left to it)", () => {
    const doc = `<open ${T}><b>2</b><a>1</a></open>`;
    expect(xmllintValidate(file, [doc])).toHaveLength(1);
    expect(check(doc).filter((i) => i.rule === "order")).toEqual([]);
  });
});

describe("a repeating sequence of elements that each occur once in it: rounds (validate)", () => {
  const roundsXsd = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t" xmlns:t="urn:t" elementFormDefault="qualified">
  <xs:element name="doc"><xs:complexType><xs:sequence maxOccurs="3"><xs:element name="a1" type="xs:int"/><xs:element name="a2" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
  <xs:element name="twice"><xs:complexType><xs:sequence maxOccurs="2">
    <xs:sequence minOccurs="0"><xs:element name="r1" type="xs:int"/><xs:element name="r2" type="xs:int"/></xs:sequence>
    <xs:sequence minOccurs="0"><xs:element name="r2" type="xs:int"/><xs:element name="r3" type="xs:int"/></xs:sequence>
  </xs:sequence></xs:complexType></xs:element>
  <xs:element name="loose"><xs:complexType><xs:sequence maxOccurs="3"><xs:element name="b1" type="xs:int"/><xs:element name="b2" type="xs:int" minOccurs="0"/></xs:sequence></xs:complexType></xs:element>
</xs:schema>`;
  const generated = generateInlineXsd(roundsXsd);
  const m = generated.load() as Record<string, Fn>;
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "specforge-seq-rounds-")), "t.xsd");
  writeFileSync(file, roundsXsd);
  it("the generated check type-checks under strict tsc", () => {
    expect(generated.typecheck()).toEqual([]);
  });
  it("finished rounds pass, an unfinished one is reported; a sequence with an optional member is not checked", () => {
    const valid = [
      `<doc ${T}><a1>1</a1><a2>2</a2><a1>3</a1><a2>4</a2></doc>`,
      `<loose ${T}><b1>1</b1><b1>2</b1><b2>3</b2></loose>`,
      // An element name at two places (W3C groupB004): its property is not its particle's, so rounds are not counted.
      `<twice ${T}><r2>1</r2><r3>2</r3></twice>`,
    ];
    expect(xmllintValidate(file, valid)).toEqual([]);
    expect(m.validateTwice!(m.decodeTwiceElement!(valid[2]))).toEqual([]);
    expect(m.validateDoc!(m.decodeDocElement!(valid[0]))).toEqual([]);
    expect(m.validateLoose!(m.decodeLooseElement!(valid[1]))).toEqual([]);
    const invalid = `<doc ${T}><a1>1</a1><a2>2</a2><a1>3</a1></doc>`;
    expect(xmllintValidate(file, [invalid])).toHaveLength(1);
    const issues = m.validateDoc!(m.decodeDocElement!(invalid)) as Issues;
    expect(issues).toMatchObject([{ path: "", rule: "sequence" }]);
    expect(issues[0]!.message).toContain("a1, a2 come in rounds");
  });
});

describe("an optional sequence, or one in a choice: once one of its elements is there, its required ones are (validate)", () => {
  const optXsd = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t" xmlns:t="urn:t" elementFormDefault="qualified">
  <xs:element name="opt"><xs:complexType><xs:sequence>
    <xs:sequence minOccurs="0"><xs:element name="a1" type="xs:int"/><xs:element name="a2" type="xs:int"/><xs:element name="a3" type="xs:int" minOccurs="0"/></xs:sequence>
    <xs:choice minOccurs="0"><xs:sequence><xs:element name="c1" type="xs:int"/><xs:element name="c2" type="xs:int"/></xs:sequence><xs:element name="d" type="xs:int"/></xs:choice>
  </xs:sequence></xs:complexType></xs:element>
</xs:schema>`;
  const generated = generateInlineXsd(optXsd);
  const m = generated.load() as Record<string, Fn>;
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "specforge-seq-opt-")), "t.xsd");
  writeFileSync(file, optXsd);
  it("type-checks strict; valid documents pass, a partial sequence is reported; libxml2 agrees on each", () => {
    expect(generated.typecheck()).toEqual([]);
    const valid = [`<opt ${T}/>`, `<opt ${T}><a1>1</a1><a2>2</a2></opt>`, `<opt ${T}><a1>1</a1><a2>2</a2><a3>3</a3><c1>1</c1><c2>2</c2></opt>`, `<opt ${T}><d>1</d></opt>`];
    expect(xmllintValidate(file, valid)).toEqual([]);
    for (const doc of valid) expect(m.validateOpt!(m.decodeOptElement!(doc)), doc).toEqual([]);
    const invalid: [string, string][] = [
      [`<opt ${T}><a1>1</a1></opt>`, "a2 is required with the other elements of its sequence"],
      [`<opt ${T}><a2>2</a2><a3>3</a3></opt>`, "a1 is required with the other elements of its sequence"],
      [`<opt ${T}><c2>1</c2></opt>`, "c1 is required with the other elements of its sequence"],
    ];
    expect(xmllintValidate(file, invalid.map(([d]) => d))).toHaveLength(invalid.length);
    for (const [doc, message] of invalid) {
      const issues = m.validateOpt!(m.decodeOptElement!(doc)) as Issues;
      expect(issues, doc).toHaveLength(1);
      expect(issues[0]!.message, doc).toContain(message);
    }
  });
});
