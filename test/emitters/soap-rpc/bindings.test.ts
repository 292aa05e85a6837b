import { describe, expect, it } from "vitest";
import { ARTIFACTS } from "../../../src/emitters/index.js";
import { emitSoapClient } from "../../../src/emitters/soap-client/emit-client.js";
import { emitSoapServer } from "../../../src/emitters/soap-server/emit-server.js";
import type { Origin } from "../../../src/ir/model.js";
import { assignNames } from "../../../src/naming/assign-names.js";
import { memorySpecHost } from "../../../src/parsers/host.js";
import { loadSpec } from "../../../src/pipeline/load-spec.js";
import { typecheckFiles } from "../../helpers/typecheck.js";

/**
 * Which operations get a method: rpc/literal with several parts, a one-way document operation, a header part in
 * the body's own message (not a body part), and what cannot be served (document/encoded, rpc with element= parts):
 * a located warning each and a comment in client.ts, which exists even for a service left without any method.
 */
const WSDL = `<?xml version="1.0"?>
<wsdl:definitions targetNamespace="urn:t" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:t">
  <wsdl:types>
    <xsd:schema targetNamespace="urn:t" elementFormDefault="qualified">
      <xsd:element name="ping"><xsd:complexType><xsd:sequence><xsd:element name="n" type="xsd:int"/></xsd:sequence></xsd:complexType></xsd:element>
      <xsd:element name="Auth"><xsd:complexType><xsd:sequence><xsd:element name="token" type="xsd:string"/></xsd:sequence></xsd:complexType></xsd:element>
    </xsd:schema>
  </wsdl:types>
  <wsdl:message name="pingIn"><wsdl:part name="body" element="tns:ping"/><wsdl:part name="auth" element="tns:Auth"/></wsdl:message>
  <wsdl:message name="addIn"><wsdl:part name="a" type="xsd:int"/><wsdl:part name="b" type="xsd:int"/></wsdl:message>
  <wsdl:message name="addOut"><wsdl:part name="sum" type="xsd:long"/></wsdl:message>
  <wsdl:message name="elIn"><wsdl:part name="p" element="tns:ping"/></wsdl:message>
  <wsdl:portType name="Calc">
    <wsdl:operation name="ping"><wsdl:input message="tns:pingIn"/></wsdl:operation>
    <wsdl:operation name="add"><wsdl:input message="tns:addIn"/><wsdl:output message="tns:addOut"/></wsdl:operation>
    <wsdl:operation name="legacy"><wsdl:input message="tns:addIn"/><wsdl:output message="tns:addOut"/></wsdl:operation>
  </wsdl:portType>
  <wsdl:portType name="Odd">
    <wsdl:operation name="byElement"><wsdl:input message="tns:elIn"/></wsdl:operation>
  </wsdl:portType>
  <wsdl:binding name="CalcBinding" type="tns:Calc">
    <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="ping">
      <wsdl:input><soap:body use="literal"/><soap:header message="tns:pingIn" part="auth" use="literal"/></wsdl:input>
    </wsdl:operation>
    <wsdl:operation name="add">
      <soap:operation style="rpc" soapAction="urn:t#add"/>
      <wsdl:input><soap:body use="literal" namespace="urn:calc"/></wsdl:input>
      <wsdl:output><soap:body use="literal" namespace="urn:calc"/></wsdl:output>
    </wsdl:operation>
    <wsdl:operation name="legacy">
      <wsdl:input><soap:body use="encoded" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></wsdl:input>
      <wsdl:output><soap:body use="encoded" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></wsdl:output>
    </wsdl:operation>
  </wsdl:binding>
  <wsdl:binding name="OddBinding" type="tns:Odd">
    <soap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="byElement"><wsdl:input><soap:body use="literal"/></wsdl:input></wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="CalcService"><wsdl:port name="p" binding="tns:CalcBinding"><soap:address location="http://127.0.0.1/calc"/></wsdl:port></wsdl:service>
  <wsdl:service name="OddService"><wsdl:port name="p" binding="tns:OddBinding"><soap:address location="http://127.0.0.1/odd"/></wsdl:port></wsdl:service>
</wsdl:definitions>`;

const doc = loadSpec("/spec/calc.wsdl", memorySpecHost({ "/spec/calc.wsdl": WSDL }));
const warnings: string[] = [];
const warn = (o: Origin, detail: string) => warnings.push(`${o.file}:${o.line}:${o.column}: ${detail}`);
const ctx = { doc, names: assignNames(doc), dir: "calc", source: "calc.wsdl", int64: "bigint" as const, runtimeModule: "specforge/runtime", warn };

describe("SOAP bindings the generated client and server take", () => {
  it("warns at the binding operation for each operation left out, and says so in client.ts", () => {
    warnings.length = 0;
    const client = emitSoapClient(ctx).render();
    expect(warnings).toEqual([
      'calc.wsdl:32:5: no client or server method for SOAP operation legacy: document style with use="encoded" is not supported',
      "calc.wsdl:39:5: no client or server method for SOAP operation byElement: input: part p is an element (rpc style needs type= parts)",
    ]);
    expect(client).toContain(' * Not generated: legacy (document style with use="encoded" is not supported).');
    expect(client).toContain(" * No client for OddService (SOAP 1.1, binding OddBinding): none of its operations can be generated.");
    expect(client).toContain(" * Not generated: byElement (input: part p is an element (rpc style needs type= parts)).");
    expect(client).not.toContain("createOddServiceClient");
  });

  it("rpc/literal: a wrapper in the soap:body namespace, parts by name; one-way: no output decoder", () => {
    const client = emitSoapClient(ctx).render();
    expect(client).toContain('      ns: "urn:calc",\n      local: "add",\n      single: false,');
    expect(client).toContain('      ns: "urn:calc",\n      local: "addResponse",\n      single: true,');
    expect(client).toContain('soapRpcPart("a", xmlPartTypes, "{http://www.w3.org/2001/XMLSchema}int"),');
    expect(client).toContain('soapRpcPart("sum", xmlPartTypes, "{http://www.w3.org/2001/XMLSchema}long"),');
    const ping = client.slice(client.indexOf("    ping: "), client.indexOf("    add: "));
    expect(ping).toContain("encodeInput: encodePingElement,");
    expect(ping).not.toMatch(/decode(Rpc)?Output|outputElement/);
    const server = emitSoapServer(ctx, { validate: true }).render();
    expect(server).toContain('      inputElement: "{urn:calc}add",');
    expect(server).toContain("      rpc: true,");
    expect(server).toContain("  ): Promise<void> | void;");
  });

  it("types: a header part is not a body part; several rpc parts are an object", () => {
    const files = new Map<string, string>();
    for (const a of ARTIFACTS.filter((x) => x.applies(doc))) for (const f of a.emit(ctx)) files.set(f.path, f.render());
    const types = files.get("calc/types.ts")!;
    expect(types).toMatch(/ping: \{\n\s+input: Ping;\n\s+output: undefined;\n\s+requestHeaders: \{ Auth\?: Auth \};/);
    expect(types).toMatch(/add: \{\n\s+input: \{ a: number; b: number \};\n\s+output: bigint;/);
    files.set("calc/index.ts", [...files.keys()].map((p) => `export * from "./${p.slice("calc/".length).replace(/\.ts$/, ".js")}";`).join("\n"));
    expect(typecheckFiles(files)).toEqual([]);
  });
});
