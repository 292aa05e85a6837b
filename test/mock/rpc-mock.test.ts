/**
 * `specforge mock` for .proto (issue 30) over real HTTP on 127.0.0.1: a service with all four method kinds and
 * protovalidate rules on its requests, mocked and called by
 * - the generated client over Connect (binary and JSON) and gRPC-Web on HTTP/1.1 and gRPC on HTTP/2,
 * - @connectrpc/connect-node (Connect and gRPC on HTTP/2, gRPC-Web on HTTP/1.1) with protoc's descriptors,
 * - @grpc/grpc-js with @grpc/proto-loader;
 * every answer must decode and pass the generated validator, server streams carry `streamCount` messages, bidi
 * streams one answer per request, and a request breaking its rules is `invalid_argument` / INVALID_ARGUMENT.
 * Also the seed content-stream.proto through the generated client, and the CLI command.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { create, createFileRegistry, fromBinary, toBinary, type DescMessage, type DescService } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport, Http2SessionManager } from "@connectrpc/connect-node";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSpecForMock, type LoadedSpec } from "../../src/mock/load.js";
import type { MockLogEntry } from "../../src/mock/rest.js";
import { createRpcMock, mockedRpcMethods } from "../../src/mock/rpc.js";
import { ValueGenerator } from "../../src/mock/values.js";
import { serveNode, type NodeServerHandle } from "../../src/runtime/http/node.js";
import { serveNodeHttp2, type NodeHttp2ServerHandle } from "../../src/runtime/http/node-http2.js";
import { BUF_VALIDATE_STUB } from "../emitters/protobuf/protovalidate/harness.js";
import { REPO } from "../helpers/seeds.js";

/* eslint-disable @typescript-eslint/no-explicit-any -- peer clients are untyped here */
type Fn = (...args: any[]) => any;

const PROTO = `syntax = "proto3";
package specforge.mock.v1;
import "buf/validate/validate.proto";

enum Kind { KIND_UNSPECIFIED = 0; KIND_BOOK = 1; KIND_TOOL = 2; }

message Item {
  string name = 1 [(buf.validate.field).string.min_len = 2];
  int64 count = 2;
  repeated string tags = 3;
  oneof label { string text = 4; int32 code = 5; }
  map<string, int32> scores = 6;
  bytes data = 7;
  Kind kind = 8;
  Item parent = 9;
}

message Query {
  int32 page_size = 1 [(buf.validate.field).int32 = {gte: 1, lte: 100}];
  string filter = 2;
}

message Summary {
  int32 received = 1;
  repeated Item items = 2;
}

service Items {
  rpc Get(Query) returns (Item);
  rpc List(Query) returns (stream Item);
  rpc Upload(stream Item) returns (Summary);
  rpc Chat(stream Item) returns (stream Item);
}
`;
/** The same messages without the rules (the wire format is the same): what the peers compile. */
const PEER_PROTO = PROTO.replace(/import "buf\/validate\/validate.proto";\n/, "").replace(/ \[\(buf\.validate[^\]]*\]/g, "");

const STREAM_COUNT = 4;
let dir: string;
let spec: LoadedSpec;
let gen: ValueGenerator;
let h1: NodeServerHandle;
let h2: NodeHttp2ServerHandle;
const log: MockLogEntry[] = [];
let registry: ReturnType<typeof createFileRegistry>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "specforge-rpc-mock-"));
  mkdirSync(path.join(dir, "buf/validate"), { recursive: true });
  writeFileSync(path.join(dir, "buf/validate/validate.proto"), BUF_VALIDATE_STUB);
  writeFileSync(path.join(dir, "items.proto"), PROTO);
  mkdirSync(path.join(dir, "peer"));
  writeFileSync(path.join(dir, "peer/items.proto"), PEER_PROTO);
  spec = await loadSpecForMock({ spec: path.join(dir, "items.proto"), protoPaths: [dir] });
  gen = new ValueGenerator(spec.doc, { int64: spec.int64, dates: spec.dates });
  const handler = createRpcMock(spec, { seed: 3, streamCount: STREAM_COUNT, log: (e) => log.push(e) });
  h1 = await serveNode(handler);
  h2 = await serveNodeHttp2(handler);
  const set = path.join(dir, "peer.binpb");
  execFileSync("protoc", [`-I${path.join(dir, "peer")}`, "--include_imports", `--descriptor_set_out=${set}`, "items.proto"], { timeout: 30_000 });
  registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, readFileSync(set)));
}, 120_000);

afterAll(async () => {
  await Promise.all([h1?.close(), h2?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const validate = (type: string, value: unknown) => (spec.module[`validate${type}`] as Fn)(value) as unknown[];
const typeId = (name: string) => spec.doc.types.find((t) => t.name === name || t.id.endsWith(`.${name}`))!.id;
const valid = (name: string, s: string) => gen.validValue((x) => gen.value(typeId(name), x), (v) => validate(name, v).length === 0, s)!.value;

async function* items(n: number) {
  for (let i = 0; i < n; i++) yield valid("Item", `req:${i}`);
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

it("serves the four methods of the service", () => {
  expect(mockedRpcMethods(spec.doc, spec.names).map((m) => m.path)).toEqual([
    "/specforge.mock.v1.Items/Get",
    "/specforge.mock.v1.Items/List",
    "/specforge.mock.v1.Items/Upload",
    "/specforge.mock.v1.Items/Chat",
  ]);
});

describe.each([
  ["Connect binary, HTTP/1.1", () => h1.url, { protocol: "connect" }, false],
  ["Connect JSON, HTTP/1.1", () => h1.url, { protocol: "connect", format: "json" }, false],
  ["gRPC-Web, HTTP/1.1", () => h1.url, { protocol: "grpc-web" }, false],
  ["gRPC-Web text, HTTP/1.1", () => h1.url, { protocol: "grpc-web", grpcWebText: true }, false],
  ["gRPC, HTTP/2", () => h2.url, { protocol: "grpc" }, true],
] as const)("the generated client over %s", (_name, url, options, fullDuplex) => {
  const client = () => (spec.module.createItemsClient as Fn)({ baseUrl: url(), ...options });

  it("unary, server and client streaming (and bidi where full duplex) answers all pass the generated validator", async () => {
    const c = client();
    const one = await c.get({ pageSize: 5, filter: "" });
    expect(validate("Item", one)).toEqual([]);
    const listed = await collect(c.list({ pageSize: 5, filter: "" }));
    expect(listed).toHaveLength(STREAM_COUNT);
    for (const m of listed) expect(validate("Item", m)).toEqual([]);
    const summary = await c.upload(items(3));
    expect(validate("Summary", summary)).toEqual([]);
    // Bidi needs both directions open at once: HTTP/2 (the generated client's fetch transport is half-duplex).
    if (!fullDuplex) return;
    const chat = await collect(c.chat(items(3)));
    expect(chat).toHaveLength(3);
    for (const m of chat) expect(validate("Item", m)).toEqual([]);
  }, 60_000);

  it("a request breaking its rules is invalid_argument with the violations", async () => {
    const error = (await client().get({ pageSize: 0, filter: "" }).catch((e: unknown) => e)) as { code: string; message: string; details: { type: string }[] };
    expect(error.code).toBe("invalid_argument");
    expect(error.message).toContain("page_size");
    expect(error.details.map((d) => d.type)).toContain("buf.validate.Violations");
    const streamed = await client().upload(async function* () {
      yield { name: "x", count: 0n, tags: [], scores: {}, data: new Uint8Array(), kind: "KIND_UNSPECIFIED" };
    }()).catch((e: unknown) => e);
    expect((streamed as { code: string }).code).toBe("invalid_argument");
  }, 60_000);
});

describe("connect-node clients (protoc descriptors)", () => {
  const service = () => registry.getService("specforge.mock.v1.Items") as DescService;
  const decodeItem = (m: unknown) => (spec.module.decodeItem as Fn)(toBinary(registry.getMessage("specforge.mock.v1.Item") as DescMessage, m as never));
  const message = (name: string, init: Record<string, unknown>) => create(registry.getMessage(`specforge.mock.v1.${name}`) as DescMessage, init as never);

  it.each([
    ["Connect, HTTP/2", () => createConnectTransport({ baseUrl: h2.url, httpVersion: "2", sessionManager: new Http2SessionManager(h2.url) }), true],
    ["gRPC, HTTP/2", () => createGrpcTransport({ baseUrl: h2.url, sessionManager: new Http2SessionManager(h2.url) }), true],
    ["gRPC-Web, HTTP/1.1", () => createGrpcWebTransport({ baseUrl: h1.url, httpVersion: "1.1" }), false],
    ["Connect JSON, HTTP/1.1", () => createConnectTransport({ baseUrl: h1.url, httpVersion: "1.1", useBinaryFormat: false }), false],
  ] as const)("%s: every method kind answers, each message valid by the generated validator", async (_name, transport, streamsUp) => {
    const c = createClient(service(), transport()) as unknown as Record<string, Fn>;
    const one = await c.get!(message("Query", { pageSize: 7 }));
    expect(validate("Item", decodeItem(one))).toEqual([]);
    const listed = await collect(c.list!(message("Query", { pageSize: 7 })) as AsyncIterable<unknown>);
    expect(listed).toHaveLength(STREAM_COUNT);
    for (const m of listed) expect(validate("Item", decodeItem(m))).toEqual([]);
    const bad = (await c.get!(message("Query", { pageSize: 1000 })).catch((e: unknown) => e)) as ConnectError;
    expect(bad).toBeInstanceOf(ConnectError);
    expect(bad.code).toBe(Code.InvalidArgument);
    // Client and bidi streams need a full-duplex transport (HTTP/2) in connect-node.
    if (!streamsUp) return;
    async function* up() {
      for (let i = 0; i < 3; i++) yield message("Item", { name: `item-${i}` });
    }
    const summary = await c.upload!(up());
    expect(summary.received).toBeTypeOf("number");
    const chat = await collect(c.chat!(up()) as AsyncIterable<unknown>);
    expect(chat).toHaveLength(3);
    for (const m of chat) expect(validate("Item", decodeItem(m))).toEqual([]);
  }, 60_000);
});

describe("grpc-js client (proto-loader)", () => {
  let client: Record<string, Fn> & grpc.Client;
  beforeAll(() => {
    const definition = protoLoader.loadSync(path.join(dir, "peer/items.proto"), { keepCase: false, longs: String, enums: String, bytes: Buffer, defaults: true });
    const loaded = grpc.loadPackageDefinition(definition) as any;
    client = new loaded.specforge.mock.v1.Items(new URL(h2.url).host, grpc.credentials.createInsecure());
  });
  afterAll(() => client?.close());

  const unary = (method: string, request: unknown) =>
    new Promise<any>((resolve, reject) => client[method]!(request, (error: grpc.ServiceError | null, value: unknown) => (error ? reject(error) : resolve(value))));
  const itemOk = (m: any) => {
    expect(typeof m.name).toBe("string");
    expect(m.name.length).toBeGreaterThanOrEqual(2);
    expect(["KIND_UNSPECIFIED", "KIND_BOOK", "KIND_TOOL"]).toContain(m.kind);
  };

  it("unary, server streaming, client streaming and bidi all answer", async () => {
    itemOk(await unary("get", { pageSize: 3 }));
    const listed: any[] = await collect(client.list!({ pageSize: 3 }) as AsyncIterable<any>);
    expect(listed).toHaveLength(STREAM_COUNT);
    listed.forEach(itemOk);
    const summary = await new Promise<any>((resolve, reject) => {
      const call = client.upload!((error: grpc.ServiceError | null, value: unknown) => (error ? reject(error) : resolve(value)));
      for (let i = 0; i < 3; i++) call.write({ name: `item-${i}` });
      call.end();
    });
    expect(typeof summary.received).toBe("number");
    const chat = client.chat!();
    const answers: any[] = [];
    const done = new Promise<void>((resolve, reject) => {
      chat.on("data", (m: any) => answers.push(m));
      chat.on("end", resolve);
      chat.on("error", reject);
    });
    for (let i = 0; i < 3; i++) chat.write({ name: `item-${i}` });
    chat.end();
    await done;
    expect(answers).toHaveLength(3);
    answers.forEach(itemOk);
  }, 60_000);

  it("a request breaking its rules is INVALID_ARGUMENT", async () => {
    const error = (await unary("get", { pageSize: 0 }).catch((e: unknown) => e)) as grpc.ServiceError;
    expect(error.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(error.details).toContain("page_size");
  });
});

it("logs every call with its method", () => {
  const methods = new Set(log.map((e) => e.operation));
  for (const m of ["Get", "List", "Upload", "Chat"]) expect(methods.has(`specforge.mock.v1.Items/${m}`)).toBe(true);
});

describe("the seed content-stream.proto and the specforge mock command", () => {
  it("listens on HTTP/1.1 and HTTP/2, answers StreamEntries with --stream-count messages over Connect and gRPC", async () => {
    const child = spawn(process.execPath, [path.join(REPO, "bin/specforge.js"), "mock", "specs/content-stream.proto", "--port", "0", "--stream-count", "5", "--json"], { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    const listening = new Promise<{ url: string; grpcUrl: string; operations: number }>((resolve, reject) => {
      child.stderr.on("data", (d: Buffer) => {
        stderr += d.toString();
        const line = stderr.split("\n").find((l) => l.includes('"listening"'));
        if (line) resolve(JSON.parse(line) as { url: string; grpcUrl: string; operations: number });
      });
      child.on("exit", () => reject(new Error(`exited: ${stderr}`)));
    });
    const { url, grpcUrl, operations } = await listening;
    expect(operations).toBe(1);
    const seed = await loadSpecForMock({ spec: path.join(REPO, "specs/content-stream.proto") });
    for (const [baseUrl, protocol] of [[url, "connect"], [url, "grpc-web"], [grpcUrl, "grpc"]] as const) {
      const c = (seed.module.createContentFeedClient as Fn)({ baseUrl, protocol });
      const got = await collect(c.streamEntries({ start: 0 }) as AsyncIterable<unknown>);
      expect(got, protocol).toHaveLength(5);
      for (const m of got) expect((seed.module.validateStreamedEntry as Fn)(m)).toEqual([]);
    }
    await new Promise((r) => setTimeout(r, 100));
    const requests = stderr.split("\n").filter((l) => l.includes('"request"')).map((l) => JSON.parse(l) as MockLogEntry);
    expect(requests.filter((r) => r.operation === "contentApi.ContentFeed/StreamEntries")).toHaveLength(3);
    const exited = new Promise<number | null>((r) => child.once("exit", r));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 60_000);
});

describe("specforge mock refusals", () => {
  it("a .proto without a service, and --proxy-grpc without --proxy, are usage errors", () => {
    const run = (args: string[]) => spawnSync(process.execPath, [path.join(REPO, "bin/specforge.js"), "mock", ...args, "--port", "0"], { cwd: REPO, encoding: "utf8", timeout: 60_000 });
    const none = run(["specs/content.proto"]);
    expect(none.status).not.toBe(0);
    expect(none.stderr).toContain("specs/content.proto declares no service");
    const proxied = run(["specs/content-stream.proto", "--proxy-grpc", "http://127.0.0.1:9"]);
    expect(proxied.status).not.toBe(0);
    expect(proxied.stderr).toContain("--proxy-grpc: only with --proxy, for a .proto");
  }, 60_000);
});
