import { describe, expect, it } from "vitest";
import { XSD, errorOf, parseFiles, schema } from "./util.js";

// Each schema body starts on line 2 of /spec/a.xsd (line 1 is the xsd:schema start tag).
const cases: [string, string, string][] = [
  // An element's missing type= is a warning (test/parsers/xsd/missing-components.test.ts); a missing base= is not.
  ["unknown complex base", `<xsd:complexType name="T"><xsd:complexContent><xsd:extension base="tns:Foo"/></xsd:complexContent></xsd:complexType>`, "/spec/a.xsd:2:47: unknown type 'tns:Foo' ({urn:t}Foo)"],
  ["unknown element ref", `<xsd:complexType name="T"><xsd:sequence>\n<xsd:element ref="tns:nope"/></xsd:sequence></xsd:complexType>`, "/spec/a.xsd:3:1: unknown element 'tns:nope' ({urn:t}nope)"],
  ["unknown group", `<xsd:complexType name="T"><xsd:group ref="tns:G"/></xsd:complexType>`, "/spec/a.xsd:2:27: unknown group 'tns:G' ({urn:t}G)"],
  ["unknown attributeGroup", `<xsd:complexType name="T"><xsd:attributeGroup ref="tns:AG"/></xsd:complexType>`, "/spec/a.xsd:2:27: unknown attributeGroup 'tns:AG' ({urn:t}AG)"],
  ["unknown base", `<xsd:simpleType name="S"><xsd:restriction base="Nope"/></xsd:simpleType>`, "/spec/a.xsd:2:26: unknown type 'Nope' ({}Nope)"],
  ["unknown prefix", `<xsd:element name="e" type="q:T"/>`, "/spec/a.xsd:2:1: unknown namespace prefix 'q' in 'q:T'"],
  [
    "circular extension",
    `<xsd:complexType name="A"><xsd:complexContent><xsd:extension base="tns:B"/></xsd:complexContent></xsd:complexType>\n<xsd:complexType name="B"><xsd:complexContent><xsd:extension base="tns:A"/></xsd:complexContent></xsd:complexType>`,
    "/spec/a.xsd:2:1: circular type derivation: {urn:t}A -> {urn:t}B -> {urn:t}A",
  ],
  [
    "duplicate type",
    `<xsd:complexType name="A"/>\n<xsd:simpleType name="A"><xsd:restriction base="xsd:string"/></xsd:simpleType>`,
    "/spec/a.xsd:3:1: duplicate type '{urn:t}A' (first declared at /spec/a.xsd:2:1)",
  ],
  ["redefine without a location", `<xsd:redefine/>`, "/spec/a.xsd:2:1: xsd:redefine without schemaLocation"],
  // XSD 1.1's openContent and assertion degrade with a warning instead (test/parsers/xsd/xsd11.test.ts); unknown
  // elements of the XSD namespace are still errors.
  ["unsupported content", `<xsd:complexType name="T"><xsd:interleave/></xsd:complexType>`, "/spec/a.xsd:2:27: xsd:interleave is not supported in xsd:complexType"],
  ["unsupported facet", `<xsd:simpleType name="S"><xsd:restriction base="xsd:int"><xsd:maxScale value="2"/></xsd:restriction></xsd:simpleType>`, "/spec/a.xsd:2:58: unsupported <xsd:maxScale> in xsd:restriction"],
  // W3C XSD suite stE110 (issue 27): the emitters recursed until the stack overflowed.
  [
    "circular union",
    `<xsd:simpleType name="S"><xsd:union memberTypes="xsd:int tns:S2"/></xsd:simpleType>\n<xsd:simpleType name="S2"><xsd:list><xsd:simpleType><xsd:union memberTypes="tns:S"/></xsd:simpleType></xsd:list></xsd:simpleType>`,
    "/spec/a.xsd:2:1: circular simple type definition: {urn:t}S -> {urn:t}S2 -> {urn:t}S: a union must not have itself among its member types at any depth (XSD 1.0 Part 1 §3.14.3, src-simple-type.4)",
  ],
  // A list whose items are the list itself: no union on the way, so the base-chain rule.
  [
    "circular list",
    `<xsd:simpleType name="L"><xsd:list itemType="tns:L"/></xsd:simpleType>`,
    "/spec/a.xsd:2:1: circular simple type definition: {urn:t}L -> {urn:t}L: every simple type must derive from anySimpleType (XSD 1.0 Part 1 §3.14.6, st-props-correct.2)",
  ],
  ["circular group", `<xsd:group name="G"><xsd:sequence><xsd:group ref="tns:G"/></xsd:sequence></xsd:group><xsd:complexType name="T"><xsd:group ref="tns:G"/></xsd:complexType>`, "/spec/a.xsd:2:35: circular group reference {urn:t}G"],
  ["remote import", `<xsd:import namespace="urn:r" schemaLocation="http://example.com/r.xsd"/>`, `/spec/a.xsd:2:1: schema import 'http://example.com/r.xsd' is remote and specforge never fetches: map it to a local copy with an XML catalog (--catalog <file>, or "catalog" in specforge.config.json), e.g. <uri name="http://example.com/r.xsd" uri="local/copy.xsd"/>`],
  ["bad maxOccurs", `<xsd:complexType name="T"><xsd:sequence><xsd:element name="a" maxOccurs="many"/></xsd:sequence></xsd:complexType>`, "/spec/a.xsd:2:41: invalid maxOccurs 'many'"],
  ["malformed soapenc array dimension", `<xsd:complexType name="T" xmlns:enc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:w="http://schemas.xmlsoap.org/wsdl/"><xsd:complexContent><xsd:restriction base="enc:Array"><xsd:attribute ref="enc:arrayType" w:arrayType="xsd:int[][x]"/></xsd:restriction></xsd:complexContent></xsd:complexType>`, `/spec/a.xsd:2:178: invalid dimension '[x]' in wsdl:arrayType 'xsd:int[][x]'`],
];

describe("schema errors", () => {
  it.each(cases)("%s", (_, body, message) => {
    expect(errorOf(() => parseFiles("/spec/a.xsd", { "/spec/a.xsd": schema(body) }))).toBe(message);
  });

  it("an imported schema with the wrong targetNamespace", () => {
    const files = {
      "/spec/a.xsd": schema(`<xsd:import namespace="urn:x" schemaLocation="b.xsd"/>`),
      "/spec/b.xsd": `<xsd:schema xmlns:xsd="${XSD}" targetNamespace="urn:y"/>`,
    };
    expect(errorOf(() => parseFiles("/spec/a.xsd", files))).toBe("/spec/a.xsd:2:1: imported schema 'b.xsd' has targetNamespace 'urn:y', expected 'urn:x'");
  });

  it("malformed XML in an imported file is reported in that file", () => {
    const files = { "/spec/a.xsd": schema(`<xsd:include schemaLocation="b.xsd"/>`), "/spec/b.xsd": `<xsd:schema xmlns:xsd="${XSD}">\n  <oops></xsd:schema>` };
    expect(errorOf(() => parseFiles("/spec/a.xsd", files))).toBe("/spec/b.xsd:2:9: end tag </xsd:schema> does not match <oops> (opened at line 2, column 3)");
  });
});
