/**
 * Substitution groups (XSD 1.0 Structures §2.2.2.2, §3.3.6): where a content model refers to a head element, the
 * members of its group (transitively, across schema documents) stand in its place, each read and written by its own
 * declaration; an abstract head never appears itself; the head's `block` (and blockDefault, and the head type's
 * prohibited substitutions) leaves members out. W3C suite: ElemDecl/disallowedSubst*, substGrpAffil*, abstract*,
 * MS-Element elemS00x, ipo6. libxml2 judges every document.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateInlineXsd } from "../../helpers/xsd-inline.js";
import { xmllintValidate } from "./helpers/xmllint.js";

type Fn = (v: unknown) => unknown;

const A = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:a="urn:a" targetNamespace="urn:a" elementFormDefault="qualified">
  <xs:import namespace="urn:b" schemaLocation="b.xsd"/>
  <xs:complexType name="Shape"><xs:sequence><xs:element name="id" type="xs:string"/></xs:sequence></xs:complexType>
  <xs:complexType name="Circle"><xs:complexContent><xs:extension base="a:Shape"><xs:sequence>
    <xs:element name="r" type="xs:int"/>
  </xs:sequence></xs:extension></xs:complexContent></xs:complexType>
  <xs:element name="shape" type="a:Shape" abstract="true"/>
  <xs:element name="square" type="a:Shape" substitutionGroup="a:shape"/>
  <xs:element name="circle" type="a:Circle" substitutionGroup="a:shape"/>
  <xs:element name="drawing"><xs:complexType><xs:sequence>
    <xs:element ref="a:shape" maxOccurs="unbounded"/>
    <xs:element name="title" type="xs:string"/>
    <xs:element ref="a:note" minOccurs="0"/>
  </xs:sequence></xs:complexType></xs:element>
  <xs:element name="note" type="xs:string" block="substitution"/>
  <xs:element name="extNote" type="xs:string" substitutionGroup="a:note"/>
  <xs:element name="plainShape" type="a:Shape" block="extension"/>
  <xs:element name="plainCircle" type="a:Circle" substitutionGroup="a:plainShape"/>
  <xs:element name="plainSquare" type="a:Shape" substitutionGroup="a:plainShape"/>
  <xs:element name="frame"><xs:complexType><xs:sequence><xs:element ref="a:plainShape"/></xs:sequence></xs:complexType></xs:element>
  <xs:element name="code" type="xs:string"/>
  <xs:element name="shortCode" substitutionGroup="a:code"><xs:simpleType><xs:restriction base="xs:string">
    <xs:maxLength value="3"/>
  </xs:restriction></xs:simpleType></xs:element>
  <xs:element name="codes"><xs:complexType><xs:sequence>
    <xs:element ref="a:code" maxOccurs="unbounded"/><xs:element name="sep" type="xs:string"/><xs:element ref="a:shortCode"/>
  </xs:sequence></xs:complexType></xs:element>
  <xs:element name="anything"/>
  <xs:element name="tagged"><xs:complexType><xs:attribute name="n" type="xs:int" use="required"/></xs:complexType></xs:element>
</xs:schema>`;

// A member declared in another schema document, of a member (transitively).
const B = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:a="urn:a" targetNamespace="urn:b" elementFormDefault="qualified">
  <xs:import namespace="urn:a"/>
  <xs:element name="triangle" type="a:Shape" substitutionGroup="a:square"/>
</xs:schema>`;

describe("substitution groups", () => {
  const gen = generateInlineXsd(A, { "b.xsd": B });
  const m = gen.load() as Record<string, Fn>;
  const dir = mkdtempSync(path.join(os.tmpdir(), "specforge-subst-"));
  writeFileSync(path.join(dir, "a.xsd"), A.replace('schemaLocation="b.xsd"', `schemaLocation="${path.join(dir, "b.xsd")}"`));
  writeFileSync(path.join(dir, "b.xsd"), B.replace('<xs:import namespace="urn:a"/>', `<xs:import namespace="urn:a" schemaLocation="${path.join(dir, "a.xsd")}"/>`));
  const schema = path.join(dir, "a.xsd");

  it("type-checks strict; a repeated head is one property named after it, items tagged by element name", () => {
    expect(gen.typecheck()).toEqual([]);
    const types = gen.files.get("types.ts")!;
    expect(types).toMatch(/shape: \[\(\{ kind: "square"; value: AnyShape \} \| \{ kind: "circle"; value: Circle \} \| \{ kind: "triangle"; value: AnyShape \}\)/);
    // The abstract head is not among them; block="substitution" keeps extNote out; block="extension" plainCircle.
    expect(types).not.toMatch(/kind: "shape"/);
    expect(types).not.toMatch(/extNote/);
    expect(types).toMatch(/plainSquare\?: AnyShape/);
    expect(types).not.toMatch(/plainCircle\??:/);
  });

  it("reads each member by its own declaration, in document order, and writes the member names back", () => {
    const input =
      '<a:drawing xmlns:a="urn:a" xmlns:b="urn:b"><a:square><a:id>1</a:id></a:square><b:triangle><a:id>2</a:id></b:triangle>' +
      "<a:circle><a:id>c</a:id><a:r>3</a:r></a:circle><a:square><a:id>4</a:id></a:square><a:title>t</a:title></a:drawing>";
    expect(xmllintValidate(schema, [input])).toEqual([]);
    const v = m.decodeDrawingElement!(input) as { shape: { kind: string; value: Record<string, unknown> }[] };
    expect(v.shape.map((i) => i.kind)).toEqual(["square", "triangle", "circle", "square"]);
    expect(v.shape[2]!.value).toEqual({ $type: "Circle", id: "c", r: 3 });
    expect(m.validateDrawing!(v)).toEqual([]);
    const out = m.encodeDrawingElement!(v) as string;
    expect(out).toBe(
      '<ns1:drawing xmlns:ns1="urn:a" xmlns:ns2="urn:b" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><ns1:square><ns1:id>1</ns1:id></ns1:square>' +
        "<ns2:triangle><ns1:id>2</ns1:id></ns2:triangle><ns1:circle><ns1:id>c</ns1:id><ns1:r>3</ns1:r></ns1:circle><ns1:square><ns1:id>4</ns1:id></ns1:square>" +
        "<ns1:title>t</ns1:title></ns1:drawing>",
    );
    expect(xmllintValidate(schema, [out])).toEqual([]);
    expect(m.decodeDrawingElement!(out)).toEqual(v);
  });

  it("validates a member's value against the member's type", () => {
    const bad = { shape: [{ kind: "circle", value: { $type: "Circle", id: "c", r: "three" } }], title: "t" };
    expect((m.validateDrawing!(bad) as { path: string }[]).map((i) => i.path)).toEqual(["/shape/0/value/r"]);
  });

  it("refuses what libxml2 refuses: an abstract head alone, a blocked member, a member the block keeps out", () => {
    const alone = '<drawing xmlns="urn:a"><shape><id>1</id></shape><title>t</title></drawing>';
    expect(xmllintValidate(schema, [alone])).toHaveLength(1);
    expect(() => m.decodeDrawingElement!(alone)).toThrow(/required element/);
    const extended = '<frame xmlns="urn:a"><plainCircle><id>1</id><r>2</r></plainCircle></frame>';
    expect(xmllintValidate(schema, [extended])).toHaveLength(1);
    // The choice (plainShape | plainSquare) is left empty: the validator says one of them is required.
    const read = m.decodeFrameElement!(extended);
    expect(read).toEqual({});
    expect(JSON.stringify(m.validateFrame!(read))).toMatch(/one of plainShape, plainSquare is required/);
    const same = '<frame xmlns="urn:a"><plainSquare><id>1</id></plainSquare></frame>';
    expect(xmllintValidate(schema, [same])).toEqual([]);
    expect(m.decodeFrameElement!(same)).toEqual({ plainSquare: { id: "1" } });
    const blocked = '<drawing xmlns="urn:a"><square><id>1</id></square><title>t</title><extNote>n</extNote></drawing>';
    expect(xmllintValidate(schema, [blocked])).toHaveLength(1);
    expect(m.decodeDrawingElement!(blocked)).not.toHaveProperty("extNote");
  });

  it("reads a member by position when it may also stand later in the sequence (code*, sep, shortCode)", () => {
    const input = '<codes xmlns="urn:a"><code>abcd</code><shortCode>ab</shortCode><sep>-</sep><shortCode>xy</shortCode></codes>';
    expect(xmllintValidate(schema, [input])).toEqual([]);
    const v = m.decodeCodesElement!(input);
    expect(v).toEqual({ code: [{ kind: "code", value: "abcd" }, { kind: "shortCode", value: "ab" }], sep: "-", shortCode: "xy" });
    const out = m.encodeCodesElement!(v) as string;
    expect(xmllintValidate(schema, [out])).toEqual([]);
    expect(m.decodeCodesElement!(out)).toEqual(v);
    // The member's own type: shortCode is at most 3 characters.
    expect((m.validateCodes!({ ...(v as object), shortCode: "wxyz" }) as { path: string }[]).map((i) => i.path)).toEqual(["/shortCode"]);
  });
});

describe("xsd:anyType content (lax): a child naming a global element is read and written by its declaration", () => {
  const gen = generateInlineXsd(A, { "b.xsd": B });
  const m = gen.load() as Record<string, Fn>;
  const dir = mkdtempSync(path.join(os.tmpdir(), "specforge-lax-"));
  writeFileSync(path.join(dir, "a.xsd"), A.replace(/<xs:import[^>]*>/, ""));
  const schema = path.join(dir, "a.xsd");

  it("keeps the child's attributes (dropped by the generic reading), so the output is still valid", () => {
    const v = m.decodeAnythingElement!('<anything xmlns="urn:a"><tagged n="157"/><other x="1">text</other></anything>');
    // `other` has no declaration: a generic item, which keeps its attributes too (open content items' `attributes`).
    expect(v).toEqual([{ ns: "urn:a", name: "tagged", value: { n: 157 } }, { ns: "urn:a", name: "other", value: "text", attributes: { x: "1" } }]);
    const out = m.encodeAnythingElement!(v) as string;
    expect(out).toContain('<ns1:tagged n="157"/>');
    expect(out).toContain('<ns1:other x="1">text</ns1:other>');
    expect(xmllintValidate(schema, [out])).toEqual([]);
    expect(m.decodeAnythingElement!(out)).toEqual(v);
    // A child invalid against its declaration is an error (lax assessment validates what it has a declaration for).
    expect(() => m.decodeAnythingElement!('<anything xmlns="urn:a"><tagged/></anything>')).toThrow(/attribute n/);
  });

  it("keeps an xsi:type naming a builtin simple type, and the text as written (W3C suite idF012-idF014)", () => {
    const input = '<anything xmlns="urn:a" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema" xsi:type="xs:decimal">1.50</anything>';
    expect(xmllintValidate(schema, [input])).toEqual([]);
    const v = m.decodeAnythingElement!(input);
    expect(v).toEqual({ $type: "xsd:decimal", $value: "1.50" });
    const out = m.encodeAnythingElement!(v) as string;
    expect(out).toMatch(/xsi:type="[a-z0-9]+:decimal">1\.50</);
    expect(xmllintValidate(schema, [out])).toEqual([]);
    expect(m.decodeAnythingElement!(out)).toEqual(v);
    expect(() => m.encodeAnythingElement!({ $type: "xsd:decimal" })).toThrow(/needs its text in \$value/);
  });
});
