import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { create, type DescMessage, type DescService } from "@bufbuild/protobuf";
import { createClient, type ServiceImpl } from "@connectrpc/connect";
import { connectNodeAdapter, createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { nodeSpecHost } from "../src/parsers/host.js";
import { generateSpec } from "../src/pipeline/generate-files.js";
import { generateEsInterop, type EsInterop } from "../test/rpc/peers/es-codegen.js";
import { INTEROP_PROTO } from "../test/rpc/peers/interop-shape.js";
import { interleaved, type BenchResult, type BenchSuite } from "./harness.js";

/**
 * gRPC over HTTP/2 on loopback, one process: each side's own client calling its own server, with message code from
 * its own generator for test/rpc/fixtures/interop.proto (specforge's pipeline, protoc-gen-es for connect-node,
 * proto-loader for grpc-js), the same payload for all:
 * - unary: requests per CPU-second, UNARY_CONCURRENCY calls in flight on one HTTP/2 connection;
 * - server streaming: messages per CPU-second of one call streaming STREAM_MESSAGES answers.
 * Every handler only echoes (no conversion layer of the tests' harness), so the figures are the RPC stack's cost.
 * CPU time of this process (client + server), rounds of the sides alternating, median of the rounds: the machine is
 * shared and noisy (see harness.ts). Ratios are ours / peer, > 1 meaning specforge is faster.
 */

const UNARY_CALLS = 400;
const UNARY_CONCURRENCY = 8;
const STREAM_MESSAGES = 2_000;
const ROUNDS = 9;

const TEXT = "the quick brown fox jumps over the lazy dog, 0123456789";
const DATA = new Uint8Array(64).map((_, i) => i * 7);
const TAGS = ["alpha", "beta", "gamma"];
const NUMBER = -9_007_199_254_740_993n;

/** One side of the comparison: a connected client, the two operations, and cleanup. */
interface Side {
  unaryBatch(): Promise<void>;
  streamOnce(): Promise<void>;
  close(): Promise<void>;
}

async function inFlight(total: number, concurrency: number, call: () => Promise<void>): Promise<void> {
  let started = 0;
  const worker = async () => {
    while (started++ < total) await call();
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`rpc bench: unexpected ${what}`);
}

// ---------------------------------------------------------------------------------------------------------------
// grpc-js

/* eslint-disable @typescript-eslint/no-explicit-any -- proto-loader objects are untyped */
async function grpcJsSide(): Promise<Side> {
  const definition = protoLoader.loadSync(INTEROP_PROTO, { keepCase: false, longs: String, enums: String, defaults: true });
  const service = (grpc.loadPackageDefinition(definition) as any).specforge.interop.v1.InteropService.service as grpc.ServiceDefinition;
  const server = new grpc.Server();
  server.addService(service, {
    Unary: (call: grpc.ServerUnaryCall<any, any>, callback: grpc.sendUnaryData<any>) => callback(null, { payload: call.request.payload, index: 0 }),
    ServerStream: (call: grpc.ServerWritableStream<any, any>) => {
      for (let i = 0; i < call.request.repeat; i++) call.write({ payload: call.request.payload, index: i });
      call.end();
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  const Client = grpc.makeGenericClientConstructor(service, "InteropService");
  const client = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as any;
  const payload = { text: TEXT, number: NUMBER.toString(), data: Buffer.from(DATA), tags: TAGS, mood: "MOOD_LOUD" };
  const unary = () =>
    new Promise<void>((resolve, reject) =>
      client.Unary({ payload }, (e: Error | null, r: any) => (e ? reject(e) : (check(r.payload.text === TEXT, "answer"), resolve()))),
    );
  return {
    unaryBatch: () => inFlight(UNARY_CALLS, UNARY_CONCURRENCY, unary),
    streamOnce: () =>
      new Promise<void>((resolve, reject) => {
        let n = 0;
        const call = client.ServerStream({ payload, repeat: STREAM_MESSAGES });
        call.on("data", () => void n++);
        call.on("error", reject);
        call.on("end", () => (check(n === STREAM_MESSAGES, "message count"), resolve()));
      }),
    close: async () => {
      client.close();
      server.forceShutdown();
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// connect-node

async function listenH2(server: http2.Http2Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function connectNodeSide(es: EsInterop): Promise<Side> {
  const impl = {
    unary: (request: any) => ({ payload: request.payload, index: 0 }),
    async *serverStream(request: any) {
      for (let i = 0; i < request.repeat; i++) yield { payload: request.payload, index: i };
    },
  };
  const server = http2.createServer(connectNodeAdapter({ routes: (router) => router.service(es.InteropService, impl as unknown as Partial<ServiceImpl<DescService>>) }));
  const baseUrl = await listenH2(server);
  const sessionManager = new Http2SessionManager(baseUrl);
  const client = createClient(es.InteropService, createGrpcTransport({ baseUrl, sessionManager })) as unknown as Record<string, (input: unknown) => any>;
  const payload = create(es.PayloadSchema as DescMessage, { text: TEXT, number: NUMBER, data: DATA, tags: TAGS, mood: 2 } as never);
  return {
    unaryBatch: () =>
      inFlight(UNARY_CALLS, UNARY_CONCURRENCY, async () => check((await client.unary!({ payload })).payload.text === TEXT, "answer")),
    streamOnce: async () => {
      let n = 0;
      for await (const _ of client.serverStream!({ payload, repeat: STREAM_MESSAGES }) as AsyncIterable<unknown>) n++;
      check(n === STREAM_MESSAGES, "message count");
    },
    close: async () => {
      sessionManager.abort();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// specforge

interface SfPayload { text: string; number: bigint; data: Uint8Array; tags?: string[]; mood: string }
interface SfRequest { payload?: SfPayload; repeat: number; failCode: number; failMessage: string; delayMs: number }
interface SfResponse { payload?: SfPayload; index: number }
interface SfModule {
  createInteropServiceClient(options: { baseUrl: string; protocol: "grpc" }): {
    unary(request: SfRequest): Promise<SfResponse>;
    serverStream(request: SfRequest): AsyncIterable<SfResponse>;
    close?(): void;
  };
  createInteropServiceHandler(impl: object): (request: Request) => Promise<Response>;
}

/** interop.proto through specforge into a temporary folder, its runtime imports pointed at this checkout's source. */
async function generateSpecforge(): Promise<{ module: SfModule; remove(): void }> {
  const { mkdtempSync, mkdirSync, rmSync, writeFileSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const runtimeModule = pathToFileURL(path.resolve(import.meta.dirname, "../src/runtime/index.ts")).href;
  const out = generateSpec({ file: INTEROP_PROTO, display: "interop.proto", runtimeModule }, nodeSpecHost({}));
  const root = mkdtempSync(path.join(tmpdir(), "specforge-rpc-bench-"));
  for (const file of out.files) {
    mkdirSync(path.dirname(path.join(root, file.path)), { recursive: true });
    writeFileSync(path.join(root, file.path), file.content);
  }
  const module = (await import(pathToFileURL(path.join(root, out.dir, "connect.ts")).href)) as SfModule;
  return { module, remove: () => rmSync(root, { recursive: true, force: true }) };
}

async function specforgeSide(sf: SfModule): Promise<Side> {
  const { serveNodeHttp2 } = await import("../src/runtime/http/node.js");
  const handler = sf.createInteropServiceHandler({
    unary: async (request: SfRequest) => ({ payload: request.payload, index: 0 }),
    async *serverStream(request: SfRequest) {
      for (let i = 0; i < request.repeat; i++) yield { payload: request.payload, index: i };
    },
  });
  const server = await serveNodeHttp2(handler, { port: 0, host: "127.0.0.1" });
  const client = sf.createInteropServiceClient({ baseUrl: server.url, protocol: "grpc" });
  const payload: SfPayload = { text: TEXT, number: NUMBER, data: DATA, tags: TAGS, mood: "MOOD_LOUD" };
  const request = (repeat: number): SfRequest => ({ payload, repeat, failCode: 0, failMessage: "", delayMs: 0 });
  return {
    unaryBatch: () => inFlight(UNARY_CALLS, UNARY_CONCURRENCY, async () => check((await client.unary(request(0))).payload?.text === TEXT, "answer")),
    streamOnce: async () => {
      let n = 0;
      for await (const _ of client.serverStream(request(STREAM_MESSAGES))) n++;
      check(n === STREAM_MESSAGES, "message count");
    },
    close: async () => {
      client.close?.();
      await server.close();
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------

type SideName = "specforge" | "connect-node" | "grpc-js";
const SIDES: readonly SideName[] = ["specforge", "connect-node", "grpc-js"];

function rows(title: string, unit: string, rates: Record<SideName, number>): BenchResult[] {
  return (["connect-node", "grpc-js"] as const).map((peer) => ({
    name: `${title} vs ${peer}`,
    ours: Math.round(rates.specforge),
    peer: Math.round(rates[peer]),
    peerName: peer,
    unit,
    ratio: Number((rates.specforge / rates[peer]).toFixed(2)),
  }));
}

export const suite: BenchSuite = {
  name: "rpc",
  async run() {
    const es = await generateEsInterop();
    const sf = await generateSpecforge();
    const sides: Record<SideName, Side> = {
      specforge: await specforgeSide(sf.module),
      "connect-node": await connectNodeSide(es.module),
      "grpc-js": await grpcJsSide(),
    };
    try {
      const unary = await interleaved(SIDES, UNARY_CALLS, ROUNDS, (side) => sides[side].unaryBatch());
      const stream = await interleaved(SIDES, STREAM_MESSAGES, ROUNDS, (side) => sides[side].streamOnce());
      return [
        ...rows("rpc gRPC unary (h2c loopback, client+server)", "req/cpu-s", unary),
        ...rows("rpc gRPC server stream (h2c loopback)", "msg/cpu-s", stream),
      ];
    } finally {
      for (const side of Object.values(sides)) await side.close();
      es.remove();
      sf.remove();
    }
  },
};
