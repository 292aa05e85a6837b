/**
 * The real clients calling a specforge server: @grpc/grpc-js over gRPC, and @connectrpc/connect-node over gRPC,
 * Connect and gRPC-Web (HTTP/2, and HTTP/1.1 for the two that run over fetch too), each with code from its own
 * generator. One generated handler, served by serveNodeHttp2 (h2c) and by serveNode (HTTP/1.1), for the whole file;
 * after every test its streams and running handlers are back to zero.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { serveNode, serveNodeHttp2, type NodeServerHandle } from "../../src/runtime/http/node.js";
import { connectNodeCaller, type ConnectNodeCallerOptions } from "./peers/connect-node-peer.js";
import { generateEsInterop, type EsGenerated, type EsInterop } from "./peers/es-codegen.js";
import { grpcJsCaller } from "./peers/grpc-js-peer.js";
import { payload, type InteropCaller } from "./peers/interop-shape.js";
import { eventually, expectNoLeaks } from "./peers/leaks.js";
import { interopScenarios, type ScenarioOptions } from "./peers/scenarios.js";
import { generateSpecforgeInterop, specforgeImplementation, type HandlerCounters, type SpecforgeGenerated } from "./peers/specforge-peer.js";

let es: EsGenerated<EsInterop>;
let sf: SpecforgeGenerated;
let h2: Awaited<ReturnType<typeof serveNodeHttp2>>;
let h1: NodeServerHandle;
const counters: HandlerCounters = { running: 0, cancelled: 0, protocols: [], encodings: [] };
const callers: InteropCaller[] = [];
const errors: unknown[] = [];

beforeAll(async () => {
  [es, sf] = await Promise.all([generateEsInterop(), generateSpecforgeInterop()]);
  const handler = sf.module.createInteropServiceHandler(specforgeImplementation(sf.module, counters), { onError: (e) => errors.push(e) });
  h2 = await serveNodeHttp2(handler, { port: 0, host: "127.0.0.1" });
  h1 = await serveNode(handler, { port: 0, host: "127.0.0.1" });
});

afterAll(async () => {
  for (const c of callers) await c.close();
  await h2?.close();
  await h1?.close();
  es?.remove();
  sf?.out.remove();
});

let cancelledBefore = 0;
beforeEach(() => {
  cancelledBefore = counters.cancelled;
  errors.length = 0;
});

afterEach(async () => {
  await expectNoLeaks(() => ({ openStreams: h2.openStreams(), running: counters.running }));
  // Failures the behavior throws on purpose are RpcErrors, which onError does not see. A call the client cancelled
  // ends with the abort reason thrown out of the implementation's wait, which the runtime reports there.
  if (counters.cancelled === cancelledBefore) expect(errors).toEqual([]);
});

function pair(title: string, make: () => InteropCaller, options: ScenarioOptions = {}): void {
  describe(title, () => {
    let caller: InteropCaller;
    beforeAll(() => {
      caller = make();
      callers.push(caller);
    });
    interopScenarios(() => ({ caller, es: es.module }), options);

    it("the handler sees a client that stops reading mid-stream as a cancel", async () => {
      const before = counters.cancelled;
      const outcome = await caller.call("ServerStream", [{ payload: payload("cut"), repeat: 1_000, delayMs: 2 }], { takeMessages: 1 });
      expect(outcome.messages).toHaveLength(1);
      expect(await eventually(() => counters.cancelled > before)).toBe(true);
    });
  });
}

const connect = (options: Omit<ConnectNodeCallerOptions, "baseUrl">, url: () => string) => () => connectNodeCaller(es.module, { ...options, baseUrl: url() });

pair("grpc-js client -> specforge server (gRPC)", () => grpcJsCaller(new URL(h2.url).host));
pair("connect-node gRPC client -> specforge server", connect({ protocol: "grpc" }, () => h2.url));
pair("connect-node Connect client, binary, HTTP/2 -> specforge server", connect({ protocol: "connect" }, () => h2.url));
pair("connect-node Connect client, JSON, HTTP/1.1 -> specforge server", connect({ protocol: "connect", json: true, httpVersion: "1.1" }, () => h1.url), { bidi: false });
pair("connect-node gRPC-Web client, binary, HTTP/2 -> specforge server", connect({ protocol: "grpc-web" }, () => h2.url));
pair("connect-node gRPC-Web client, JSON, HTTP/1.1 -> specforge server", connect({ protocol: "grpc-web", json: true, httpVersion: "1.1" }, () => h1.url), { bidi: false });

describe("gzip both ways: compressed requests in, compressed answers out (messages of 1 KiB and more)", () => {
  const big = payload("z".repeat(4_000));
  it.each([
    ["grpc-js (grpc.default_compression_algorithm gzip)", () => grpcJsCaller(new URL(h2.url).host, { "grpc.default_compression_algorithm": 2 })],
    ["connect-node gRPC", () => connectNodeCaller(es.module, { protocol: "grpc", baseUrl: h2.url, gzip: true })],
    ["connect-node Connect", () => connectNodeCaller(es.module, { protocol: "connect", baseUrl: h2.url, gzip: true })],
    ["connect-node gRPC-Web", () => connectNodeCaller(es.module, { protocol: "grpc-web", baseUrl: h2.url, gzip: true })],
  ] as const)("%s", async (_, make) => {
    const caller = make();
    callers.push(caller);
    const before = counters.encodings!.length;
    const unary = await caller.call("Unary", [{ payload: big }]);
    expect([unary.code, unary.messages[0]?.payload?.text.length]).toEqual([0, 4_000]);
    const stream = await caller.call("ServerStream", [{ payload: big, repeat: 2 }]);
    expect(stream.messages.map((m) => m.payload?.text === big.text)).toEqual([true, true]);
    // The requests arrived gzipped, and the answers went out gzipped (the client accepted gzip; grpc-js keeps
    // grpc-encoding out of the metadata it reports, so there only the decoded answers show it worked).
    expect(counters.encodings!.slice(before)).toEqual(["gzip", "gzip"]);
    if (!caller.name.startsWith("grpc-js")) {
      expect(unary.headers.get("grpc-encoding") ?? unary.headers.get("content-encoding")).toBe("gzip");
    }
  });
});

describe("what the specforge handler saw", () => {
  it("every protocol reached the implementation", () => {
    expect(new Set(counters.protocols)).toEqual(new Set(["grpc", "connect", "grpc-web"]));
  });
});
