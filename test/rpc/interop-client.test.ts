/**
 * specforge's generated client calling the real servers: a @grpc/grpc-js server (gRPC) and a
 * @connectrpc/connect-node server (gRPC over HTTP/2; Connect and gRPC-Web over fetch, so HTTP/1.1), each with code
 * from its own generator. The same scenarios as every other pair (peers/scenarios.ts).
 */
import { afterAll, beforeAll, describe } from "vitest";
import { startConnectNodeServer, type ConnectNodeServerHandle } from "./peers/connect-node-peer.js";
import { generateEsInterop, type EsGenerated, type EsInterop } from "./peers/es-codegen.js";
import { startGrpcJsServer, type GrpcJsServerHandle } from "./peers/grpc-js-peer.js";
import type { InteropCaller } from "./peers/interop-shape.js";
import { interopScenarios, type ScenarioOptions } from "./peers/scenarios.js";
import { generateSpecforgeInterop, specforgeCaller, type SfClientOptions, type SpecforgeGenerated } from "./peers/specforge-peer.js";

let es: EsGenerated<EsInterop>;
let sf: SpecforgeGenerated;
let grpcJsServer: GrpcJsServerHandle;
let connectServer: ConnectNodeServerHandle;
const callers: InteropCaller[] = [];

beforeAll(async () => {
  [es, sf] = await Promise.all([generateEsInterop(), generateSpecforgeInterop()]);
  grpcJsServer = await startGrpcJsServer();
  connectServer = await startConnectNodeServer(es.module);
});

afterAll(async () => {
  for (const c of callers) await c.close();
  await grpcJsServer?.close();
  await connectServer?.close();
  es?.remove();
  sf?.out.remove();
});

function pair(title: string, options: Omit<SfClientOptions, "baseUrl">, url: () => string, scenario: ScenarioOptions = {}): void {
  describe(title, () => {
    let caller: InteropCaller;
    beforeAll(() => {
      caller = specforgeCaller(sf.module, { ...options, baseUrl: url() });
      callers.push(caller);
    });
    interopScenarios(() => ({ caller, es: es.module }), scenario);
  });
}

pair("specforge gRPC client -> grpc-js server", { protocol: "grpc" }, () => grpcJsServer.url);
// Every request message gzipped (compressMinBytes 0), so grpc-js decompresses each one.
pair("specforge gRPC client, gzip requests -> grpc-js server", { protocol: "grpc", sendCompression: "gzip", compressMinBytes: 0 }, () => grpcJsServer.url);
pair("specforge gRPC client, gzip requests -> connect-node server", { protocol: "grpc", sendCompression: "gzip", compressMinBytes: 0 }, () => connectServer.http2Url);
pair("specforge gRPC client -> connect-node server", { protocol: "grpc" }, () => connectServer.http2Url);
pair("specforge Connect client, binary -> connect-node server", { protocol: "connect" }, () => connectServer.http1Url, { bidi: false });
pair("specforge Connect client, JSON -> connect-node server", { protocol: "connect", format: "json" }, () => connectServer.http1Url, { bidi: false });
pair("specforge gRPC-Web client, binary -> connect-node server", { protocol: "grpc-web" }, () => connectServer.http1Url, { bidi: false });
pair("specforge gRPC-Web client, JSON -> connect-node server", { protocol: "grpc-web", format: "json" }, () => connectServer.http1Url, { bidi: false });
