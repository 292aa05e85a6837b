import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import soap from "soap";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeSpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";
import { serveNode, type NodeServerHandle } from "../../../src/runtime/http/node.js";
import type { Interceptor, SoapClientOptions, SoapServerOptions } from "../../../src/runtime/index.js";

/**
 * MTOM/XOP for base64Binary, on a small document/literal contract generated at test time: the generated client sends
 * large values as binary parts and reads MTOM answers; the generated server reads MTOM requests and answers them in
 * MTOM; node-soap (forceMTOM, with an attachment) as the independent client both ways (its request, and its reading
 * of our MTOM answer); 50 MB end to end over loopback HTTP, the decoded value a view into the received message.
 */
const TNS = "urn:files.example";
const WSDL = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:tns="${TNS}" targetNamespace="${TNS}">
  <types>
    <xsd:schema targetNamespace="${TNS}" elementFormDefault="qualified">
      <xsd:element name="upload"><xsd:complexType><xsd:sequence>
        <xsd:element name="name" type="xsd:string"/>
        <xsd:element name="data" type="xsd:base64Binary"/>
      </xsd:sequence></xsd:complexType></xsd:element>
      <xsd:element name="uploadResponse"><xsd:complexType><xsd:sequence>
        <xsd:element name="size" type="xsd:int"/>
        <xsd:element name="sha256" type="xsd:string"/>
        <xsd:element name="echo" type="xsd:base64Binary"/>
      </xsd:sequence></xsd:complexType></xsd:element>
    </xsd:schema>
  </types>
  <message name="uploadRequest"><part name="parameters" element="tns:upload"/></message>
  <message name="uploadResponse"><part name="parameters" element="tns:uploadResponse"/></message>
  <portType name="FilesPort"><operation name="upload"><input message="tns:uploadRequest"/><output message="tns:uploadResponse"/></operation></portType>
  <binding name="FilesBinding" type="tns:FilesPort">
    <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="upload"><soap:operation soapAction="urn:upload"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>
  </binding>
  <service name="FilesService"><port name="FilesPort" binding="tns:FilesBinding"><soap:address location="http://127.0.0.1:8080/files"/></port></service>
</definitions>
`;

interface Upload {
  name: string;
  data: Uint8Array;
}
interface UploadResponse {
  size: number;
  sha256: string;
  echo: Uint8Array;
}
interface FilesModule {
  createFilesServiceClient(options: SoapClientOptions): { upload(input: Upload): Promise<{ body: UploadResponse }> };
}
interface FilesServerModule {
  createFilesServiceServer(handlers: { upload(input: Upload): UploadResponse | Promise<UploadResponse> }, options?: SoapServerOptions): (request: Request) => Promise<Response>;
}

let root: string;
let client: FilesModule;
let server: FilesServerModule;
let wsdlFile: string;
const received: Upload[] = [];
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "specforge-mtom-"));
  wsdlFile = path.join(root, "files.wsdl");
  writeFileSync(wsdlFile, WSDL);
  const out = generateSpec({ file: wsdlFile, display: "files.wsdl" }, nodeSpecHost({}));
  for (const file of out.files) {
    mkdirSync(path.dirname(path.join(root, "out", file.path)), { recursive: true });
    writeFileSync(path.join(root, "out", file.path), file.content);
  }
  client = (await import(path.join(root, "out", out.dir, "client.ts"))) as FilesModule;
  server = (await import(path.join(root, "out", out.dir, "server.ts"))) as FilesServerModule;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Answers with the size and digest of what it got, and the first 2000 bytes back (a binary answer). */
function filesHandler(options: SoapServerOptions = {}) {
  return server.createFilesServiceServer(
    {
      upload(input) {
        received.push(input);
        return { size: input.data.length, sha256: sha256(input.data), echo: input.data.subarray(0, 2000) };
      },
    },
    options,
  );
}

describe("MTOM/XOP", () => {
  it("the generated client sends large values as binary parts, small ones inline, and reads the MTOM answer", async () => {
    const handler = filesHandler();
    const seen: { contentType: string; body: Uint8Array; answerType: string }[] = [];
    const capture: Interceptor = (next) => async (request) => {
      const body = new Uint8Array(await request.clone().arrayBuffer());
      const response = await next(request);
      seen.push({ contentType: request.headers.get("content-type") ?? "", body, answerType: response.headers.get("content-type") ?? "" });
      return response;
    };
    const api = client.createFilesServiceClient({
      endpoint: "http://127.0.0.1:1/files",
      fetch: (input, init) => handler(input instanceof Request ? input : new Request(input, init)),
      interceptors: [capture],
      mtom: { thresholdBytes: 4096 },
    });
    const big = new Uint8Array(randomBytes(100_000));
    const answer = await api.upload({ name: "big.bin", data: big });
    expect(answer.body.size).toBe(100_000);
    expect(answer.body.sha256).toBe(sha256(big));
    expect([...answer.body.echo]).toEqual([...big.subarray(0, 2000)]);
    const request = seen[0]!;
    expect(request.contentType).toMatch(/^multipart\/related; type="application\/xop\+xml"; boundary="[^"]+"; start="<[^>]+>"; start-info="text\/xml"$/);
    const latin1 = Buffer.from(request.body).toString("latin1");
    expect(latin1).toMatch(/<xop:Include xmlns:xop="http:\/\/www.w3.org\/2004\/08\/xop\/include" href="cid:[^"]+"\/>/);
    // The bytes travel raw, not as base64.
    expect(Buffer.from(request.body).indexOf(Buffer.from(big))).toBeGreaterThan(0);
    expect(latin1).not.toContain(Buffer.from(big.subarray(0, 300)).toString("base64").slice(0, 100));
    // The server answered an MTOM request in MTOM (the 2000-byte echo is over its default 1024-byte threshold).
    expect(request.answerType).toMatch(/^multipart\/related/);

    // Below the threshold: a plain SOAP request.
    const small = new Uint8Array([1, 2, 3]);
    expect((await api.upload({ name: "small", data: small })).body.sha256).toBe(sha256(small));
    expect(seen[1]!.contentType).toBe("text/xml; charset=utf-8");
    expect(seen[1]!.answerType).toBe("text/xml; charset=utf-8");
  });

  it("refuses a malformed MTOM request with a Client fault", async () => {
    const handler = filesHandler();
    const bad = async (contentType: string, body: string) =>
      (await handler(new Request("http://x/files", { method: "POST", headers: { "content-type": contentType }, body }))).text();
    expect(await bad('multipart/related; type="application/xop+xml"', "x")).toContain("malformed MTOM request: multipart/related without a boundary");
    const envelope = `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><f:upload xmlns:f="${TNS}"><f:name>n</f:name><f:data><xop:Include xmlns:xop="http://www.w3.org/2004/08/xop/include" href="cid:missing"/></f:data></f:upload></s:Body></s:Envelope>`;
    const body = `--b\r\nContent-Type: application/xop+xml; type="text/xml"\r\nContent-ID: <root>\r\n\r\n${envelope}\r\n--b--\r\n`;
    expect(await bad('multipart/related; type="application/xop+xml"; boundary=b; start="<root>"', body)).toContain("xop:Include names no part: cid:missing");
    expect(await bad("multipart/related; boundary=b", body.replace("application/xop+xml", "text/plain"))).toContain("not application/xop+xml");
  });

  describe("with node-soap", () => {
    let running: NodeServerHandle;
    beforeAll(async () => {
      running = await serveNode(filesHandler());
    });
    afterAll(() => running.close());

    it("reads node-soap's forceMTOM request with an attachment, and node-soap reads our MTOM answer", async () => {
      const nodeClient = await soap.createClientAsync(wsdlFile, { endpoint: `${running.url}/files`, parseReponseAttachments: true });
      const payload = randomBytes(50_000);
      received.length = 0;
      const [result, rawResponse, , , attachments] = (await nodeClient.uploadAsync(
        { name: "from-node-soap", data: { $xml: `<xop:Include xmlns:xop="http://www.w3.org/2004/08/xop/include" href="cid:payload-1@node-soap"/>` } },
        { forceMTOM: true, attachments: [{ mimetype: "application/octet-stream", contentId: "payload-1@node-soap", name: "p.bin", body: payload }] },
      )) as [{ size: number; sha256: string }, string, unknown, unknown, { parts: { headers: Record<string, string>; body: Buffer }[] }];
      expect(received[0]!.name).toBe("from-node-soap");
      expect(sha256(received[0]!.data)).toBe(sha256(payload));
      expect(Number(result.size)).toBe(50_000);
      expect(result.sha256).toBe(sha256(payload));
      // Our answer went as MTOM: node-soap took the envelope from the root part; the echo is the binary part the
      // envelope's xop:Include names.
      expect(attachments.parts).toHaveLength(1);
      const cid = attachments.parts[0]!.headers["content-id"]!.replace(/^<|>$/g, "");
      expect(rawResponse).toContain(`href="cid:${cid}"`);
      expect(Buffer.compare(attachments.parts[0]!.body, payload.subarray(0, 2000))).toBe(0);
    });
  });

  it("50 MB end to end over loopback HTTP; the server's value is a view into the request it received", async () => {
    const views: { byteOffset: number; bufferBytes: number }[] = [];
    const handler = server.createFilesServiceServer(
      {
        upload(input) {
          views.push({ byteOffset: input.data.byteOffset, bufferBytes: input.data.buffer.byteLength });
          return { size: input.data.length, sha256: sha256(input.data), echo: new Uint8Array(0) };
        },
      },
      { maxBodyBytes: 64 * 1024 * 1024 },
    );
    const running = await serveNode(handler);
    try {
      const data = new Uint8Array(randomBytes(50 * 1024 * 1024));
      const api = client.createFilesServiceClient({ endpoint: `${running.url}/files`, mtom: true, timeoutMs: 50_000 });
      const answer = await api.upload({ name: "large.bin", data });
      expect(answer.body.size).toBe(data.length);
      expect(answer.body.sha256).toBe(sha256(data));
      // Not copied out of the message (no base64 text, no second buffer): a view at an offset into the body's bytes.
      expect(views[0]!.byteOffset).toBeGreaterThan(0);
      expect(views[0]!.bufferBytes).toBeGreaterThan(data.length);
      expect(views[0]!.bufferBytes).toBeLessThan(data.length + 64 * 1024);
    } finally {
      await running.close();
    }
  });
});
