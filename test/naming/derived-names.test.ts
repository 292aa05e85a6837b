/**
 * Issue 28's naming cases, table-driven: a spec snippet -> the names its files export. Every per-type function name
 * comes from the naming pass (`names.derived`), so no two declarations share a name, no expected function goes
 * missing, every module that imports a validator imports the name its module exports, and runtime exports are not
 * reserved (a user's `RestQuery` keeps its name; the runtime's is imported under an alias).
 */
import { describe, expect, it } from "vitest";
import type { ArtifactGroup } from "../../src/config/options.js";
import { assignNames } from "../../src/naming/assign-names.js";
import { memorySpecHost } from "../../src/parsers/host.js";
import { generateSpec, type SpecOutput } from "../../src/pipeline/generate-files.js";
import { typecheckFileSets } from "../helpers/typecheck.js";

interface Case {
  readonly name: string;
  readonly file: string;
  readonly text: string;
  readonly artifacts?: readonly ArtifactGroup[];
  /** File (base name) -> names it must export. */
  readonly exports: Readonly<Record<string, readonly string[]>>;
  /** File (base name) -> names it must not export. */
  readonly notExported?: Readonly<Record<string, readonly string[]>>;
  /** Extra checks on the output. */
  readonly check?: (out: SpecOutput, text: (base: string) => string) => void;
}

const WSDL_ERROR = `<?xml version="1.0"?>
<wsdl:definitions targetNamespace="urn:t" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:t">
  <wsdl:types>
    <xsd:schema targetNamespace="urn:t" elementFormDefault="qualified">
      <xsd:complexType name="Error"><xsd:sequence><xsd:element name="code" type="xsd:int"/></xsd:sequence></xsd:complexType>
      <xsd:complexType name="error"><xsd:sequence><xsd:element name="why" type="xsd:string"/></xsd:sequence></xsd:complexType>
      <xsd:element name="ask" type="tns:error"/>
      <xsd:element name="answer" type="tns:Error"/>
    </xsd:schema>
  </wsdl:types>
  <wsdl:message name="askIn"><wsdl:part name="parameters" element="tns:ask"/></wsdl:message>
  <wsdl:message name="askOut"><wsdl:part name="parameters" element="tns:answer"/></wsdl:message>
  <wsdl:portType name="Asker"><wsdl:operation name="ask"><wsdl:input message="tns:askIn"/><wsdl:output message="tns:askOut"/></wsdl:operation></wsdl:portType>
  <wsdl:binding name="AskerBinding" type="tns:Asker">
    <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="ask"><soap:operation soapAction="urn:t/ask"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="AskService"><wsdl:port name="p" binding="tns:AskerBinding"><soap:address location="http://127.0.0.1/ask"/></wsdl:port></wsdl:service>
</wsdl:definitions>`;

/** Types named like runtime exports the XML, validator and SOAP files import. */
const WSDL_RUNTIME_NAMES = WSDL_ERROR
  .replace('<xsd:complexType name="Error">', '<xsd:complexType name="XmlWriter">')
  .replace('<xsd:complexType name="error">', '<xsd:complexType name="ValidationIssue">')
  .replace('type="tns:error"', 'type="tns:ValidationIssue"')
  .replace('type="tns:Error"', 'type="tns:XmlWriter"')
  .replace('<xsd:element name="ask"', '<xsd:simpleType name="SoapFault"><xsd:restriction base="xsd:string"><xsd:maxLength value="3"/></xsd:restriction></xsd:simpleType>\n      <xsd:complexType name="XmlDecodeOptions"><xsd:sequence><xsd:element name="f" type="tns:SoapFault"/></xsd:sequence></xsd:complexType>\n      <xsd:element name="ask"');

const OPENAPI_ERROR = `openapi: 3.0.3
info: {title: Errors, version: "1"}
paths:
  /things:
    post:
      operationId: makeThing
      requestBody: {required: true, content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}}
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/RestQuery"}}}}
        default: {description: bad, content: {application/json: {schema: {$ref: "#/components/schemas/error"}}}}
components:
  schemas:
    Error: {type: object, properties: {code: {type: integer}}}
    error: {type: object, properties: {why: {type: string}}}
    RestQuery: {type: object, properties: {q: {type: string}}}
    ValidationError: {type: object, properties: {message: {type: string}}}
`;

/** Messages whose names start like the helpers and functions of others, proto services and two feed pages. */
const PROTO_ROLES = `syntax = "proto3";
package t;
enum E { E_UNSPECIFIED = 0; E_A = 1; }
message Foo { int32 x = 1; map<string, int32> m = 2; E e = 3; }
message TextFoo { string s = 1; }
message WriteFoo { string s = 1; }
message ReadFoo { string s = 1; }
message CheckFoo { string s = 1; }
message Value { string v = 1; }
message StringValue { string v = 1; }
message Entry { string id = 1; }
message Page { string next_request_url = 1; repeated Entry entry = 2; }
message OtherPage { string next_request_url = 1; repeated Entry entries = 2; }
message SClient { int32 a = 1; }
message SImplementation { int32 a = 1; }
service S { rpc Get(Foo) returns (Page); rpc Put(Value) returns (StringValue); }
`;

/** WSDL types named like the SOAP client's and server's declarations for service AskService. */
const WSDL_SERVICE_NAMES = WSDL_ERROR
  .replace('<xsd:complexType name="Error">', '<xsd:complexType name="AskServiceClient">')
  .replace('<xsd:complexType name="error">', '<xsd:complexType name="AskServiceHandlers">')
  .replace('type="tns:error"', 'type="tns:AskServiceHandlers"')
  .replace('type="tns:Error"', 'type="tns:AskServiceClient"')
  .replace('<xsd:element name="ask"', '<xsd:complexType name="AskServiceFaults"><xsd:sequence><xsd:element name="f" type="xsd:string"/></xsd:sequence></xsd:complexType>\n      <xsd:complexType name="CreateAskServiceServer"><xsd:sequence><xsd:element name="g" type="xsd:string"/></xsd:sequence></xsd:complexType>\n      <xsd:element name="ask"');

const CASES: readonly Case[] = [
  {
    name: "proto2 defaults of Foo next to a message FooDefaults",
    file: "a.proto",
    text: `syntax = "proto2";\npackage t;\nmessage Foo { optional int32 x = 1 [default = 5]; }\nmessage FooDefaults { optional string y = 1; }\n`,
    exports: {
      "types.ts": ["Foo", "FooDefaults"],
      // The type keeps FooDefaults; Foo's defaults constant yields, spelled with "Of" (docs/naming.md).
      "protobuf.ts": ["encodeFoo", "decodeFoo", "DefaultsOfFoo", "encodeFooDefaults", "decodeFooDefaults"],
    },
    notExported: { "protobuf.ts": ["FooDefaults"] },
    check: (out) => {
      const names = assignNames(out.doc);
      expect(names.derived("proto:.t.Foo", "defaults")).toBe("DefaultsOfFoo");
      expect(names.type("proto:.t.FooDefaults")).toBe("FooDefaults");
    },
  },
  {
    name: "proto3 StringFoo next to Foo: both text functions of Foo exist",
    file: "a.proto",
    text: `syntax = "proto3";\npackage t;\nmessage Foo { int32 x = 1; }\nmessage StringFoo { string s = 1; }\n`,
    notExported: { "protojson.ts": ["toJsonStringFoo_2", "fromJsonStringFoo_2"] },
    exports: {
      // StringFoo's value functions keep toJsonStringFoo/fromJsonStringFoo; Foo's text functions are spelled with
      // "Of" (toJsonStringOfFoo: the JSON string of Foo), not numbered.
      "protojson.ts": [
        "toJsonFoo", "fromJsonFoo", "toJsonStringOfFoo", "fromJsonStringOfFoo",
        "toJsonStringFoo", "fromJsonStringFoo", "toJsonStringStringFoo", "fromJsonStringStringFoo",
      ],
      "prototext.ts": ["toTextFoo", "fromTextFoo", "toTextStringFoo", "fromTextStringFoo"],
    },
    check: (_out, text) => {
      // Foo's text function is Foo's: it serializes with toJsonFoo, not StringFoo's function.
      expect(text("protojson.ts")).toMatch(/export function toJsonStringOfFoo\(message: Foo,[^\n]*\n\s+return JSON\.stringify\(toJsonFoo\(/);
    },
  },
  {
    name: "WSDL types Error and error: the validators the client imports are the ones validate.ts exports",
    file: "ask.wsdl",
    text: WSDL_ERROR,
    exports: { "types.ts": ["Error$", "Error$_2"], "validate.ts": ["validateError", "validateError$_2"] },
    check: (out) => {
      const names = assignNames(out.doc);
      const ids = out.doc.types.map((t) => t.id);
      expect(new Set(ids.map((id) => names.derived(id, "validate"))).size).toBe(ids.length);
    },
  },
  {
    name: "WSDL types named like runtime exports keep their names",
    file: "ask.wsdl",
    text: WSDL_RUNTIME_NAMES,
    exports: {
      "types.ts": ["XmlWriter", "ValidationIssue", "SoapFault", "XmlDecodeOptions"],
      "validate.ts": ["validateXmlWriter", "validateValidationIssue", "validateSoapFault", "validateXmlDecodeOptions"],
    },
    notExported: { "types.ts": ["XmlWriter$", "ValidationIssue$", "SoapFault$"] },
    check: (_out, text) => {
      expect(text("validate.ts")).toMatch(/\bValidationIssue as ValidationIssue\$rt\b/);
    },
  },
  {
    name: "OpenAPI schemas Error, error and RestQuery: one validator name per type, RestQuery keeps its name",
    file: "api.yaml",
    text: OPENAPI_ERROR,
    exports: {
      "types.ts": ["Error$", "Error$_2", "RestQuery", "ValidationError"],
      "validate.ts": ["validateError", "validateError$_2", "isRestQuery", "validateRestQuery"],
      "json.ts": ["encodeRestQueryJson", "decodeRestQueryJson"],
    },
    notExported: { "types.ts": ["RestQuery$", "ValidationError$"] },
    check: (_out, text) => {
      // json.ts throws the runtime's ValidationError next to the spec's ValidationError type: the runtime's is aliased.
      expect(text("json.ts")).toMatch(/\bValidationError as ValidationError\$rt\b/);
      expect(text("json.ts")).toMatch(/throw new ValidationError\$rt\(/);
      expect(text("client.ts")).toMatch(/import type \{[^}]*\bRestQuery\b[^}]*\} from "\.\/types\.js"/);
    },
  },
  {
    name: "proto message RestQuery in a types-only output keeps its name",
    file: "a.proto",
    text: `syntax = "proto3";\npackage t;\nmessage RestQuery { string q = 1; }\nmessage ValidationError { string why = 1; }\n`,
    artifacts: ["types"],
    exports: { "types.ts": ["RestQuery", "ValidationError"] },
    notExported: { "types.ts": ["RestQuery$", "ValidationError$"] },
  },
  {
    name: "proto messages named like runtime exports, all artifacts: names kept, runtime imports aliased",
    file: "a.proto",
    text: `syntax = "proto3";\npackage t;\nmessage PbWriter { int32 x = 1; }\nmessage ValidationIssue { string why = 1; }\nservice S { rpc Get(PbWriter) returns (ValidationIssue); }\n`,
    exports: {
      "types.ts": ["PbWriter", "ValidationIssue"],
      "protobuf.ts": ["encodePbWriter", "decodePbWriter", "encodeValidationIssue"],
      "validate.ts": ["validatePbWriter", "validateValidationIssue"],
    },
    check: (_out, text) => {
      expect(text("protobuf.ts")).toMatch(/\bPbWriter as PbWriter\$rt\b/);
    },
  },
  {
    name: "proto Value next to StringValue: Value's JSON text functions are spelled with Of, not numbered",
    file: "a.proto",
    text: PROTO_ROLES,
    exports: {
      "types.ts": ["Foo", "TextFoo", "WriteFoo", "ReadFoo", "CheckFoo", "Value", "StringValue", "SClient", "SImplementation"],
      "protobuf.ts": ["encodeFoo", "decodeFoo", "encodeTextFoo", "encodeWriteFoo", "decodeReadFoo", "encodeCheckFoo"],
      "validate.ts": ["validateFoo", "validateTextFoo", "validateWriteFoo", "validateReadFoo", "validateCheckFoo"],
      // StringValue's toJson is toJsonStringValue; Value's JSON text function says whose it is.
      "protojson.ts": ["toJsonValue", "toJsonStringValue", "toJsonStringOfValue", "fromJsonStringOfValue", "toJsonStringStringValue", "fromJsonStringStringValue"],
      "prototext.ts": ["toTextFoo", "fromTextFoo", "toTextTextFoo", "fromTextTextFoo"],
      // Two pages of the same item: the second iterator is numbered; the service's client yields to the message.
      "feed.ts": ["fetchPage", "iterateEntries", "servePages", "fetchOtherPage", "iterateEntries_2", "serveOtherPages"],
      "connect.ts": ["SClient_2", "createSClient", "SImplementation_2", "createSHandler"],
    },
    notExported: { "protojson.ts": ["toJsonStringValue_2", "fromJsonStringValue_2"] },
    check: (out, text) => {
      const names = assignNames(out.doc);
      expect(names.derived("proto:.t.Value", "toJsonString")).toBe("toJsonStringOfValue");
      expect(names.derived("proto:.t.StringValue", "toJson")).toBe("toJsonStringValue");
      expect(text("protojson.ts")).toMatch(/export function toJsonStringOfValue\(message: Value,[^\n]*\n\s+return JSON\.stringify\(toJsonValue\(/);
      const s = out.doc.services.findIndex((x) => x.kind === "rpc");
      expect(names.rpc(s)).toMatchObject({ client: "SClient_2", implementation: "SImplementation_2", createClient: "createSClient", createHandler: "createSHandler" });
      expect(names.feed("proto:.t.OtherPage")).toMatchObject({ fetch: "fetchOtherPage", iterate: "iterateEntries_2", serve: "serveOtherPages" });
      // The module-private helpers keep their spelling: Foo's reader, TextFoo's text table.
      expect(text("protobuf.ts")).toMatch(/^function readFoo\(/m);
      expect(text("protobuf.ts")).toMatch(/^function writeWriteFoo\(/m);
      expect(text("prototext.ts")).toMatch(/^const textTextFoo\b/m);
      expect(text("validate.ts")).toMatch(/^function checkCheckFoo\(/m);
    },
  },
  {
    name: "WSDL types named like the SOAP client's and server's declarations: the service's names yield",
    file: "ask.wsdl",
    text: WSDL_SERVICE_NAMES,
    exports: {
      "types.ts": ["AskServiceClient", "AskServiceHandlers", "AskServiceFaults", "CreateAskServiceServer"],
      "client.ts": ["AskServiceClient_2", "createAskServiceClient_2"],
      "server.ts": ["AskServiceHandlers_2", "AskServiceFaults_2", "askServiceFault", "createAskServiceServer"],
    },
    notExported: { "client.ts": ["AskServiceClient", "createAskServiceClient"], "server.ts": ["AskServiceHandlers", "AskServiceFaults"] },
    check: (out) => {
      const names = assignNames(out.doc);
      const s = out.doc.services.findIndex((x) => x.kind === "soap");
      expect(names.soap(s)).toMatchObject({ client: "AskServiceClient_2", createClient: "createAskServiceClient_2", handlers: "AskServiceHandlers_2", faults: "AskServiceFaults_2", createServer: "createAskServiceServer" });
    },
  },
];

const EXPORT = /^export (?:declare )?(?:async )?(?:function|const|interface|type|class|enum) ([A-Za-z_$][\w$]*)/gm;

function generate(c: Case): SpecOutput {
  return generateSpec(
    { file: `/spec/${c.file}`, display: c.file, outDir: "out", ...(c.artifacts ? { artifacts: c.artifacts } : {}) },
    memorySpecHost({ [`/spec/${c.file}`]: c.text }),
  );
}

describe("derived names: spec snippet -> exported names", () => {
  const outputs = new Map(CASES.map((c) => [c.name, generate(c)] as const));

  for (const c of CASES) {
    it(c.name, () => {
      const out = outputs.get(c.name)!;
      const text = (base: string) => {
        const f = out.files.find((x) => x.path === `out/${base}`);
        if (f === undefined) throw new Error(`no out/${base} in ${out.files.map((x) => x.path).join(", ")}`);
        return f.content;
      };
      const exported = (base: string) => [...text(base).matchAll(EXPORT)].map((m) => m[1]!);
      for (const [base, names] of Object.entries(c.exports)) expect(exported(base), base).toEqual(expect.arrayContaining([...names]));
      for (const [base, names] of Object.entries(c.notExported ?? {})) for (const n of names) expect(exported(base), base).not.toContain(n);
      // No file declares one name twice (TS2300/TS2393 would say so too, but this names the culprit).
      for (const f of out.files) {
        const all = [...f.content.matchAll(EXPORT)].map((m) => m[1]!);
        expect(all.filter((n, i) => all.indexOf(n) !== i), f.path).toEqual([]);
      }
      c.check?.(out, text);
    });
  }

  it("every case compiles under strict tsc", () => {
    const sets = new Map(CASES.map((c) => [c.name, new Map(outputs.get(c.name)!.files.map((f) => [f.path, f.content]))] as const));
    const errors = typecheckFileSets(sets);
    for (const c of CASES) expect(errors.get(c.name) ?? [], c.name).toEqual([]);
  }, 120_000);
});
