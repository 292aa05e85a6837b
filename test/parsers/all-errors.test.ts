/**
 * Every recoverable error of a spec in one run: per format, a spec with independent mistakes reports each of them,
 * located and sorted by position (the mistakes are placed so that the order they are found in differs from their
 * order in the file), and the error limit stops a flood.
 */
import { describe, expect, it } from "vitest";
import { SpecErrors } from "../../src/errors.js";
import { Diagnostics, MAX_ERRORS_PER_SPEC } from "../../src/parsers/diagnostics.js";
import { memorySpecHost } from "../../src/parsers/host.js";
import { loadSpec } from "../../src/pipeline/load-spec.js";
import { SpecError } from "../../src/errors.js";

function errorsOf(file: string, text: string): string[] {
  try {
    loadSpec(file, memorySpecHost({ [file]: text }));
  } catch (e) {
    expect(e).toBeInstanceOf(SpecError);
    return (e as Error).message.split("\n");
  }
  throw new Error("expected errors");
}

const PROTO = `syntax = "proto3";
package demo;

message Order {
  string id = 1;
  Missing item = 2;
  int32 count = 1;
}

service Orders {
  rpc Get(Order) returns (Gone);
}

message Order {}
`;

const OPENAPI = `openapi: 3.0.3
info: {title: Demo, version: "1"}
paths:
  /a:
    get:
      operationId: same
      responses: {"200": {description: ok}}
  /b:
    get:
      operationId: same
      responses: {"200": {description: ok}}
  /c:
    get:
      responses:
        "200":
          description: ok
          content: {application/json: {schema: {$ref: "#/components/schemas/Gone"}}}
components:
  schemas:
    Pet:
      type: object
      properties:
        name: {type: strin}
        tag: {type: string}
`;

const WSDL = `<?xml version="1.0"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:demo" targetNamespace="urn:demo">
  <types>
    <xs:schema targetNamespace="urn:demo" elementFormDefault="qualified">
      <xs:element name="Get">
        <xs:complexType><xs:sequence><xs:element ref="tns:Identifier"/></xs:sequence></xs:complexType>
      </xs:element>
      <xs:element name="GetResponse" type="xs:string"/>
      <xs:element name="GetResponse" type="xs:int"/>
    </xs:schema>
  </types>
  <message name="GetIn"><part name="p" element="tns:Get"/></message>
  <message name="GetOut"><part name="p" element="tns:GetResponse"/></message>
  <portType name="Port">
    <operation name="Get"><input message="tns:GetIn"/><output message="tns:GetOutput"/></operation>
  </portType>
  <binding name="Bind" type="tns:Port">
    <soap:binding transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="Get"><soap:operation soapAction="get"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>
  </binding>
</definitions>
`;

const XSD = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:t" targetNamespace="urn:t">
  <xs:complexType name="A"><xs:sequence>
    <xs:element ref="tns:Nope"/>
    <xs:element name="y" type="xs:string" maxOccurs="many"/>
  </xs:sequence></xs:complexType>
  <xs:simpleType name="S"><xs:restriction base="tns:Unknown"/></xs:simpleType>
  <xs:complexType name="A"/>
</xs:schema>
`;

describe("every error of a spec at once", () => {
  it("proto: unknown types, a duplicate field number and a duplicate message, sorted", () => {
    expect(errorsOf("/spec/orders.proto", PROTO)).toEqual([
      '/spec/orders.proto:6:3: unknown type "Missing"',
      '/spec/orders.proto:7:17: field number 1 has already been used in "demo.Order" by field "id"',
      '/spec/orders.proto:11:27: unknown type "Gone"',
      '/spec/orders.proto:14:1: "Order" is already defined in "demo" (first defined at /spec/orders.proto:4:1)',
    ]);
  });

  it("OpenAPI: a duplicate operationId, an unknown $ref and a bad schema type, sorted", () => {
    expect(errorsOf("/spec/api.yaml", OPENAPI)).toEqual([
      '/spec/api.yaml:10:7: duplicate operationId "same" (also used by GET /a)',
      "/spec/api.yaml:17:49: unknown $ref target '#/components/schemas/Gone'",
      '/spec/api.yaml:23:16: unknown schema type "strin"',
    ]);
  });

  it("WSDL: an unknown element reference, a duplicate element and a missing message, sorted, without follow-on errors", () => {
    // The binding's operation Get is not also reported as missing from the portType (whose Get failed).
    expect(errorsOf("/spec/svc.wsdl", WSDL)).toEqual([
      "/spec/svc.wsdl:7:38: unknown element 'tns:Identifier' ({urn:demo}Identifier)",
      "/spec/svc.wsdl:10:7: duplicate element '{urn:demo}GetResponse' (first declared at /spec/svc.wsdl:9:7)",
      "/spec/svc.wsdl:16:55: unknown message 'tns:GetOutput' ({urn:demo}GetOutput)",
    ]);
  });

  it("XSD: two bad particles of one type, an unknown base and a duplicate type, sorted", () => {
    expect(errorsOf("/spec/t.xsd", XSD)).toEqual([
      "/spec/t.xsd:3:5: unknown element 'tns:Nope' ({urn:t}Nope)",
      "/spec/t.xsd:4:5: invalid maxOccurs 'many'",
      "/spec/t.xsd:6:27: unknown type 'tns:Unknown' ({urn:t}Unknown)",
      "/spec/t.xsd:7:3: duplicate type '{urn:t}A' (first declared at /spec/t.xsd:2:3)",
    ]);
  });

  it("a syntax error still ends the file, after the errors found before it", () => {
    expect(errorsOf("/spec/bad.proto", 'syntax = "proto3";\nmessage A {\n  string id = ;\n}\n')).toEqual([
      expect.stringMatching(/^\/spec\/bad\.proto:3:\d+: /),
    ]);
  });

  it(`stops at ${MAX_ERRORS_PER_SPEC} errors and says so`, () => {
    const fields = Array.from({ length: 30 }, (_, i) => `  Missing${i} f${i} = ${i + 1};`).join("\n");
    let error: unknown;
    try {
      loadSpec("/spec/many.proto", memorySpecHost({ "/spec/many.proto": `syntax = "proto3";\nmessage M {\n${fields}\n}\n` }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SpecErrors);
    const errors = (error as SpecErrors).errors;
    expect(errors).toHaveLength(MAX_ERRORS_PER_SPEC);
    expect((error as SpecErrors).truncated).toBe(true);
    expect(errors.map((e) => e.line)).toEqual(Array.from({ length: MAX_ERRORS_PER_SPEC }, (_, i) => i + 3));
    expect((error as Error).message.split("\n").at(-1)).toBe(`(stopped after ${MAX_ERRORS_PER_SPEC} errors)`);
  });

  it("Diagnostics: one error per place, sorted by file, line, column", () => {
    const d = new Diagnostics();
    d.report(new SpecError("b.proto", 1, 1, "late file"));
    d.report(new SpecError("a.proto", 9, 2, "second"));
    d.report(new SpecError("a.proto", 9, 1, "first"));
    d.report(new SpecError("a.proto", 9, 1, "a consequence at the same place"));
    expect(() => d.check()).toThrow("a.proto:9:1: first\na.proto:9:2: second\nb.proto:1:1: late file");
    expect(d.recover(() => 7)).toBe(7);
    expect(() => d.recover(() => { throw new TypeError("a bug"); })).toThrow(TypeError);
  });
});
