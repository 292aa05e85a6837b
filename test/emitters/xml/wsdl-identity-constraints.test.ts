/**
 * XSD identity constraints (xs:unique, xs:key, xs:keyref) of the schemas a WSDL embeds or imports are checked on
 * decode as a plain .xsd's are (issue 27: the WSDL parser did not collect them, so xml.ts had no identity table and
 * a document breaking a key decoded silently). A small WSDL with an embedded schema, and CyberSource's WSDL (its
 * imported schema declares xs:unique on requestMessage and replyMessage); xmllint judges the same documents.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadInMemory } from "../../../conformance/xsd/load-in-memory.js";
import { memorySpecHost, nodeSpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";
import * as runtime from "../../../src/runtime/index.js";
import { SHARED } from "../../helpers/seeds.js";
import { typecheckFiles } from "../../helpers/typecheck.js";
import { xmllintValidate } from "./helpers/xmllint.js";

const SCHEMA = `<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:s="urn:shop" targetNamespace="urn:shop" elementFormDefault="qualified">
      <xsd:element name="shop">
        <xsd:complexType>
          <xsd:sequence>
            <xsd:element name="product" maxOccurs="unbounded">
              <xsd:complexType><xsd:sequence><xsd:element name="name" type="xsd:string"/></xsd:sequence><xsd:attribute name="id" type="xsd:int"/></xsd:complexType>
            </xsd:element>
            <xsd:element name="order" minOccurs="0" maxOccurs="unbounded">
              <xsd:complexType><xsd:attribute name="product" type="xsd:int" use="required"/></xsd:complexType>
            </xsd:element>
          </xsd:sequence>
        </xsd:complexType>
        <xsd:key name="productId"><xsd:selector xpath="s:product"/><xsd:field xpath="@id"/></xsd:key>
        <xsd:unique name="productName"><xsd:selector xpath="s:product"/><xsd:field xpath="s:name"/></xsd:unique>
        <xsd:keyref name="orderedProduct" refer="s:productId"><xsd:selector xpath="s:order"/><xsd:field xpath="@product"/></xsd:keyref>
      </xsd:element>
      <xsd:element name="shopResponse" type="xsd:string"/>
    </xsd:schema>`;

const WSDL = `<?xml version="1.0" encoding="UTF-8"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:s="urn:shop" targetNamespace="urn:shop">
  <wsdl:types>
    ${SCHEMA}
  </wsdl:types>
  <wsdl:message name="in"><wsdl:part name="body" element="s:shop"/></wsdl:message>
  <wsdl:message name="out"><wsdl:part name="body" element="s:shopResponse"/></wsdl:message>
  <wsdl:portType name="Shop"><wsdl:operation name="put"><wsdl:input message="s:in"/><wsdl:output message="s:out"/></wsdl:operation></wsdl:portType>
  <wsdl:binding name="ShopSoap" type="s:Shop">
    <soap:binding transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="put"><soap:operation soapAction="put"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="ShopService"><wsdl:port name="p" binding="s:ShopSoap"><soap:address location="http://localhost/shop"/></wsdl:port></wsdl:service>
</wsdl:definitions>`;

const shop = (body: string) => `<shop xmlns="urn:shop">${body}</shop>`;
const product = (id: string, name: string) => `<product${id === "" ? "" : ` id="${id}"`}><name>${name}</name></product>`;
const VALID = [shop(product("1", "a") + product("2", "b")), shop(product("1", "a") + product("02", "b") + `<order product="2"/>`)];
const INVALID: [string, RegExp][] = [
  [shop(product("1", "a") + product("+1", "b")), /xsd:key \{urn:shop\}productId: duplicate value "1"/],
  [shop(product("", "a")), /xsd:key \{urn:shop\}productId: <product> lacks a key field/],
  [shop(product("1", "a") + product("2", "a")), /xsd:unique \{urn:shop\}productName: duplicate value "a"/],
  [shop(product("1", "a") + `<order product="3"/>`), /xsd:keyref \{urn:shop\}orderedProduct: no \{urn:shop\}productId has the value "3"/],
];

function generate(file: string, host = nodeSpecHost()) {
  const out = generateSpec({ file, display: path.basename(file), outDir: "out" }, host);
  const ts = out.files.filter((f) => f.path.endsWith(".ts"));
  return {
    out,
    files: new Map(ts.map((f) => [path.posix.relative(out.dir, f.path), f.content] as const)),
    load: () => loadInMemory(ts, out.dir, "specforge/runtime", runtime),
  };
}

describe("identity constraints of a WSDL's schemas", () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "wsdl-idc-"));
  const schemaFile = path.join(tmp, "shop.xsd");
  writeFileSync(schemaFile, SCHEMA);

  it("an embedded schema's key, unique and keyref are listed in xml.ts; the files type-check strict", () => {
    const { out, files } = generate("/spec/shop.wsdl", memorySpecHost({ "/spec/shop.wsdl": WSDL }));
    expect(out.doc.identityConstraints?.map((c) => `${c.kind} ${c.name.local} on ${c.element.local} at ${c.origin.line}`)).toEqual([
      "key productId on shop at 17",
      "unique productName on shop at 18",
      "keyref orderedProduct on shop at 19",
    ]);
    const xml = files.get("xml.ts")!;
    expect(xml).toContain(`["urn:shop", "shop", "keyref", "{urn:shop}orderedProduct", "{urn:shop}productId", [["{urn:shop}order"]], [[["@{}product"]]]],`);
    expect(xml).toContain("documentCheck: checkXmlDocument,");
    expect(typecheckFiles(files)).toEqual([]);
  });

  it("decoding accepts what xmllint accepts and rejects what it rejects, naming the constraint", () => {
    const { load } = generate("/spec/shop.wsdl", memorySpecHost({ "/spec/shop.wsdl": WSDL }));
    const decode = load().decodeShopElement as (xml: string) => unknown;
    expect(xmllintValidate(schemaFile, VALID)).toEqual([]);
    for (const d of VALID) expect(() => decode(d)).not.toThrow();
    expect(xmllintValidate(schemaFile, INVALID.map(([d]) => d)).length).toBe(INVALID.length);
    for (const [d, message] of INVALID) expect(() => decode(d)).toThrow(message);
  });

  it("CyberSource: the imported schema's xs:unique on item ids is checked on requestMessage and replyMessage", () => {
    const dir = path.join(SHARED, "corpus/wsdl/cybersource");
    const { out, load } = generate(path.join(dir, "CyberSourceTransaction_1.26.wsdl"));
    expect(out.doc.identityConstraints?.map((c) => `${c.kind} ${c.name.local} on ${c.element.local}`)).toEqual([
      "unique unique-item-id on requestMessage",
      "unique unique-tax-item-id on replyMessage",
    ]);
    const ns = "urn:schemas-cybersource-com:transaction-data-1.26";
    const request = (ids: string[]) => `<requestMessage xmlns="${ns}"><merchantID>m</merchantID>${ids.map((id) => `<item id="${id}"><productName>p</productName></item>`).join("")}</requestMessage>`;
    const reply = `<replyMessage xmlns="${ns}"><merchantReferenceCode>r</merchantReferenceCode><requestID>1</requestID><decision>ACCEPT</decision><reasonCode>100</reasonCode><requestToken>t</requestToken></replyMessage>`;
    const valid = [request(["0", "1", "2"]), request([]), reply];
    // 1 and 01 are one xsd:integer: the unique compares values, as libxml2 does.
    const invalid = [request(["0", "1", "01"])];
    const xsd = path.join(dir, "CyberSourceTransaction_1.26.xsd");
    expect(xmllintValidate(xsd, valid)).toEqual([]);
    expect(xmllintValidate(xsd, invalid).length).toBe(invalid.length);
    const xml = load() as Record<string, (x: string) => unknown>;
    for (const d of valid) expect(() => (d.startsWith("<reply") ? xml.decodeReplyMessageElement! : xml.decodeRequestMessageElement!)(d)).not.toThrow();
    expect(() => xml.decodeRequestMessageElement!(invalid[0]!)).toThrow(/xsd:unique \{urn:schemas-cybersource-com:transaction-data-1\.26\}unique-item-id: duplicate value "1"/);
  }, 60_000);
});
