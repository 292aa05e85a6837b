import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { RecordType } from "../../../src/ir/model.js";
import { memorySpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";
import { typecheckFiles } from "../../helpers/typecheck.js";

/**
 * What .NET and Axis services publish and specforge used to refuse, taking the whole WSDL down: the DataSet pattern
 * (`<s:element ref="s:schema"/><s:any/>`: an instance that carries its own schema) and SOAP-encoded arrays of arrays
 * (`wsdl:arrayType="xsd:base64Binary[][]"`, Java's and C#'s byte[][]).
 */
const DATASET_WSDL = `<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:tns="http://tempuri.org/" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" targetNamespace="http://tempuri.org/">
  <wsdl:types>
    <s:schema elementFormDefault="qualified" targetNamespace="http://tempuri.org/">
      <s:import namespace="http://www.w3.org/2001/XMLSchema" />
      <s:element name="GetCustomers">
        <s:complexType><s:sequence><s:element minOccurs="0" maxOccurs="1" name="country" type="s:string" /></s:sequence></s:complexType>
      </s:element>
      <s:element name="GetCustomersResponse">
        <s:complexType>
          <s:sequence>
            <s:element minOccurs="0" maxOccurs="1" name="GetCustomersResult">
              <s:complexType>
                <s:sequence>
                  <s:element ref="s:schema" />
                  <s:any />
                </s:sequence>
              </s:complexType>
            </s:element>
          </s:sequence>
        </s:complexType>
      </s:element>
    </s:schema>
  </wsdl:types>
  <wsdl:message name="GetCustomersSoapIn"><wsdl:part name="parameters" element="tns:GetCustomers" /></wsdl:message>
  <wsdl:message name="GetCustomersSoapOut"><wsdl:part name="parameters" element="tns:GetCustomersResponse" /></wsdl:message>
  <wsdl:portType name="CustomersSoap">
    <wsdl:operation name="GetCustomers"><wsdl:input message="tns:GetCustomersSoapIn" /><wsdl:output message="tns:GetCustomersSoapOut" /></wsdl:operation>
  </wsdl:portType>
  <wsdl:binding name="CustomersSoap" type="tns:CustomersSoap">
    <soap:binding transport="http://schemas.xmlsoap.org/soap/http" />
    <wsdl:operation name="GetCustomers">
      <soap:operation soapAction="http://tempuri.org/GetCustomers" style="document" />
      <wsdl:input><soap:body use="literal" /></wsdl:input>
      <wsdl:output><soap:body use="literal" /></wsdl:output>
    </wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="Customers">
    <wsdl:port name="CustomersSoap" binding="tns:CustomersSoap"><soap:address location="http://localhost/Customers.asmx" /></wsdl:port>
  </wsdl:service>
</wsdl:definitions>`;

/** A DataSet as an ASMX service returns it: its schema, then the rows in a diffgram. */
const DATASET_RESPONSE = `<GetCustomersResponse xmlns="http://tempuri.org/"><GetCustomersResult><xs:schema id="NewDataSet" xmlns="" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:msdata="urn:schemas-microsoft-com:xml-msdata"><xs:element name="NewDataSet" msdata:IsDataSet="true"><xs:complexType><xs:choice minOccurs="0" maxOccurs="unbounded"><xs:element name="Table"><xs:complexType><xs:sequence><xs:element name="Name" type="xs:string" minOccurs="0"/></xs:sequence></xs:complexType></xs:element></xs:choice></xs:complexType></xs:element></xs:schema><diffgr:diffgram xmlns:msdata="urn:schemas-microsoft-com:xml-msdata" xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1"><NewDataSet xmlns=""><Table diffgr:id="Table1" msdata:rowOrder="0"><Name>Alfreds Futterkiste</Name></Table></NewDataSet></diffgr:diffgram></GetCustomersResult></GetCustomersResponse>`;

const AXIS_XSD = `<?xml version="1.0"?>
<schema xmlns="http://www.w3.org/2001/XMLSchema" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/"
    xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:impl="urn:files" targetNamespace="urn:files">
  <import namespace="http://schemas.xmlsoap.org/soap/encoding/"/>
  <complexType name="ArrayOf_xsd_base64Binary">
    <complexContent><restriction base="soapenc:Array"><attribute ref="soapenc:arrayType" wsdl:arrayType="xsd:base64Binary[]" xmlns:xsd="http://www.w3.org/2001/XMLSchema"/></restriction></complexContent>
  </complexType>
  <complexType name="ArrayOfArrayOf_xsd_base64Binary">
    <complexContent><restriction base="soapenc:Array"><attribute ref="soapenc:arrayType" wsdl:arrayType="xsd:base64Binary[][]" xmlns:xsd="http://www.w3.org/2001/XMLSchema"/></restriction></complexContent>
  </complexType>
  <complexType name="Cube">
    <complexContent><restriction base="soapenc:Array"><attribute ref="soapenc:arrayType" wsdl:arrayType="xsd:int[][][]" xmlns:xsd="http://www.w3.org/2001/XMLSchema"/></restriction></complexContent>
  </complexType>
  <complexType name="Matrix">
    <complexContent><restriction base="soapenc:Array"><attribute ref="soapenc:arrayType" wsdl:arrayType="xsd:double[,]" xmlns:xsd="http://www.w3.org/2001/XMLSchema"/></restriction></complexContent>
  </complexType>
  <element name="chunks" type="impl:ArrayOfArrayOf_xsd_base64Binary"/>
  <element name="cube" type="impl:Cube"/>
  <element name="matrix" type="impl:Matrix"/>
</schema>`;

const out = mkdtempSync(path.join(os.tmpdir(), "specforge-schema-in-instance-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** libxml2's reading of a document: the string value of an XPath expression (xmllint --xpath). */
function xmllintXPath(xml: string, expr: string): string {
  const file = path.join(out, `doc-${Math.random().toString(36).slice(2)}.xml`);
  writeFileSync(file, xml);
  const r = spawnSync("xmllint", ["--xpath", expr, file], { encoding: "utf8" });
  if (r.error) throw r.error;
  return r.stdout.trim();
}

async function generated(file: string, text: string) {
  const spec = generateSpec({ file, display: path.basename(file) }, memorySpecHost({ [file]: text }));
  for (const f of spec.files) {
    mkdirSync(path.dirname(path.join(out, f.path)), { recursive: true });
    writeFileSync(path.join(out, f.path), f.content);
  }
  const dir = spec.files[0]!.path.split("/")[0]!;
  const xml = (await import(pathToFileURL(path.join(out, dir, "xml.ts")).href)) as Record<string, (v: unknown) => unknown>;
  return { spec, xml, errors: typecheckFiles(new Map(spec.files.filter((f) => f.path.endsWith(".ts")).map((f) => [f.path, f.content]))) };
}

describe("xs:element ref=\"xs:schema\" (the .NET DataSet pattern)", () => {
  it("is open content of the XML Schema namespace, with a located warning; client and server type-check", async () => {
    const { spec, xml, errors } = await generated("/spec/Customers.asmx.wsdl", DATASET_WSDL);
    expect(errors).toEqual([]);
    expect(spec.doc.warnings).toEqual([
      {
        file: "/spec/Customers.asmx.wsdl",
        line: 16,
        column: 19,
        detail: "element ref 's:schema' ({http://www.w3.org/2001/XMLSchema}schema) is an element of the XML Schema namespace: kept as open content (an XML element of that namespace), not typed",
      },
    ]);
    const result = spec.doc.types.find((t) => t.name === "GetCustomersResponseGetCustomersResult") as RecordType;
    expect(result.members.map((m) => (m.kind === "any" ? [m.name, m.namespace] : m.kind))).toEqual([
      ["$any", "http://www.w3.org/2001/XMLSchema"],
      ["$any2", "##any"],
    ]);
    expect(spec.files.map((f) => f.path)).toEqual(expect.arrayContaining(["Customers.asmx/client.ts", "Customers.asmx/server.ts"]));

    // The response decodes: the schema in the first wildcard, the diffgram in the second; and it writes back.
    const value = xml.decodeGetCustomersResponseElement!(DATASET_RESPONSE) as { GetCustomersResult: { $any: { ns: string; name: string }[]; $any_2: { ns: string; name: string }[] } };
    expect(value.GetCustomersResult.$any.map((e) => [e.ns, e.name])).toEqual([["http://www.w3.org/2001/XMLSchema", "schema"]]);
    expect(value.GetCustomersResult.$any_2.map((e) => [e.ns, e.name])).toEqual([["urn:schemas-microsoft-com:xml-diffgram-v1", "diffgram"]]);
    const again = xml.encodeGetCustomersResponseElement!(value) as string;
    // The rows survive with their attributes: the diffgram's diffgr:id and msdata:rowOrder, the schema's name= and
    // msdata:IsDataSet (open content keeps each element's attributes, keyed as xsd:anyAttribute's are).
    const diffgram = value.GetCustomersResult.$any_2[0] as unknown as { value: { value: { attributes?: Record<string, string> }[] }[] };
    expect({ ...diffgram.value[0]!.value[0]!.attributes }).toEqual({ "{urn:schemas-microsoft-com:xml-diffgram-v1}id": "Table1", "{urn:schemas-microsoft-com:xml-msdata}rowOrder": "0" });
    const decl = '(?: xmlns:\\w+="[^"]*")?';
    expect(again).toMatch(new RegExp(`<Table \\w+:id="Table1"${decl} \\w+:rowOrder="0"><Name>Alfreds Futterkiste</Name></Table>`));
    expect(again).toMatch(new RegExp(`<(\\w+):schema id="NewDataSet"><\\1:element name="NewDataSet"${decl} \\w+:IsDataSet="true"><\\1:complexType><\\1:choice minOccurs="0" maxOccurs="unbounded">`));
    // libxml2 reads the rows' attributes in their namespaces as the service wrote them.
    expect(xmllintXPath(again, "string(//*[local-name()='Table']/@*[local-name()='id' and namespace-uri()='urn:schemas-microsoft-com:xml-diffgram-v1'])")).toBe("Table1");
    expect(xml.decodeGetCustomersResponseElement!(again)).toEqual(value);
  });

  it("a spec that declares the XML Schema namespace's element itself keeps its declaration", () => {
    const own = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="http://www.w3.org/2001/XMLSchema"><xs:element name="schema" type="xs:string"/></xs:schema>`;
    const main = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:m">
  <xs:import namespace="http://www.w3.org/2001/XMLSchema" schemaLocation="own.xsd"/>
  <xs:element name="m"><xs:complexType><xs:sequence><xs:element ref="xs:schema"/></xs:sequence></xs:complexType></xs:element>
</xs:schema>`;
    const spec = generateSpec({ file: "/s/m.xsd", display: "m.xsd" }, memorySpecHost({ "/s/m.xsd": main, "/s/own.xsd": own }));
    expect(spec.doc.warnings).toBeUndefined();
    const m = spec.doc.types.find((t) => t.name === "m") as RecordType;
    expect(m.members).toMatchObject([{ kind: "field", name: "schema", type: { kind: "scalar", scalar: "string" } }]);
  });
});

describe("SOAP-encoded arrays of arrays", () => {
  it("byte[][] and int[][][] are arrays whose items are arrays; a rectangular [,] is a flat list with a warning", async () => {
    const { spec, xml, errors } = await generated("/spec/files.xsd", AXIS_XSD);
    expect(errors).toEqual([]);
    const byName = new Map(spec.doc.types.map((t) => [t.name, t as RecordType]));
    expect(byName.get("ArrayOfArrayOf_xsd_base64Binary")!.members).toMatchObject([{ name: "item", type: { kind: "ref", id: "xsd:{urn:files}ArrayOfArrayOf_xsd_base64Binary.item" } }]);
    expect(byName.get("ArrayOfArrayOf_xsd_base64BinaryItem")!.members).toMatchObject([{ name: "item", type: { kind: "scalar", scalar: "bytes" } }]);
    expect(byName.get("CubeItem")!.members).toMatchObject([{ type: { kind: "ref", id: "xsd:{urn:files}Cube.item.item" } }]);
    expect(byName.get("CubeItemItem")!.members).toMatchObject([{ type: { kind: "scalar", scalar: "int32" } }]);
    expect(byName.get("Matrix")!.members).toMatchObject([{ name: "item", type: { kind: "scalar", scalar: "double" } }]);
    expect(spec.doc.warnings?.map((w) => w.detail)).toEqual([
      "wsdl:arrayType 'xsd:double[,]' has a multi-dimensional rank: its items are read and written as one flat list in row-major order (the dimensions are not kept)",
    ]);

    // On the wire each inner array is an element whose children are its items (SOAP 1.1 section 5.4.2).
    const wire = `<ns:chunks xmlns:ns="urn:files"><item><item>AQI=</item><item>Aw==</item></item><item/><item><item>/w==</item></item></ns:chunks>`;
    const chunks = xml.decodeChunksElement!(wire);
    expect(chunks).toEqual({ item: [{ item: [new Uint8Array([1, 2]), new Uint8Array([3])] }, {}, { item: [new Uint8Array([255])] }] });
    expect(xml.decodeChunksElement!(xml.encodeChunksElement!(chunks) as string)).toEqual(chunks);
    const cube = { item: [{ item: [{ item: [1, 2] }, { item: [3] }] }] };
    expect(xml.decodeCubeElement!(xml.encodeCubeElement!(cube) as string)).toEqual(cube);
  });

  it("a malformed wsdl:arrayType is a located error, and the other declarations are still checked", () => {
    const bad = AXIS_XSD.replace('wsdl:arrayType="xsd:int[][][]"', 'wsdl:arrayType="[]"').replace('<element name="matrix"', '<complexType name="Bad"><complexContent><extension base="impl:Nope"/></complexContent></complexType><element name="matrix"');
    expect(() => generateSpec({ file: "/spec/files.xsd", display: "files.xsd" }, memorySpecHost({ "/spec/files.xsd": bad }))).toThrow(
      /files\.xsd:12:\d+: invalid wsdl:arrayType '\[\]'[\s\S]*files\.xsd:\d+:\d+: unknown type 'impl:Nope'/,
    );
  });
});
