/**
 * SOAP-ENC arrays of arrays in rpc/encoded (issue 27; SOAP 1.1 §5.4.2): a part typed `xsd:int[][]` (Axis's
 * `ArrayOfArrayOf_xsd_int`, Java's int[][]) is written with `soapenc:arrayType="xsd:int[][n]"` on the outer array
 * and `xsd:int[k]` on each inner one, and read back whatever the items are named, through `href`/`id` multi-refs
 * (Axis writes every inner array as a multiRef), nil inner arrays included. node-soap is the peer both ways.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import soap from "soap";
import { afterAll, describe, expect, it } from "vitest";
import { memorySpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";
import { serveNode } from "../../../src/runtime/http/node.js";
import type { HttpHandler } from "../../../src/runtime/index.js";
import { typecheckFiles } from "../../helpers/typecheck.js";
import { plain, texts } from "../../helpers/node-soap-values.js";

const WSDL = `<?xml version="1.0" encoding="UTF-8"?>
<wsdl:definitions targetNamespace="urn:grid" xmlns:impl="urn:grid" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"
    xmlns:wsdlsoap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xsd="http://www.w3.org/2001/XMLSchema"
    xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/">
  <wsdl:types>
    <schema targetNamespace="urn:grid" xmlns="http://www.w3.org/2001/XMLSchema">
      <import namespace="http://schemas.xmlsoap.org/soap/encoding/"/>
      <complexType name="ArrayOfArrayOf_xsd_int">
        <complexContent><restriction base="soapenc:Array"><attribute ref="soapenc:arrayType" wsdl:arrayType="xsd:int[][]"/></restriction></complexContent>
      </complexType>
    </schema>
  </wsdl:types>
  <wsdl:message name="transposeRequest"><wsdl:part name="grid" type="impl:ArrayOfArrayOf_xsd_int"/></wsdl:message>
  <wsdl:message name="transposeResponse"><wsdl:part name="transposeReturn" type="impl:ArrayOfArrayOf_xsd_int"/></wsdl:message>
  <wsdl:portType name="Grid">
    <wsdl:operation name="transpose"><wsdl:input message="impl:transposeRequest"/><wsdl:output message="impl:transposeResponse"/></wsdl:operation>
  </wsdl:portType>
  <wsdl:binding name="GridSoapBinding" type="impl:Grid">
    <wsdlsoap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="transpose">
      <wsdlsoap:operation soapAction=""/>
      <wsdl:input><wsdlsoap:body encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" namespace="urn:grid" use="encoded"/></wsdl:input>
      <wsdl:output><wsdlsoap:body encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" namespace="urn:grid" use="encoded"/></wsdl:output>
    </wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="GridService"><wsdl:port binding="impl:GridSoapBinding" name="Grid"><wsdlsoap:address location="http://localhost/axis/services/Grid"/></wsdl:port></wsdl:service>
</wsdl:definitions>`;

const out = mkdtempSync(path.join(os.tmpdir(), "specforge-rpc-nested-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));
const wsdlFile = path.join(out, "Grid.wsdl");
writeFileSync(wsdlFile, WSDL);

type Generated = Record<string, (...args: unknown[]) => unknown>;
const GRID = { item: [{ item: [1, 2, 3] }, { item: [4, 5, 6] }] };
const TRANSPOSED = { item: [{ item: [1, 4] }, { item: [2, 5] }, { item: [3, 6] }] };

async function generated(): Promise<{ mod: Generated; files: Map<string, string> }> {
  const spec = generateSpec({ file: "/spec/Grid.wsdl", display: "Grid.wsdl" }, memorySpecHost({ "/spec/Grid.wsdl": WSDL }));
  for (const f of spec.files) {
    mkdirSync(path.dirname(path.join(out, f.path)), { recursive: true });
    writeFileSync(path.join(out, f.path), f.content);
  }
  const files = new Map(spec.files.filter((f) => f.path.endsWith(".ts")).map((f) => [f.path, f.content]));
  return { mod: (await import(pathToFileURL(path.join(out, spec.dir, "index.ts")).href)) as Generated, files };
}

describe("rpc/encoded arrays of arrays", () => {
  it("type-check strict; the part type knows its inner rank", async () => {
    const { files } = await generated();
    expect(files.get("Grid/xml.ts")).toContain(`[ns1, "ArrayOfArrayOf_xsd_int", "item", "item", ns2, "int", 1],`);
    expect(typecheckFiles(files)).toEqual([]);
  }, 60_000);

  it("the generated client writes arrayType xsd:int[][n] and inner xsd:int[k]; node-soap's server reads the grid, and its answer is read", async () => {
    const { mod } = await generated();
    let got: unknown;
    let request = "";
    const server = http.createServer((_req, res) => {
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const s = soap.listen(server, "/rpc", { GridService: { Grid: { transpose: (args: unknown) => { got = args; return { transposeReturn: [[1, 4], [2, 5], [3, 6]] }; } } } }, WSDL);
      s.log = (type: string, data: unknown) => {
        if (type === "received") request = String(data);
      };
      const { port } = server.address() as AddressInfo;
      const client = mod.createGridServiceClient!({ endpoint: `http://127.0.0.1:${port}/rpc`, timeoutMs: 10_000 }) as Record<string, (input: unknown) => Promise<{ body: unknown }>>;
      const response = await client.transpose!(GRID);
      // SOAP 1.1 §5.4.2: the outer array's arrayType names the items' rank, each inner array is a SOAP-ENC array.
      expect(request).toMatch(/<grid xsi:type="soapenc:Array" soapenc:arrayType="(\w+):int\[\]\[2\]"><item xsi:type="soapenc:Array" soapenc:arrayType="\1:int\[3\]"><item xsi:type="\1:int">1<\/item>/);
      expect(texts(plain(got))).toEqual({ grid: texts(GRID) });
      // node-soap answers with every level named after the part and no arrayType: read all the same.
      expect(response.body).toEqual(TRANSPOSED);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);

  it("node-soap's client calls the generated server with nested arrays, and reads its answer", async () => {
    const { mod } = await generated();
    let received: unknown;
    const server = mod.createGridServiceServer!({ transpose: (input: unknown) => { received = input; return TRANSPOSED; } }) as HttpHandler;
    const handle = await serveNode(server);
    try {
      const client = (await soap.createClientAsync(wsdlFile, { endpoint: `${handle.url}/rpc` })) as unknown as Record<string, (a: unknown) => Promise<[unknown, string]>>;
      const [result, raw] = await client.transposeAsync!({ grid: [[1, 2, 3], [4, 5, 6]] });
      expect(received).toEqual(GRID);
      expect(raw).toContain('soapenc:arrayType="ns2:int[][3]"><item xsi:type="soapenc:Array" soapenc:arrayType="ns2:int[2]">');
      expect(texts(plain(result))).toEqual({ transposeReturn: texts(TRANSPOSED) });
    } finally {
      await handle.close();
    }
  }, 60_000);

  it("reads Axis's wire form: inner arrays as href multi-refs after the wrapper, items of any name, a nil inner array", async () => {
    const { mod } = await generated();
    let received: unknown;
    const server = mod.createGridServiceServer!({ transpose: (input: unknown) => { received = input; return { item: [] }; } }) as HttpHandler;
    const env = `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/"><soapenv:Body>` +
      `<ns1:transpose soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xmlns:ns1="urn:grid"><grid xsi:type="soapenc:Array" soapenc:arrayType="xsd:int[][3]"><grid href="#id0"/><grid xsi:nil="true"/><grid href="#id1"/></grid></ns1:transpose>` +
      `<multiRef id="id0" soapenc:root="0" xsi:type="soapenc:Array" soapenc:arrayType="xsd:int[2]"><int xsi:type="xsd:int">7</int><int href="#id2"/></multiRef>` +
      `<multiRef id="id1" soapenc:root="0" xsi:type="soapenc:Array" soapenc:arrayType="xsd:int[0]"/>` +
      `<multiRef id="id2" soapenc:root="0" xsi:type="xsd:int">8</multiRef></soapenv:Body></soapenv:Envelope>`;
    const response = await server(new Request("http://x/rpc", { method: "POST", headers: { "content-type": "text/xml", soapaction: '""' }, body: env }));
    expect(response.status).toBe(200);
    expect(received).toEqual({ item: [{ item: [7, 8] }, null, {}] });

    // The outer rank may be sized (`xsd:int[][2]`), the inner ones too; node-soap's own form has no arrayType at all.
    const sized = env.replace('<grid xsi:type="soapenc:Array" soapenc:arrayType="xsd:int[][3]"><grid href="#id0"/><grid xsi:nil="true"/><grid href="#id1"/></grid>', '<grid soapenc:arrayType="xsd:int[][2]"><a soapenc:arrayType="xsd:int[1]"><b>1</b></a><a><b>2</b><b>3</b></a></grid>');
    expect((await server(new Request("http://x/rpc", { method: "POST", headers: { "content-type": "text/xml", soapaction: '""' }, body: sized }))).status).toBe(200);
    expect(received).toEqual({ item: [{ item: [1] }, { item: [2, 3] }] });
  }, 60_000);
});
