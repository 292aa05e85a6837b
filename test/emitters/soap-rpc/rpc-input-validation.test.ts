/**
 * rpc-style inputs go through the XSD validators as document/literal inputs do: a part of a named type with a facet
 * the decoder does not check (a range, a pattern) is refused with a Client fault naming the part, before the handler
 * runs; a valid request reaches it. Both a one-part and a two-part message, rpc/encoded and rpc/literal.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memorySpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";
import type { HttpHandler } from "../../../src/runtime/index.js";

const WSDL = `<?xml version="1.0"?>
<wsdl:definitions targetNamespace="urn:shop" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:shop">
  <wsdl:types>
    <xsd:schema targetNamespace="urn:shop">
      <xsd:simpleType name="Quantity"><xsd:restriction base="xsd:int"><xsd:minInclusive value="1"/><xsd:maxInclusive value="10"/></xsd:restriction></xsd:simpleType>
      <xsd:simpleType name="Sku"><xsd:restriction base="xsd:string"><xsd:pattern value="[A-Z]{3}-[0-9]{4}"/></xsd:restriction></xsd:simpleType>
    </xsd:schema>
  </wsdl:types>
  <wsdl:message name="orderIn"><wsdl:part name="sku" type="tns:Sku"/><wsdl:part name="quantity" type="tns:Quantity"/><wsdl:part name="note" type="xsd:string"/></wsdl:message>
  <wsdl:message name="orderOut"><wsdl:part name="id" type="xsd:string"/></wsdl:message>
  <wsdl:message name="checkIn"><wsdl:part name="sku" type="tns:Sku"/></wsdl:message>
  <wsdl:portType name="Shop">
    <wsdl:operation name="order"><wsdl:input message="tns:orderIn"/><wsdl:output message="tns:orderOut"/></wsdl:operation>
    <wsdl:operation name="check"><wsdl:input message="tns:checkIn"/><wsdl:output message="tns:orderOut"/></wsdl:operation>
  </wsdl:portType>
  <wsdl:binding name="ShopBinding" type="tns:Shop">
    <soap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="order">
      <soap:operation soapAction="urn:shop#order"/>
      <wsdl:input><soap:body use="encoded" namespace="urn:shop" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></wsdl:input>
      <wsdl:output><soap:body use="encoded" namespace="urn:shop" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></wsdl:output>
    </wsdl:operation>
    <wsdl:operation name="check">
      <soap:operation soapAction="urn:shop#check"/>
      <wsdl:input><soap:body use="literal" namespace="urn:shop"/></wsdl:input>
      <wsdl:output><soap:body use="literal" namespace="urn:shop"/></wsdl:output>
    </wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="ShopService"><wsdl:port name="p" binding="tns:ShopBinding"><soap:address location="http://127.0.0.1/shop"/></wsdl:port></wsdl:service>
</wsdl:definitions>`;

const out = mkdtempSync(path.join(os.tmpdir(), "specforge-rpc-validate-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

let handler: HttpHandler;
const received: unknown[] = [];

beforeAll(async () => {
  const spec = generateSpec({ file: "/spec/shop.wsdl", display: "shop.wsdl" }, memorySpecHost({ "/spec/shop.wsdl": WSDL }));
  for (const f of spec.files) {
    mkdirSync(path.dirname(path.join(out, f.path)), { recursive: true });
    writeFileSync(path.join(out, f.path), f.content);
  }
  const server = (await import(pathToFileURL(path.join(out, spec.dir, "server.ts")).href)) as Record<string, (h: object) => HttpHandler>;
  handler = server.createShopServiceServer!({
    order: (input: unknown) => (received.push(input), "o-1"),
    check: (input: unknown) => (received.push(input), "c-1"),
  });
}, 60_000);

function call(action: string, body: string): Promise<Response> {
  const envelope = `<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:s="urn:shop" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body>${body}</soap:Body></soap:Envelope>`;
  return handler(new Request("http://127.0.0.1/shop", { method: "POST", headers: { "content-type": "text/xml", soapaction: `"${action}"` }, body: envelope }));
}

const order = (sku: string, quantity: string) =>
  call("urn:shop#order", `<s:order><sku xsi:type="s:Sku">${sku}</sku><quantity xsi:type="s:Quantity">${quantity}</quantity><note xsi:type="xsd:string">n</note></s:order>`);

describe("rpc inputs are validated", () => {
  it("a valid multi-part request reaches the handler", async () => {
    received.length = 0;
    const r = await order("ABC-1234", "3");
    expect(r.status).toBe(200);
    expect(received).toEqual([{ sku: "ABC-1234", quantity: 3, note: "n" }]);
  });

  it("a part outside its type's facets is a Client fault naming the part; the handler does not run", async () => {
    received.length = 0;
    const r = await order("abc", "11");
    expect(r.status).toBe(500);
    const text = await r.text();
    expect(text).toMatch(/faultcode[^>]*>[^<]*Client</);
    expect(text).toContain("/sku:");
    expect(text).toContain("/quantity:");
    expect(received).toEqual([]);
  });

  it("a one-part rpc/literal message is checked as the part itself", async () => {
    received.length = 0;
    expect((await call("urn:shop#check", "<s:check><sku>XYZ-0001</sku></s:check>")).status).toBe(200);
    const bad = await call("urn:shop#check", "<s:check><sku>nope</sku></s:check>");
    expect(bad.status).toBe(500);
    expect(await bad.text()).toMatch(/invalid request: \/: /);
    expect(received).toEqual(["XYZ-0001"]);
  });
});
