import { describe, expect, it } from "vitest";
import type { SoapService } from "../../../src/ir/model.js";
import { errorOf, parseFiles } from "../xsd/util.js";

const HEAD = `<wsdl:definitions name="Demo" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" xmlns:http="http://schemas.xmlsoap.org/wsdl/http/"
  xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:w" targetNamespace="urn:w">`;
const TYPES = `<wsdl:types><xsd:schema targetNamespace="urn:w" elementFormDefault="qualified">
  <xsd:element name="login"><xsd:complexType><xsd:sequence><xsd:element name="user" type="xsd:string"/></xsd:sequence></xsd:complexType></xsd:element>
  <xsd:element name="loginResponse"><xsd:complexType/></xsd:element>
  <xsd:element name="Session"><xsd:complexType/></xsd:element>
  <xsd:element name="Fault"><xsd:complexType/></xsd:element>
</xsd:schema></wsdl:types>`;
const MESSAGES = `
  <wsdl:message name="loginRequest"><wsdl:part name="parameters" element="tns:login"/></wsdl:message>
  <wsdl:message name="loginResponse"><wsdl:part name="parameters" element="tns:loginResponse"/></wsdl:message>
  <wsdl:message name="Header"><wsdl:part name="Session" element="tns:Session"/></wsdl:message>
  <wsdl:message name="Fault"><wsdl:part name="fault" element="tns:Fault"/></wsdl:message>`;
const PORT_TYPE = `
  <wsdl:portType name="DemoPort"><wsdl:documentation>The port.</wsdl:documentation>
    <wsdl:operation name="login"><wsdl:documentation>Logs in.</wsdl:documentation>
      <wsdl:input message="tns:loginRequest"/><wsdl:output message="tns:loginResponse"/><wsdl:fault name="Boom" message="tns:Fault"/>
    </wsdl:operation>
  </wsdl:portType>`;
const BINDINGS = `
  <wsdl:binding name="DemoSoap" type="tns:DemoPort"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="login"><soap:operation soapAction="urn:login"/>
      <wsdl:input><soap:header message="tns:Header" part="Session" use="literal"/><soap:body use="literal" parts="parameters"/></wsdl:input>
      <wsdl:output><soap:body use="literal"/></wsdl:output>
      <wsdl:fault name="Boom"><soap:fault name="Boom" use="literal"/></wsdl:fault>
    </wsdl:operation>
  </wsdl:binding>
  <wsdl:binding name="DemoSoap12" type="tns:DemoPort"><soap12:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="login"><soap12:operation soapAction="urn:login12" style="document"/>
      <wsdl:input><soap12:body use="literal"/></wsdl:input><wsdl:output><soap12:body use="literal"/></wsdl:output>
    </wsdl:operation>
  </wsdl:binding>
  <wsdl:binding name="DemoHttp" type="tns:DemoPort"><http:binding verb="GET"/>
    <wsdl:operation name="login"><http:operation location="/login"/></wsdl:operation>
  </wsdl:binding>`;
const SERVICE = `
  <wsdl:service name="DemoService">
    <wsdl:port name="DemoSoap" binding="tns:DemoSoap"><soap:address location="https://example.com/soap"/></wsdl:port>
    <wsdl:port name="DemoSoap12" binding="tns:DemoSoap12"><soap12:address location="https://example.com/soap12"/></wsdl:port>
    <wsdl:port name="DemoHttp" binding="tns:DemoHttp"><http:address location="https://example.com/http"/></wsdl:port>
  </wsdl:service>`;

const doc = (...parts: string[]) => `${HEAD}\n<wsdl:documentation>Demo API</wsdl:documentation>\n${parts.join("\n")}\n</wsdl:definitions>`;
const parse = (text: string, extra: Record<string, string> = {}) => parseFiles("/spec/demo.wsdl", { "/spec/demo.wsdl": text, ...extra });

describe("WSDL 1.1", () => {
  const ir = parse(doc(TYPES, MESSAGES, PORT_TYPE, BINDINGS, SERVICE));
  const svc = ir.services[0] as SoapService;

  it("document information and schema content", () => {
    expect(ir).toMatchObject({ format: "wsdl", entry: "demo.wsdl", files: ["demo.wsdl"], info: { title: "Demo", doc: "Demo API", namespaces: ["urn:w"] } });
    expect(ir.elements.map((e) => e.name.local)).toEqual(["login", "loginResponse", "Session", "Fault"]);
    expect(ir.services).toHaveLength(1);
  });

  it("one SoapService per portType, named after the wsdl:service, with operations, messages and faults", () => {
    expect(svc).toMatchObject({ kind: "soap", name: "DemoService", targetNamespace: "urn:w", doc: "The port." });
    expect(svc.origin).toMatchObject({ pointer: "/wsdl:definitions[@name='Demo']/wsdl:portType[@name='DemoPort']", construct: "wsdl portType {urn:w}DemoPort" });
    expect(svc.operations).toEqual([
      expect.objectContaining({
        name: "login",
        doc: "Logs in.",
        input: { name: { ns: "urn:w", local: "loginRequest" }, parts: [{ name: "parameters", element: "xsd-element:{urn:w}login" }] },
        output: { name: { ns: "urn:w", local: "loginResponse" }, parts: [{ name: "parameters", element: "xsd-element:{urn:w}loginResponse" }] },
        faults: [{ name: "Boom", message: { name: { ns: "urn:w", local: "Fault" }, parts: [{ name: "fault", element: "xsd-element:{urn:w}Fault" }] } }],
      }),
    ]);
  });

  it("SOAP 1.1 and 1.2 bindings (http bindings skipped) with action, style, wrapped, body, headers and faults", () => {
    expect(svc.bindings.map((b) => [b.name.local, b.version, b.style])).toEqual([
      ["DemoSoap", "1.1", "document"],
      ["DemoSoap12", "1.2", "rpc"],
    ]);
    expect(svc.bindings[0]).toMatchObject({ transport: "http://schemas.xmlsoap.org/soap/http" });
    expect(svc.bindings[0]!.operations[0]).toEqual({
      name: "login",
      origin: expect.objectContaining({ line: 24, column: 5, construct: "wsdl binding operation login of {urn:w}DemoSoap" }),
      action: "urn:login",
      style: "document",
      wrapped: true,
      input: {
        use: "literal",
        parts: ["parameters"],
        headers: [{ message: { name: { ns: "urn:w", local: "Header" }, parts: [{ name: "Session", element: "xsd-element:{urn:w}Session" }] }, part: "Session", use: "literal" }],
      },
      output: { use: "literal", headers: [] },
      faults: [{ name: "Boom", use: "literal" }],
    });
    // Per-operation style overrides the binding's.
    expect(svc.bindings[1]!.operations[0]).toMatchObject({ action: "urn:login12", style: "document", wrapped: true });
  });

  it("ports with their SOAP addresses", () => {
    expect(svc.ports).toEqual([
      { name: "DemoSoap", binding: { ns: "urn:w", local: "DemoSoap" }, address: "https://example.com/soap" },
      { name: "DemoSoap12", binding: { ns: "urn:w", local: "DemoSoap12" }, address: "https://example.com/soap12" },
    ]);
  });

  it("rpc/encoded: type parts, body namespace; no wsdl:service -> named after the portType", () => {
    const rpc = parse(`${HEAD}
      <wsdl:message name="AddIn"><wsdl:part name="a" type="xsd:int"/><wsdl:part name="b" type="xsd:int"/></wsdl:message>
      <wsdl:message name="AddOut"><wsdl:part name="sum" type="xsd:long"/></wsdl:message>
      <wsdl:portType name="Calc"><wsdl:operation name="Add"><wsdl:input message="tns:AddIn"/><wsdl:output message="tns:AddOut"/></wsdl:operation></wsdl:portType>
      <wsdl:binding name="CalcB" type="tns:Calc"><soap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>
        <wsdl:operation name="Add"><soap:operation soapAction=""/>
          <wsdl:input><soap:body use="encoded" namespace="urn:calc" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></wsdl:input>
          <wsdl:output><soap:body use="encoded" namespace="urn:calc"/></wsdl:output>
        </wsdl:operation></wsdl:binding>
    </wsdl:definitions>`);
    const s = rpc.services[0] as SoapService;
    expect(s.name).toBe("Calc");
    expect(s.operations[0]!.input!.parts).toEqual([
      { name: "a", type: { kind: "scalar", scalar: "int32", builtin: "xsd:int" } },
      { name: "b", type: { kind: "scalar", scalar: "int32", builtin: "xsd:int" } },
    ]);
    expect(s.bindings[0]!.operations[0]).toMatchObject({ style: "rpc", wrapped: false, action: "", input: { use: "encoded", namespace: "urn:calc" } });
  });

  it("wsdl:import of another WSDL by relative location", () => {
    const main = `${HEAD}<wsdl:import namespace="urn:w" location="parts/abstract.wsdl"/>${BINDINGS}${SERVICE}</wsdl:definitions>`;
    const abstract = `${HEAD}${TYPES}${MESSAGES}${PORT_TYPE}</wsdl:definitions>`;
    const imp = parse(main, { "/spec/parts/abstract.wsdl": abstract });
    expect(imp.files).toEqual(["demo.wsdl", "parts/abstract.wsdl"]);
    expect((imp.services[0] as SoapService).operations.map((o) => o.name)).toEqual(["login"]);
    expect(imp.types[0]!.origin.file).toBe("parts/abstract.wsdl");
  });

  it("a standalone .xsd entry has format xsd and no services", () => {
    const x = parseFiles("/spec/a.xsd", { "/spec/a.xsd": `<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema"><xsd:element name="e" type="xsd:string"/></xsd:schema>` });
    expect(x).toMatchObject({ format: "xsd", services: [], elements: [{ id: "xsd-element:{}e" }] });
  });
});

describe("WSDL errors", () => {
  const cases: [string, string, string][] = [
    [
      "unknown part element",
      doc(TYPES, `<wsdl:message name="m"><wsdl:part name="p" element="tns:nope"/></wsdl:message>`, `<wsdl:portType name="P"><wsdl:operation name="o"><wsdl:input message="tns:m"/></wsdl:operation></wsdl:portType>`),
      "/spec/demo.wsdl:11:24: unknown element 'tns:nope' ({urn:w}nope)",
    ],
    [
      "unknown part type",
      doc(`<wsdl:message name="m"><wsdl:part name="p" type="tns:Nope"/></wsdl:message>`, `<wsdl:portType name="P"><wsdl:operation name="o"><wsdl:input message="tns:m"/></wsdl:operation></wsdl:portType>`),
      "/spec/demo.wsdl:5:24: unknown type 'tns:Nope' ({urn:w}Nope)",
    ],
    ["unknown portType", doc(`<wsdl:binding name="B" type="tns:Nope"><soap:binding/></wsdl:binding>`), "/spec/demo.wsdl:5:1: unknown portType 'tns:Nope' ({urn:w}Nope)"],
    ["unknown message", doc(`<wsdl:portType name="P"><wsdl:operation name="o">\n<wsdl:input message="tns:m"/></wsdl:operation></wsdl:portType>`), "/spec/demo.wsdl:6:1: unknown message 'tns:m' ({urn:w}m)"],
    [
      "binding operation not in portType",
      doc(TYPES, MESSAGES, PORT_TYPE, `<wsdl:binding name="B" type="tns:DemoPort"><soap:binding/><wsdl:operation name="logout"/></wsdl:binding>`),
      "/spec/demo.wsdl:22:59: binding operation 'logout' is not in portType tns:DemoPort",
    ],
    [
      "header part missing",
      doc(TYPES, MESSAGES, PORT_TYPE, `<wsdl:binding name="B" type="tns:DemoPort"><soap:binding/><wsdl:operation name="login"><wsdl:input><soap:header message="tns:Header" part="Nope" use="literal"/></wsdl:input></wsdl:operation></wsdl:binding>`),
      "/spec/demo.wsdl:22:100: message {urn:w}Header has no part 'Nope'",
    ],
    ["unknown binding in port", doc(`<wsdl:service name="S"><wsdl:port name="p" binding="tns:B"/></wsdl:service>`), "/spec/demo.wsdl:5:24: unknown binding 'tns:B' ({urn:w}B)"],
    ["WSDL 2.0", `<description xmlns="http://www.w3.org/ns/wsdl"/>`, "/spec/demo.wsdl:1:1: WSDL 2.0 is not supported (only WSDL 1.1)"],
    ["remote wsdl:import", doc(`<wsdl:import namespace="urn:x" location="https://example.com/x.wsdl"/>`), `/spec/demo.wsdl:5:1: WSDL import 'https://example.com/x.wsdl' is remote and specforge never fetches: map it to a local copy with an XML catalog (--catalog <file>, or "catalog" in specforge.config.json), e.g. <uri name="https://example.com/x.wsdl" uri="local/copy.xsd"/>`],
  ];
  it.each(cases)("%s", (_, text, message) => {
    expect(errorOf(() => parse(text))).toBe(message);
  });
});
