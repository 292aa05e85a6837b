import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { memorySpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";
import { typecheckFiles } from "../../helpers/typecheck.js";

/**
 * Type names outside ASCII (French, German, Greek) reach every generated file and are imported where they are used:
 * xml.ts used to find the names to import with an ASCII-only scan, so `Éléments` was printed but never imported.
 */
const WSDL = `<?xml version="1.0" encoding="UTF-8"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:catalogue" targetNamespace="urn:catalogue">
  <wsdl:types>
    <xs:schema targetNamespace="urn:catalogue" elementFormDefault="qualified">
      <xs:simpleType name="Größe">
        <xs:restriction base="xs:string"><xs:enumeration value="klein"/><xs:enumeration value="groß"/></xs:restriction>
      </xs:simpleType>
      <xs:simpleType name="Längen"><xs:list itemType="tns:Μήκος"/></xs:simpleType>
      <xs:simpleType name="Μήκος"><xs:restriction base="xs:int"><xs:minInclusive value="0"/></xs:restriction></xs:simpleType>
      <xs:complexType name="éléments">
        <xs:sequence>
          <xs:element name="nom" type="xs:string"/>
          <xs:element name="größe" type="tns:Größe" minOccurs="0"/>
          <xs:element name="μήκος" type="tns:Μήκος" minOccurs="0"/>
        </xs:sequence>
      </xs:complexType>
      <xs:element name="élément" type="tns:éléments"/>
      <xs:element name="größe" type="tns:Größe"/>
      <xs:element name="längen" type="tns:Längen"/>
      <xs:element name="μήκος" type="tns:Μήκος" nillable="true"/>
    </xs:schema>
  </wsdl:types>
  <wsdl:message name="demande"><wsdl:part name="p" element="tns:élément"/></wsdl:message>
  <wsdl:message name="réponse"><wsdl:part name="p" element="tns:größe"/></wsdl:message>
  <wsdl:portType name="Catalogue">
    <wsdl:operation name="récupérer"><wsdl:input message="tns:demande"/><wsdl:output message="tns:réponse"/></wsdl:operation>
  </wsdl:portType>
  <wsdl:binding name="CatalogueSoap" type="tns:Catalogue">
    <soap:binding transport="http://schemas.xmlsoap.org/soap/http" style="document"/>
    <wsdl:operation name="récupérer">
      <soap:operation soapAction="urn:récupérer"/>
      <wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output>
    </wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="CatalogueService">
    <wsdl:port name="CatalogueSoap" binding="tns:CatalogueSoap"><soap:address location="http://localhost/catalogue"/></wsdl:port>
  </wsdl:service>
</wsdl:definitions>`;

const out = mkdtempSync(path.join(os.tmpdir(), "specforge-non-ascii-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("type names outside ASCII", () => {
  const spec = generateSpec({ file: "/spec/catalogue.wsdl", display: "catalogue.wsdl" }, memorySpecHost({ "/spec/catalogue.wsdl": WSDL }));
  const file = (name: string) => spec.files.find((f) => f.path === `catalogue/${name}`)!.content;

  it("are imported by xml.ts where its signatures use them", () => {
    const importLine = file("xml.ts").split("\n").find((l) => l.includes('from "./types.js"'));
    expect(importLine).toBeDefined();
    for (const name of ["Éléments", "Größe", "Längen", "Μήκος"]) expect(importLine).toMatch(new RegExp(`[{ ,]${name}[ ,}]`, "u"));
  });

  it("type-check strict in every generated file", () => {
    const files = new Map(spec.files.filter((f) => f.path.endsWith(".ts")).map((f) => [f.path, f.content]));
    expect(files.size).toBeGreaterThan(3);
    expect(typecheckFiles(files)).toEqual([]);
  });

  it("encode and decode through the generated codecs", async () => {
    for (const f of spec.files) {
      mkdirSync(path.dirname(path.join(out, f.path)), { recursive: true });
      writeFileSync(path.join(out, f.path), f.content);
    }
    const xml = (await import(pathToFileURL(path.join(out, "catalogue/xml.ts")).href)) as Record<string, (v: unknown) => unknown>;
    const value = { nom: "Stuhl", größe: "groß", μήκος: 3 };
    const encoded = xml.encodeÉlémentElement!(value) as string;
    expect(encoded).toContain("<ns1:größe>groß</ns1:größe>");
    expect(xml.decodeÉlémentElement!(encoded)).toEqual(value);
    expect(xml.decodeLängenElement!(xml.encodeLängenElement!([1, 20]) as string)).toEqual([1, 20]);
  });
});
