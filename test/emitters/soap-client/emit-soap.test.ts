import { describe, expect, it } from "vitest";
import { ARTIFACTS } from "../../../src/emitters/index.js";
import { emitSoapClient } from "../../../src/emitters/soap-client/emit-client.js";
import { emitSoapServer } from "../../../src/emitters/soap-server/emit-server.js";
import { assignNames } from "../../../src/naming/assign-names.js";
import { memorySpecHost } from "../../../src/parsers/host.js";
import { loadSpec } from "../../../src/pipeline/load-spec.js";
import { typecheckFiles } from "../../helpers/typecheck.js";

/** Given a small WSDL, want the client and server text (and strict-clean output together with the other artifacts). */
const WSDL = `<?xml version="1.0"?>
<wsdl:definitions targetNamespace="urn:t" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:t">
  <wsdl:types>
    <xsd:schema targetNamespace="urn:t" elementFormDefault="qualified">
      <xsd:element name="echo"><xsd:complexType><xsd:sequence><xsd:element name="text" type="xsd:string"/></xsd:sequence></xsd:complexType></xsd:element>
      <xsd:element name="echoResponse"><xsd:complexType><xsd:sequence><xsd:element name="text" type="xsd:string"/></xsd:sequence></xsd:complexType></xsd:element>
      <xsd:element name="Auth"><xsd:complexType><xsd:sequence><xsd:element name="token" type="xsd:string"/></xsd:sequence></xsd:complexType></xsd:element>
      <xsd:element name="Oops"><xsd:complexType><xsd:sequence><xsd:element name="why" type="xsd:string"/></xsd:sequence></xsd:complexType></xsd:element>
    </xsd:schema>
  </wsdl:types>
  <wsdl:message name="echoIn"><wsdl:part name="parameters" element="tns:echo"/></wsdl:message>
  <wsdl:message name="echoOut"><wsdl:part name="parameters" element="tns:echoResponse"/></wsdl:message>
  <wsdl:message name="auth"><wsdl:part name="Auth" element="tns:Auth"/></wsdl:message>
  <wsdl:message name="oops"><wsdl:part name="fault" element="tns:Oops"/></wsdl:message>
  <wsdl:message name="rpcIn"><wsdl:part name="a" type="xsd:string"/><wsdl:part name="b" type="xsd:string"/></wsdl:message>
  <wsdl:portType name="Echo">
    <wsdl:operation name="echo"><wsdl:documentation>Says it back.</wsdl:documentation><wsdl:input message="tns:echoIn"/><wsdl:output message="tns:echoOut"/><wsdl:fault name="Oops" message="tns:oops"/></wsdl:operation>
    <wsdl:operation name="twoParts"><wsdl:input message="tns:rpcIn"/><wsdl:output message="tns:echoOut"/></wsdl:operation>
  </wsdl:portType>
  <wsdl:binding name="EchoBinding" type="tns:Echo">
    <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="echo">
      <soap:operation soapAction="urn:t/echo"/>
      <wsdl:input><soap:body use="literal"/><soap:header message="tns:auth" part="Auth" use="literal"/></wsdl:input>
      <wsdl:output><soap:body use="literal"/></wsdl:output>
      <wsdl:fault name="Oops"><soap:fault name="Oops" use="literal"/></wsdl:fault>
    </wsdl:operation>
    <wsdl:operation name="twoParts">
      <soap:operation soapAction=""/>
      <wsdl:input><soap:body use="literal"/></wsdl:input>
      <wsdl:output><soap:body use="literal"/></wsdl:output>
    </wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="EchoService"><wsdl:port name="p" binding="tns:EchoBinding"><soap:address location="http://127.0.0.1/echo"/></wsdl:port></wsdl:service>
</wsdl:definitions>`;

const doc = loadSpec("/spec/echo.wsdl", memorySpecHost({ "/spec/echo.wsdl": WSDL }));
const ctx = { doc, names: assignNames(doc), dir: "echo", source: "echo.wsdl", int64: "bigint" as const, runtimeModule: "specforge/runtime" };

describe("SOAP client and server emitters", () => {
  it("client: a typed method per bound operation, binding tables, skipped operations explained", () => {
    const text = emitSoapClient(ctx).render();
    expect(text).toContain('import type { EchoServiceOperations } from "./types.js";');
    expect(text).toContain("export interface EchoServiceClient {");
    expect(text).toContain('    input: EchoServiceOperations["echo"]["input"],');
    expect(text).toContain(' * Not generated: twoParts (input: 2 body parts (exactly one element part is supported)).');
    expect(text).toContain("    Auth: encodeAuthElement,");
    expect(text).toContain('    "{urn:t}Oops": { name: "Oops", decode: decodeOopsElement },');
    expect(text).toContain('          action: "urn:t/echo",');
    expect(text).toContain('          outputElement: "{urn:t}echoResponse",');
    expect(text).not.toMatch(/twoParts: \(/);
  });

  it("server: handler interface, typed faults, descriptor with validation and headers", () => {
    const text = emitSoapServer(ctx, { validate: true }).render();
    expect(text).toContain("export interface EchoServiceHandlers {");
    expect(text).toContain('    ctx: SoapHandlerContext<EchoServiceOperations["echo"]["requestHeaders"], EchoServiceOperations["echo"]["responseHeaders"]>,');
    expect(text).toContain("export interface EchoServiceFaults {\n  Oops: Oops;\n}");
    expect(text).toContain("export function echoServiceFault<K extends keyof EchoServiceFaults>(");
    expect(text).toContain("      validateInput: validateEcho,");
    expect(text).toContain('        "{urn:t}Auth": { name: "Auth", decode: decodeAuthElement },');
    expect(text).toContain("export function createEchoServiceServer(");
    expect(emitSoapServer(ctx, { validate: false }).render()).not.toContain("validateInput");
  });

  it("the whole generated package type-checks under strict", () => {
    const files = new Map<string, string>();
    for (const a of ARTIFACTS.filter((x) => x.applies(doc))) for (const f of a.emit(ctx)) files.set(f.path, f.render());
    expect([...files.keys()]).toEqual(expect.arrayContaining(["echo/client.ts", "echo/server.ts", "echo/xml.ts"]));
    files.set("echo/index.ts", [...files.keys()].map((p) => `export * from "./${p.slice("echo/".length).replace(/\.ts$/, ".js")}";`).join("\n"));
    expect(typecheckFiles(files)).toEqual([]);
  });
});
