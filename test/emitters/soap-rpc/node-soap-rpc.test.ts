import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import soap from "soap";
import { afterAll, describe, expect, it } from "vitest";
import { nodeSpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";
import { serveNode } from "../../../src/runtime/http/node.js";
import type { HttpHandler } from "../../../src/runtime/index.js";
import { SHARED } from "../../helpers/seeds.js";
import { plain, texts } from "../../helpers/node-soap-values.js";

/**
 * The rpc-style WSDLs of shared/corpus/wsdl (rpc/encoded, SOAP 1.1 and 1.2 bindings, one-way operations, a part-less
 * input, a SOAP-ENC array result, a multi-part message) generated into a temp folder and run against node-soap over
 * loopback HTTP, both ways: node-soap's client calling the generated server, the generated client calling node-soap's
 * server. node-soap is the independent peer: each side checks the values the other one decoded.
 */
const CORPUS = path.join(SHARED, "corpus", "wsdl");
const out = mkdtempSync(path.join(os.tmpdir(), "specforge-rpc-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

interface Call {
  readonly op: string;
  /** The generated client's input and the value the generated server's handler must receive. */
  readonly input: unknown;
  /** The same input as node-soap takes it (parts by name; null for a message without parts). */
  readonly nodeArgs: unknown;
  /** The output as the generated code types it; absent for a one-way operation. */
  readonly output?: unknown;
  /** The same output as node-soap's handler returns it and its client reads it (values of node-soap's parse). */
  readonly nodeOutput?: unknown;
  readonly nodeParsed?: unknown;
}

interface Case {
  readonly wsdl: string;
  /** wsdl:service and wsdl:port names (node-soap's service object), and the generated factories' stem. */
  readonly service: string;
  readonly port: string;
  readonly stem: string;
  readonly calls: readonly Call[];
}

const NOAA_WSDL = readFileSync(path.join(CORPUS, "noaa-ndfdXML.wsdl"), "utf8");
/** weatherParametersType: an xsd:all of booleans; maxt and wx true. */
const weather = Object.fromEntries(
  [...NOAA_WSDL.matchAll(/<xsd:element name="(\w+)"\s+type="xsd:boolean"\/>/g)].map((m) => [m[1]!, m[1] === "maxt" || m[1] === "wx"]),
);

const CASES: readonly Case[] = [
  {
    wsdl: "nodesoap-rpcexample.wsdl",
    service: "RpcExample",
    port: "RpcExample",
    stem: "RpcExample",
    calls: [
      {
        op: "pullFile",
        input: { url: "http://x/a?b=1&c=<2>", fileName: "f.txt", fileMode: 420, forceOverwrite: true, username: "ann", password: "p&w", base64EncodedCallback: "Y2I=" },
        nodeArgs: { params: { url: "http://x/a?b=1&c=<2>", fileName: "f.txt", fileMode: 420, forceOverwrite: true, username: "ann", password: "p&w", base64EncodedCallback: "Y2I=" } },
        output: true,
        nodeOutput: { result: true },
      },
      {
        op: "execFile",
        input: { fileName: "run.sh", arguments: ["-a", "b c"], base64EncodedStdIn: "", startDetached: false },
        nodeArgs: { params: { fileName: "run.sh", arguments: ["-a", "b c"], base64EncodedStdIn: "", startDetached: false } },
        output: { base64EncodedStdOut: "b3V0", base64EncodedStdError: "", exitCode: -3 },
        nodeOutput: { result: { base64EncodedStdOut: "b3V0", base64EncodedStdError: "", exitCode: -3 } },
      },
      // A part-less input (node-soap takes null for it) and a SOAP-ENC array result.
      { op: "listFiles", input: undefined, nodeArgs: null, output: { files: ["a.txt", "b <c>.txt"] }, nodeOutput: { result: { files: ["a.txt", "b <c>.txt"] } } },
      // One-way: no output message.
      { op: "heartbeat", input: { deviceUuid: "d-1", updatedKeys: "k", options: "" }, nodeArgs: { params: { deviceUuid: "d-1", updatedKeys: "k", options: "" } } },
    ],
  },
  {
    wsdl: "noaa-ndfdXML.wsdl",
    service: "ndfdXML",
    port: "ndfdXMLPort",
    stem: "NdfdXML",
    calls: [
      {
        // Seven parts: the input is an object keyed by part name.
        op: "NDFDgen",
        input: { latitude: "38.99", longitude: "-77.01", product: "time-series", startTime: "2024-05-06T07:00:00Z", endTime: "2024-05-07T07:00:00Z", Unit: "m", weatherParameters: weather },
        nodeArgs: { latitude: "38.99", longitude: "-77.01", product: "time-series", startTime: "2024-05-06T07:00:00Z", endTime: "2024-05-07T07:00:00Z", Unit: "m", weatherParameters: weather },
        output: "<dwml version='1.0'/>",
        nodeOutput: { dwmlOut: "<dwml version='1.0'/>" },
      },
      {
        op: "CornerPoints",
        input: "conus",
        nodeArgs: { sector: "conus" },
        output: "20.19,-121.55 20.19,-60.88",
        nodeOutput: { listLatLonOut: "20.19,-121.55 20.19,-60.88" },
      },
    ],
  },
  {
    wsdl: "nodesoap-EVacSyncService_SPClient.wsdl",
    service: "ESyncNotifySPServiceService",
    port: "ESyncNotifySP",
    stem: "ESyncNotifySPServiceService",
    calls: [
      {
        op: "eOrderRelationUpdateNotify",
        input: {
          RecordSequenceID: "42", UserIdType: 1, UserId: "u", ServiceType: "s", SpId: "sp", ProductId: "p", UpdateType: 2, UpdateTime: "t",
          UpdateDesc: "d", LinkID: "l", Content: "c", EffectiveDate: "e", ExpireDate: "x", Time_Stamp: "ts", EncodeStr: "enc", SubInfo: "si",
        },
        nodeArgs: {
          eOrderRelationUpdateNotifyRequest: {
            RecordSequenceID: "42", UserIdType: 1, UserId: "u", ServiceType: "s", SpId: "sp", ProductId: "p", UpdateType: 2, UpdateTime: "t",
            UpdateDesc: "d", LinkID: "l", Content: "c", EffectiveDate: "e", ExpireDate: "x", Time_Stamp: "ts", EncodeStr: "enc", SubInfo: "si",
          },
        },
        output: { RecordSequenceID: "42", ResultCode: 0 },
        nodeOutput: { eOrderRelationUpdateNotifyResponse: { RecordSequenceID: "42", ResultCode: 0 } },
      },
    ],
  },
];

type Generated = Record<string, (...args: unknown[]) => unknown>;

async function generated(wsdl: string): Promise<Generated> {
  const spec = generateSpec({ file: path.join(CORPUS, wsdl), display: wsdl }, nodeSpecHost({ cwd: CORPUS, includeDirs: [] }));
  const names = spec.files.map((f) => path.basename(f.path));
  expect(names).toEqual(expect.arrayContaining(["client.ts", "server.ts"]));
  for (const f of spec.files) {
    mkdirSync(path.dirname(path.join(out, f.path)), { recursive: true });
    writeFileSync(path.join(out, f.path), f.content);
  }
  return (await import(pathToFileURL(path.join(out, spec.dir, "index.ts")).href)) as Generated;
}

interface NodeSoapClient {
  [method: string]: (args: unknown) => Promise<[unknown, string]>;
}

describe.each(CASES)("$wsdl", (c) => {
  it("node-soap's client calls the generated server", async () => {
    const mod = await generated(c.wsdl);
    const received = new Map<string, unknown>();
    const handlers = Object.fromEntries(
      c.calls.map((call) => [call.op, (input: unknown) => {
        received.set(call.op, input);
        return call.output;
      }]),
    );
    const requests: string[] = [];
    const server = mod[`create${c.stem}Server`]!(handlers) as HttpHandler;
    const handle = await serveNode(async (request) => {
      requests.push(await request.clone().text());
      return server(request);
    });
    try {
      const client = (await soap.createClientAsync(path.join(CORPUS, c.wsdl), { endpoint: `${handle.url}/rpc` })) as unknown as NodeSoapClient;
      for (const call of c.calls) {
        const [result] = await client[`${call.op}Async`]!(call.nodeArgs);
        expect(received.get(call.op), `${call.op}: what the handler got`).toEqual(call.input);
        if (call.nodeOutput === undefined) expect(result, `${call.op} is one-way`).toBeNull();
        else expect(texts(plain(result)), `${call.op}: what node-soap read`).toEqual(texts(call.nodeOutput));
      }
      expect(requests).toHaveLength(c.calls.length);
    } finally {
      await handle.close();
    }
  });

  it("the generated client calls node-soap's server", async () => {
    const mod = await generated(c.wsdl);
    const received = new Map<string, unknown>();
    const impl = Object.fromEntries(
      c.calls.map((call) => [call.op, (args: unknown) => {
        received.set(call.op, args);
        return call.nodeOutput;
      }]),
    );
    const server = http.createServer((_req, res) => {
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      soap.listen(server, "/rpc", { [c.service]: { [c.port]: impl } }, readFileSync(path.join(CORPUS, c.wsdl), "utf8"));
      const { port } = server.address() as AddressInfo;
      const client = mod[`create${c.stem}Client`]!({ endpoint: `http://127.0.0.1:${port}/rpc`, timeoutMs: 10_000 }) as Record<string, (input: unknown) => Promise<{ body: unknown }>>;
      for (const call of c.calls) {
        const response = await client[call.op]!(call.input);
        expect(texts(plain(received.get(call.op))), `${call.op}: what node-soap's handler got`).toEqual(texts(call.nodeArgs));
        expect(response.body, `${call.op}: what the client read`).toEqual(call.output);
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
