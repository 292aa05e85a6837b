/**
 * The peer harness checked against itself: grpc-js and connect-node, each with code from its own generator, talk to
 * each other over gRPC through the same scenarios the specforge interop tests run (each peer's server and client
 * once). If these fail, the harness is wrong, not specforge.
 */
import { afterAll, beforeAll, describe } from "vitest";
import { connectNodeCaller, startConnectNodeServer, type ConnectNodeServerHandle } from "./peers/connect-node-peer.js";
import { generateEsInterop, type EsGenerated, type EsInterop } from "./peers/es-codegen.js";
import { grpcJsCaller, startGrpcJsServer, type GrpcJsServerHandle } from "./peers/grpc-js-peer.js";
import type { InteropCaller } from "./peers/interop-shape.js";
import { interopScenarios, type ScenarioOptions } from "./peers/scenarios.js";

let es: EsGenerated<EsInterop>;
let grpcJsServer: GrpcJsServerHandle;
let connectServer: ConnectNodeServerHandle;
const callers: InteropCaller[] = [];

beforeAll(async () => {
  es = await generateEsInterop();
  grpcJsServer = await startGrpcJsServer();
  connectServer = await startConnectNodeServer(es.module);
});

afterAll(async () => {
  for (const c of callers) await c.close();
  await grpcJsServer?.close();
  await connectServer?.close();
  es?.remove();
});

/** A describe block running every scenario with the caller `make` builds once the servers are up. */
function pair(title: string, make: () => InteropCaller, options: ScenarioOptions = {}): void {
  describe(title, () => {
    let caller: InteropCaller;
    beforeAll(() => {
      caller = make();
      callers.push(caller);
    });
    interopScenarios(() => ({ caller, es: es.module }), options);
  });
}

pair("grpc-js client -> connect-node server", () => grpcJsCaller(new URL(connectServer.http2Url).host));
pair("connect-node gRPC client -> grpc-js server", () => connectNodeCaller(es.module, { protocol: "grpc", baseUrl: grpcJsServer.url }));
