/**
 * XSD values compared and carried in their value space, not as the instance wrote them (issue 27; W3C XSD suite
 * failure classes output-invalid, validator-rejects and decode-rejects):
 * - xsd:QName values are {namespace}local: read in the bindings of their element, written back with a prefix declared
 *   where they are written, so the output stays schema-valid (libxml2 is the judge) whatever prefixes the input used;
 * - enumerations of lists (and fixed values) compare by value: "1.0E1" is 10;
 * - an empty element takes its declaration's default or fixed value.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateInlineXsd } from "../../helpers/xsd-inline.js";
import { xmllintValidate } from "./helpers/xmllint.js";

type Fn = (...args: unknown[]) => unknown;
type Issue = { path: string; rule: string };

const dir = mkdtempSync(path.join(os.tmpdir(), "specforge-value-space-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCHEMA = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:t" xmlns:c="urn:codes" targetNamespace="urn:t" elementFormDefault="qualified">
  <xs:simpleType name="Code"><xs:restriction base="xs:QName"><xs:enumeration value="c:ok"/><xs:enumeration value="c:busy"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Names"><xs:list itemType="xs:QName"/></xs:simpleType>
  <xs:simpleType name="Doubles"><xs:list itemType="xs:double"/></xs:simpleType>
  <xs:simpleType name="Pair"><xs:restriction base="t:Doubles"><xs:enumeration value="1.0E1  2.50"/><xs:enumeration value="-0 INF"/></xs:restriction></xs:simpleType>
  <xs:element name="status">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="code" type="t:Code"/>
        <xs:element name="seen" type="t:Names"/>
        <xs:element name="kind" type="xs:QName"/>
        <xs:element name="pair" type="t:Pair" minOccurs="0"/>
        <xs:element name="retries" type="xs:int" default="3"/>
        <xs:element name="scale" type="xs:float" fixed="1.0e-2"/>
      </xs:sequence>
      <xs:attribute name="ref" type="xs:QName"/>
    </xs:complexType>
  </xs:element>
  <xs:element name="limit" type="xs:decimal" default="10.50"/>
</xs:schema>`;

describe("values in their value space", () => {
  const gen = generateInlineXsd(SCHEMA);
  const m = gen.load();
  const decode = m.decodeStatusElement as Fn;
  const encode = m.encodeStatusElement as Fn;
  const validate = m.validateStatus as (v: unknown) => Issue[];
  const xsd = path.join(dir, "status.xsd");
  writeFileSync(xsd, SCHEMA);
  // Prefixes the schema does not use: q for urn:codes, the default namespace for urn:t.
  const doc =
    '<status xmlns="urn:t" xmlns:q="urn:codes" xmlns:o="urn:other" ref="o:thing"><code>q:busy</code><seen> q:ok  o:x plain </seen>' +
    "<kind>q:ok</kind><pair>10 2.5</pair><retries/><scale/></status>";

  it("type-check strict; the enumeration of QNames holds {namespace}local values", () => {
    expect(gen.files.get("types.ts")).toContain('export type Code = "{urn:codes}ok" | "{urn:codes}busy";');
    expect(gen.typecheck()).toEqual([]);
  });

  it("read QNames in the bindings of their element, and empty elements as their default/fixed values", () => {
    const v = decode(doc);
    expect(v).toEqual({
      code: "{urn:codes}busy",
      // An unprefixed QName is in the default namespace (XML Namespaces §6.2, unlike an unprefixed attribute name).
      seen: ["{urn:codes}ok", "{urn:other}x", "{urn:t}plain"],
      kind: "{urn:codes}ok",
      pair: [10, 2.5],
      retries: 3,
      scale: 0.01,
      ref: "{urn:other}thing",
    });
    expect(validate(v)).toEqual([]);
    expect((m.decodeLimitElement as Fn)('<limit xmlns="urn:t"/>')).toBe("10.50");
    expect((m.decodeLimitElement as Fn)('<limit xmlns="urn:t">7</limit>')).toBe("7");
  });

  it("write QNames with prefixes declared in the output, fixed values as the schema writes them; libxml2 finds it valid", () => {
    const input = decode(doc);
    const out = encode(input) as string;
    expect(out).toContain("<ns1:scale>1.0e-2</ns1:scale>");
    expect(decode(out)).toEqual(input);
    expect(xmllintValidate(xsd, [out, `<?xml version="1.0"?>${doc}`])).toEqual([]);
    // A value built in code: its namespaces need no declaration beforehand.
    const built = { code: "{urn:codes}ok", seen: [], kind: "{urn:elsewhere}k", retries: 1, scale: 0.01 };
    const written = encode(built) as string;
    expect(decode(written)).toEqual(built);
    expect(xmllintValidate(xsd, [written])).toEqual([]);
  });

  it("refuse an unbound prefix, a malformed QName, and a QName outside the enumeration whatever its prefix", () => {
    expect(() => decode(doc.replace("<kind>q:ok", "<kind>z:ok"))).toThrow(/prefix of "z:ok" is not bound/);
    expect(() => decode(doc.replace("<kind>q:ok", "<kind>@ok"))).toThrow(/not a valid xsd:QName/);
    expect(() => decode(doc.replace("<code>q:busy", "<code>o:busy"))).toThrow(/is not a value of Code/);
  });

  it("compare list enumerations and fixed values by value", () => {
    const v = decode(doc) as Record<string, unknown>;
    expect(validate({ ...v, pair: [-0, Infinity] })).toEqual([]);
    expect(validate({ ...v, pair: [10, 2.25] }).map((i) => i.rule)).toEqual(["enum"]);
    expect(validate({ ...v, scale: 0.02 }).map((i) => `${i.path} ${i.rule}`)).toEqual(["/scale fixed"]);
  });
});

/**
 * An enumeration of dateTimes (dates, times, durations) compares by value too: "+00:00", "-00:00" and "Z" are the
 * same timezone (W3C suite dateTime_enumeration005a/b), read as the schema's form; a value without a timezone is not
 * equal to one with.
 */
describe("an enumeration of dateTimes", () => {
  const xsd = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
    <xs:simpleType name="At"><xs:restriction base="xs:dateTime"><xs:enumeration value="2002-01-01T12:01:01-00:00"/><xs:enumeration value="2002-01-02T00:00:00"/></xs:restriction></xs:simpleType>
    <xs:element name="at" type="At"/>
  </xs:schema>`;
  const m = generateInlineXsd(xsd).load();
  const decode = m.decodeAtElement as Fn;
  const encode = m.encodeAtElement as Fn;
  const file = path.join(dir, "at.xsd");
  writeFileSync(file, xsd);

  it("reads a value equal to a member as that member, and writes it so; libxml2 agrees", () => {
    const docs = ["<at>2002-01-01T12:01:01+00:00</at>", "<at>2002-01-01T12:01:01Z</at>", "<at>2002-01-01T13:01:01+01:00</at>"];
    for (const doc of docs) expect(decode(doc)).toBe("2002-01-01T12:01:01-00:00");
    const out = encode(decode(docs[0])) as string;
    expect(out).toContain(">2002-01-01T12:01:01-00:00</");
    expect(xmllintValidate(file, [...docs, out])).toEqual([]);
  });

  it("refuses another point in time, and a timezone where the member has none", () => {
    expect(() => decode("<at>2002-01-01T12:01:02Z</at>")).toThrow(/is not a value of At/);
    expect(() => decode("<at>2002-01-02T00:00:00Z</at>")).toThrow(/is not a value of At/);
    expect(xmllintValidate(file, ["<at>2002-01-01T12:01:02Z</at>"])).toHaveLength(1);
  });
});

/**
 * An element declared with no type (xsd:anyType) and a default or fixed value: empty, it has that value too (XSD 1.0
 * Part 1, 3.3.4 clause 5.1; W3C suite isDefault073, isDefault079), as its text.
 */
describe("an untyped element with a value constraint", () => {
  const xsd = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
    <xs:element name="root"><xs:complexType><xs:sequence><xs:element name="a" default="default"/><xs:element name="b" fixed="fixed"/></xs:sequence></xs:complexType></xs:element>
  </xs:schema>`;
  const m = generateInlineXsd(xsd).load();
  const file = path.join(dir, "untyped.xsd");
  writeFileSync(file, xsd);

  it("reads an empty element as the constraint's value, other content as it is; the validator and libxml2 agree", () => {
    const v = (m.decodeRootElement as Fn)("<root><a></a><b/></root>");
    expect(v).toEqual({ a: "default", b: "fixed" });
    expect((m.validateRoot as (v: unknown) => Issue[])(v)).toEqual([]);
    expect((m.decodeRootElement as Fn)("<root><a>x</a><b>fixed</b></root>")).toEqual({ a: "x", b: "fixed" });
    const out = (m.encodeRootElement as Fn)(v) as string;
    expect(xmllintValidate(file, ["<root><a></a><b/></root>", out])).toEqual([]);
  });
});
