/**
 * `specforge mock --proxy` for .proto services (issue 30) over real HTTP on 127.0.0.1: the validating proxy in front
 * of real upstreams, called by the generated client over Connect (binary, JSON), gRPC-Web (binary, text) on HTTP/1.1
 * and gRPC on HTTP/2:
 * - an upstream that keeps the contract (the mock itself): answers pass through unchanged, no violation;
 * - a request breaking its protovalidate rules: reported with its field path, forwarded anyway, and the upstream's
 *   own refusal comes back;
 * - an upstream breaking the contract (the generated handler with an implementation answering invalid messages, and
 *   a @grpc/grpc-js server): every bad response message reported, the answer still delivered as sent.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSpecForMock, type LoadedSpec } from "../../src/mock/load.js";
import { createValidatingProxy, type ProxyLogEntry } from "../../src/mock/proxy.js";
import { createRpcMock } from "../../src/mock/rpc.js";
import { serveNode, type NodeServerHandle } from "../../src/runtime/http/node.js";
import { serveNodeHttp2, type NodeHttp2ServerHandle } from "../../src/runtime/http/node-http2.js";
import { BUF_VALIDATE_STUB } from "../emitters/protobuf/protovalidate/harness.js";
import { REPO } from "../helpers/seeds.js";

/* eslint-disable @typescript-eslint/no-explicit-any -- generated and peer clients are untyped here */
type Fn = (...args: any[]) => any;

const PROTO = `syntax = "proto3";
package specforge.proxy.v1;
import "buf/validate/validate.proto";

message Item {
  string name = 1 [(buf.validate.field).string.min_len = 2];
  int64 count = 2;
  bytes data = 3;
}

message Query {
  int32 page_size = 1 [(buf.validate.field).int32 = {gte: 1, lte: 100}];
  string filter = 2;
}

message Summary { int32 received = 1; }

service Items {
  rpc Get(Query) returns (Item);
  rpc List(Query) returns (stream Item);
  rpc Upload(stream Item) returns (Summary);
}
`;
const PEER_PROTO = PROTO.replace(/import "buf\/validate\/validate.proto";\n/, "").replace(/ \[\(buf\.validate[^\]]*\]/g, "");

let dir: string;
let spec: LoadedSpec;
const handles: { close(): Promise<void> }[] = [];
const log: ProxyLogEntry[] = [];
let grpcServer: grpc.Server;

/** A proxy in front of `upstream` ({ h1, h2 } URLs), listening on HTTP/1.1 and HTTP/2 like the CLI. */
async function proxyTo(target: string, grpcTarget: string): Promise<{ h1: string; h2: string }> {
  const proxy = createValidatingProxy(spec, { target, grpcTarget, log: (e) => log.push(e) });
  const a = await serveNode(proxy);
  const b = await serveNodeHttp2(proxy);
  handles.push(a, b);
  return { h1: a.url, h2: b.url };
}

async function serveBoth(handler: (r: Request) => Promise<Response>): Promise<{ h1: NodeServerHandle; h2: NodeHttp2ServerHandle }> {
  const h1 = await serveNode(handler);
  const h2 = await serveNodeHttp2(handler);
  handles.push(h1, h2);
  return { h1, h2 };
}

const BAD = { name: "x", count: 1n, data: new Uint8Array([1]) };
const GOOD = { name: "good", count: 2n, data: new Uint8Array([2]) };

let good: { h1: NodeServerHandle; h2: NodeHttp2ServerHandle };
let viaGood: { h1: string; h2: string };
let viaBad: { h1: string; h2: string };
let viaGrpcJs: { h1: string; h2: string };

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "specforge-rpc-proxy-"));
  mkdirSync(path.join(dir, "buf/validate"), { recursive: true });
  writeFileSync(path.join(dir, "buf/validate/validate.proto"), BUF_VALIDATE_STUB);
  writeFileSync(path.join(dir, "items.proto"), PROTO);
  writeFileSync(path.join(dir, "peer.proto"), PEER_PROTO);
  spec = await loadSpecForMock({ spec: path.join(dir, "items.proto"), protoPaths: [dir] });

  good = await serveBoth(createRpcMock(spec, { seed: 5, streamCount: 3 }));
  // The generated server with an implementation that breaks the rules of its answers (it does not check them).
  const badHandler = (spec.module.createItemsHandler as Fn)({
    get: async () => BAD,
    list: async function* () {
      yield GOOD;
      yield BAD;
    },
    upload: async (requests: AsyncIterable<unknown>) => {
      let n = 0;
      for await (const _ of requests) n++;
      return { received: n };
    },
  });
  const bad = await serveBoth(badHandler);

  // A real gRPC server of another implementation: @grpc/grpc-js, from the .proto without the rules.
  const definition = protoLoader.loadSync(path.join(dir, "peer.proto"), { keepCase: false, longs: String, enums: String, bytes: Buffer, defaults: true });
  const loaded = grpc.loadPackageDefinition(definition) as any;
  grpcServer = new grpc.Server();
  grpcServer.addService(loaded.specforge.proxy.v1.Items.service, {
    get: (call: any, done: Fn) => done(null, call.request.filter === "bad" ? { name: "x", count: "1", data: Buffer.from([1]) } : { name: "from-grpc-js", count: "3", data: Buffer.from([3]) }),
    list: (call: any) => {
      call.write({ name: "first", count: "1" });
      call.write({ name: "" });
      call.end();
    },
    upload: (call: any, done: Fn) => {
      let n = 0;
      call.on("data", () => n++);
      call.on("end", () => done(null, { received: n }));
    },
  });
  const port = await new Promise<number>((resolve, reject) => grpcServer.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));

  viaGood = await proxyTo(good.h1.url, good.h2.url);
  viaBad = await proxyTo(bad.h1.url, bad.h2.url);
  viaGrpcJs = await proxyTo(`http://127.0.0.1:${port}`, `http://127.0.0.1:${port}`);
}, 120_000);

afterAll(async () => {
  await Promise.all(handles.map((h) => h.close()));
  grpcServer?.forceShutdown();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

async function* items(list: unknown[]) {
  for (const x of list) yield x;
}

/** Bytes as a plain Uint8Array (the generated client over node:http2 decodes them as views of Buffers). */
function plain(v: any): any {
  if (Array.isArray(v)) return v.map(plain);
  if (v instanceof Uint8Array) return new Uint8Array(v);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

/** The log entries a call made (it runs alone). */
async function logged<T>(call: () => Promise<T>): Promise<{ value: T; entries: ProxyLogEntry[] }> {
  const from = log.length;
  const value = await call();
  return { value, entries: log.slice(from) };
}

const PROTOCOLS = [
  ["Connect binary", { protocol: "connect" }, "h1"],
  ["Connect JSON", { protocol: "connect", format: "json" }, "h1"],
  ["gRPC-Web", { protocol: "grpc-web" }, "h1"],
  ["gRPC-Web text", { protocol: "grpc-web", grpcWebText: true }, "h1"],
  ["gRPC over HTTP/2", { protocol: "grpc" }, "h2"],
] as const;

describe.each(PROTOCOLS)("the generated client through the proxy, %s", (_name, options, port) => {
  const client = (via: { h1: string; h2: string }) => (spec.module.createItemsClient as Fn)({ baseUrl: via[port], ...options });
  const direct = () => (spec.module.createItemsClient as Fn)({ baseUrl: port === "h1" ? good.h1.url : good.h2.url, ...options });

  it("an upstream keeping the contract: the same answers as without the proxy, and no violation", async () => {
    const { value, entries } = await logged(async () => ({
      one: await client(viaGood).get({ pageSize: 3, filter: "" }),
      many: await collect(client(viaGood).list({ pageSize: 3, filter: "" })),
      summary: await client(viaGood).upload(items([GOOD, GOOD])),
    }));
    expect(value.one).toEqual(await direct().get({ pageSize: 3, filter: "" }));
    expect(value.many).toEqual(await collect(direct().list({ pageSize: 3, filter: "" })));
    expect(value.many).toHaveLength(3);
    expect(value.summary).toEqual(await direct().upload(items([GOOD, GOOD])));
    expect(entries.map((e) => [e.operation, e.status, e.violations])).toEqual([
      ["specforge.proxy.v1.Items/Get", 200, []],
      ["specforge.proxy.v1.Items/List", 200, []],
      ["specforge.proxy.v1.Items/Upload", 200, []],
    ]);
  }, 60_000);

  it("a request breaking its rules is reported, forwarded, and the upstream's refusal comes back", async () => {
    const { value, entries } = await logged(() => client(viaGood).get({ pageSize: 0, filter: "" }).catch((e: unknown) => e));
    expect((value as { code: string }).code).toBe("invalid_argument");
    expect(entries).toHaveLength(1);
    expect(entries[0]!.violations).toEqual([
      { side: "request", message: "request message breaks the rules of specforge.proxy.v1.Query", issues: [expect.objectContaining({ path: expect.stringMatching(/page_?[sS]ize/) })] },
    ]);
    const streamed = await logged(() => client(viaGood).upload(items([GOOD, BAD])).catch((e: unknown) => e));
    expect(streamed.entries[0]!.violations.map((v) => [v.side, v.message])).toEqual([["request", "request message 2 breaks the rules of specforge.proxy.v1.Item"]]);
  }, 60_000);

  it("gzip-compressed messages are checked too (and answers still pass through)", async () => {
    const gz = (via: { h1: string; h2: string }) => (spec.module.createItemsClient as Fn)({ baseUrl: via[port], ...options, sendCompression: "gzip", compressMinBytes: 0 });
    const bad = await logged(() => gz(viaGood).get({ pageSize: 0, filter: "compressed" }).catch((e: unknown) => e));
    expect((bad.value as { code: string }).code).toBe("invalid_argument");
    expect(bad.entries[0]!.violations.map((v) => [v.side, v.message])).toEqual([["request", "request message breaks the rules of specforge.proxy.v1.Query"]]);
    const ok = await logged(() => gz(viaGood).get({ pageSize: 3, filter: "" }));
    expect(ok.value).toEqual(await direct().get({ pageSize: 3, filter: "" }));
    expect(ok.entries[0]!.violations).toEqual([]);
  }, 60_000);

  it("an upstream breaking the contract: every bad message reported, the answer delivered as sent", async () => {
    const one = await logged(() => client(viaBad).get({ pageSize: 3, filter: "" }));
    expect(plain(one.value)).toEqual(BAD);
    expect(one.entries[0]!.violations).toEqual([
      { side: "response", message: "response message breaks the rules of specforge.proxy.v1.Item", issues: [expect.objectContaining({ path: "/name" })] },
    ]);
    const many = await logged(() => collect(client(viaBad).list({ pageSize: 3, filter: "" })));
    expect(plain(many.value)).toEqual([GOOD, BAD]);
    expect(many.entries[0]!.violations.map((v) => v.message)).toEqual(["response message 2 breaks the rules of specforge.proxy.v1.Item"]);
  }, 60_000);
});

describe("a @grpc/grpc-js upstream, through the proxy over gRPC", () => {
  const client = () => (spec.module.createItemsClient as Fn)({ baseUrl: viaGrpcJs.h2, protocol: "grpc" });

  it("passes its valid answers on without violation and reports its invalid ones", async () => {
    const ok = await logged(() => client().get({ pageSize: 1, filter: "ok" }));
    expect(plain(ok.value)).toEqual({ name: "from-grpc-js", count: 3n, data: new Uint8Array([3]) });
    expect(ok.entries[0]!.violations).toEqual([]);
    const bad = await logged<any>(() => client().get({ pageSize: 1, filter: "bad" }));
    expect(bad.value.name).toBe("x");
    expect(bad.entries[0]!.violations.map((v) => [v.side, v.issues?.[0]?.path])).toEqual([["response", "/name"]]);
    const listed = await logged<any>(() => collect(client().list({ pageSize: 1, filter: "" })));
    expect(listed.value.map((m: { name: string }) => m.name)).toEqual(["first", ""]);
    expect(listed.entries[0]!.violations.map((v) => v.message)).toEqual(["response message 2 breaks the rules of specforge.proxy.v1.Item"]);
    const up = await logged(() => client().upload(items([GOOD, GOOD, GOOD])));
    expect(up.value).toEqual({ received: 3 });
    expect(up.entries[0]!.violations).toEqual([]);
  }, 60_000);

  it("an upstream that does not answer is a 502, logged", async () => {
    const proxy = createValidatingProxy(spec, { target: "http://127.0.0.1:9", log: (e) => log.push(e) });
    const { value, entries } = await logged(() => proxy(new Request("http://proxy/specforge.proxy.v1.Items/Get", { method: "POST", headers: { "content-type": "application/proto" }, body: new Uint8Array([8, 1]) })));
    expect(value.status).toBe(502);
    expect(entries[0]!.note).toMatch(/upstream unreachable/);
  });
});

describe("specforge mock --proxy on a .proto (CLI)", () => {
  it("forwards Connect to --proxy and gRPC to --proxy-grpc, logging each call with its violations as JSON", async () => {
    const seed = await loadSpecForMock({ spec: path.join(REPO, "specs/content-stream.proto") });
    const upstream = await serveBoth(createRpcMock(seed, { streamCount: 2 }));
    const child = spawn(process.execPath, [path.join(REPO, "bin/specforge.js"), "mock", "specs/content-stream.proto", "--port", "0", "--json", "--proxy", upstream.h1.url, "--proxy-grpc", upstream.h2.url], { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    try {
      const listening = new Promise<{ url: string; grpcUrl: string; proxy: string }>((resolve, reject) => {
        child.stderr.on("data", (d: Buffer) => {
          stderr += d.toString();
          const line = stderr.split("\n").find((l) => l.includes('"listening"'));
          if (line) resolve(JSON.parse(line) as { url: string; grpcUrl: string; proxy: string });
        });
        child.on("exit", () => reject(new Error(`exited: ${stderr}`)));
      });
      const { url, grpcUrl, proxy } = await listening;
      expect(proxy).toBe(upstream.h1.url);
      for (const [baseUrl, protocol] of [[url, "connect"], [grpcUrl, "grpc"]] as const) {
        const c = (seed.module.createContentFeedClient as Fn)({ baseUrl, protocol });
        const got = await collect(c.streamEntries({ start: 0 }) as AsyncIterable<unknown>);
        expect(got, protocol).toHaveLength(2);
      }
      await new Promise((r) => setTimeout(r, 100));
      const requests = stderr.split("\n").filter((l) => l.includes('"event":"request"')).map((l) => JSON.parse(l) as ProxyLogEntry);
      expect(requests.map((r) => [r.operation, r.upstream, r.violations])).toEqual([
        ["contentApi.ContentFeed/StreamEntries", `${upstream.h1.url}/contentApi.ContentFeed/StreamEntries`, []],
        ["contentApi.ContentFeed/StreamEntries", `${upstream.h2.url}/contentApi.ContentFeed/StreamEntries`, []],
      ]);
    } finally {
      const exited = new Promise<number | null>((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
  }, 60_000);
});
