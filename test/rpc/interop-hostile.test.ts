/**
 * What no well-behaved client sends, byte by byte over HTTP/2: unknown methods, wrong content types, truncated and
 * undecodable envelopes, a compressed flag without an encoding, an unknown encoding, messages over the size limit,
 * the wrong number of messages for a unary method, and clients that cut a stream off. Each case runs against the
 * specforge server and, as the reference, a connect-node server of the same .proto with the same 1 KiB message
 * limit: both must give the status the table names. For specforge, nothing may leak afterwards: the implementation
 * sees the cancel, and open streams and running handlers get back to zero.
 */
import type { ClientHttp2Session } from "node:http2";
import { create, toBinary, type DescMessage } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveNodeHttp2 } from "../../src/runtime/http/node.js";
import { startConnectNodeServer } from "./peers/connect-node-peer.js";
import { generateEsInterop, type EsGenerated, type EsInterop } from "./peers/es-codegen.js";
import { SERVICE } from "./peers/interop-shape.js";
import { eventually, expectNoLeaks } from "./peers/leaks.js";
import { cutStream, envelope, rawRequest, rawSession, type RawAnswer, type RawRequest } from "./peers/raw-h2.js";
import { generateSpecforgeInterop, specforgeImplementation, type HandlerCounters, type SpecforgeGenerated } from "./peers/specforge-peer.js";

const LIMIT = 1024;

let es: EsGenerated<EsInterop>;
let sf: SpecforgeGenerated;
const counters: HandlerCounters = { running: 0, cancelled: 0, protocols: [] };
interface Target {
  readonly url: string;
  /** Streams in flight, when the server can tell (specforge's adapter). */
  readonly openStreams?: () => number;
  close(): Promise<void>;
}
const targets: Record<string, Target> = {};

beforeAll(async () => {
  [es, sf] = await Promise.all([generateEsInterop(), generateSpecforgeInterop()]);
  const handler = sf.module.createInteropServiceHandler(specforgeImplementation(sf.module, counters), { maxMessageBytes: LIMIT });
  const specforge = await serveNodeHttp2(handler, { port: 0, host: "127.0.0.1" });
  targets.specforge = { url: specforge.url, openStreams: () => specforge.openStreams(), close: () => specforge.close() };
  const reference = await startConnectNodeServer(es.module, { readMaxBytes: LIMIT, writeMaxBytes: LIMIT });
  targets["connect-node"] = { url: reference.http2Url, close: () => reference.close() };
});

afterAll(async () => {
  for (const t of Object.values(targets)) await t.close();
  es?.remove();
  sf?.out.remove();
});

/** EchoRequest bytes from protoc-gen-es's encoder (independent of both servers' decoders). */
function echoRequest(init: Record<string, unknown>): Uint8Array {
  return toBinary(es.module.EchoRequestSchema as DescMessage, create(es.module.EchoRequestSchema as DescMessage, init as never));
}

const path = (method: string) => `/${SERVICE}/${method}`;

interface Case {
  readonly name: string;
  readonly request: () => RawRequest;
  /** What the answer must show. */
  readonly check: (answer: RawAnswer) => void;
  /** Where connect-node, the reference, answers otherwise (and why that is still acceptable), or "skip". */
  readonly connectNode?: ((answer: RawAnswer) => void) | "skip";
}

/** connect-node's adapter answers a path it has no route for with a bare HTTP 404 (no grpc-status): gRPC clients
 * map 404 to unimplemented, but the gRPC spec has servers answer 200 with grpc-status 12, as grpc-js does. */
const http404 = (answer: RawAnswer) => expect({ http: answer.status, grpc: answer.grpcStatus }).toEqual({ http: 404, grpc: undefined });

const grpcStatus = (code: number) => (answer: RawAnswer) => {
  expect({ http: answer.status, grpc: answer.grpcStatus }).toEqual({ http: 200, grpc: code });
};

const protocolError = (answer: RawAnswer) => {
  expect(answer.status).toBe(200);
  expect([3, 12, 13]).toContain(answer.grpcStatus);
  expect(answer.body.length).toBe(0);
};

const CASES: readonly Case[] = [
  { name: "an unknown method: unimplemented", request: () => ({ path: path("Nope"), body: [envelope(new Uint8Array(0))] }), check: grpcStatus(12), connectNode: http404 },
  {
    name: "an unknown service: unimplemented",
    request: () => ({ path: "/no.such.Service/Unary", body: [envelope(new Uint8Array(0))] }),
    check: grpcStatus(12),
    connectNode: http404,
  },
  {
    name: "a wrong content type: HTTP 415",
    request: () => ({ path: path("Unary"), headers: { "content-type": "text/plain" }, body: [new TextEncoder().encode("hello")] }),
    check: (answer) => expect(answer.status).toBe(415),
  },
  {
    name: "a truncated envelope (5-byte header promises more than arrives): invalid_argument",
    request: () => ({ path: path("Unary"), body: [envelope(new Uint8Array([8, 1]), 0, 100)] }),
    check: grpcStatus(3),
  },
  {
    name: "a cut envelope header (3 of its 5 bytes): invalid_argument",
    request: () => ({ path: path("Unary"), body: [new Uint8Array([0, 0, 0])] }),
    check: grpcStatus(3),
  },
  {
    // connect-es answers `internal` ("parse binary"), like grpc-go; connect-go says invalid_argument.
    name: "bytes that are not an EchoRequest: internal or invalid_argument",
    request: () => ({ path: path("Unary"), body: [envelope(new Uint8Array([0x0a, 0xff, 0x01]))] }),
    check: (answer) => {
      expect(answer.status).toBe(200);
      expect([3, 13]).toContain(answer.grpcStatus);
    },
  },
  {
    name: "the compressed flag without a grpc-encoding: internal",
    request: () => ({ path: path("Unary"), body: [envelope(echoRequest({ repeat: 1 }), 1)] }),
    check: grpcStatus(13),
  },
  {
    name: "an encoding the server does not know: unimplemented, naming the ones it does",
    request: () => ({ path: path("Unary"), headers: { "grpc-encoding": "snappy" }, body: [envelope(echoRequest({ repeat: 1 }), 1)] }),
    check: (answer) => {
      grpcStatus(12)(answer);
      expect(answer.trailers["grpc-accept-encoding"] ?? answer.headers["grpc-accept-encoding"]).toMatch(/gzip/);
    },
  },
  {
    name: "a message over the size limit: resource_exhausted",
    request: () => ({ path: path("Unary"), body: [envelope(echoRequest({ payload: { text: "x".repeat(LIMIT * 2) } }))] }),
    check: grpcStatus(8),
  },
  {
    name: "a header claiming 64 MiB (the bytes never come): resource_exhausted at once",
    request: () => ({ path: path("ClientStream"), body: [envelope(new Uint8Array(10), 0, 64 << 20)], keepOpen: true }),
    check: grpcStatus(8),
    // connect-node checks its limit as the bytes arrive, so it waits for them: this request would hang.
    connectNode: "skip",
  },
  // The wrong number of messages for a single-request method: the references disagree (connect-es says
  // unimplemented, grpc-go internal, specforge invalid_argument); each is a failed call with a status, not an answer.
  {
    name: "no request message for a unary method: a protocol error status",
    request: () => ({ path: path("Unary"), body: [] }),
    check: protocolError,
    connectNode: grpcStatus(12),
  },
  {
    name: "two request messages for a unary method: a protocol error status",
    request: () => ({ path: path("Unary"), body: [envelope(echoRequest({})), envelope(echoRequest({}))] }),
    check: protocolError,
    connectNode: grpcStatus(12),
  },
  {
    name: "a valid call still works (the table's own baseline)",
    request: () => ({ path: path("Unary"), body: [envelope(echoRequest({ payload: { text: "fine" } }))] }),
    check: (answer) => {
      grpcStatus(0)(answer);
      expect(answer.body.subarray(5).includes(Buffer.from("fine"))).toBe(true);
    },
  },
];

describe.each(["connect-node", "specforge"])("%s server, raw gRPC", (name) => {
  let session: ClientHttp2Session;
  beforeAll(() => {
    session = rawSession(targets[name]!.url);
  });
  afterAll(() => session?.close());

  for (const c of CASES) {
    const check = name === "connect-node" && c.connectNode !== undefined ? c.connectNode : c.check;
    if (check === "skip") continue;
    it(c.name, async () => {
      const answer = await rawRequest(session, c.request());
      check(answer);
      if (name === "specforge") await expectNoLeaks(() => ({ openStreams: targets.specforge!.openStreams!(), running: counters.running }));
    });
  }
});

describe("specforge server, clients that go away", () => {
  const stream = () => ({ path: path("ServerStream"), body: [envelope(echoRequest({ payload: { text: "drip" }, repeat: 1_000, delayMs: 2 }))] });

  it.each(["reset", "close-session"] as const)("a %s mid-stream: the handler sees the cancel, nothing stays open", async (how) => {
    const before = counters.cancelled;
    expect(await cutStream(targets.specforge!.url, stream(), how)).toBeGreaterThan(0);
    expect(await eventually(() => counters.cancelled > before)).toBe(true);
    await expectNoLeaks(() => ({ openStreams: targets.specforge!.openStreams!(), running: counters.running }));
  });

  it("a bidi call whose client resets before sending everything", async () => {
    const before = counters.cancelled;
    const request = { path: path("BidiStream"), body: [envelope(echoRequest({ payload: { text: "half" } }))], keepOpen: true };
    // The first answer arrives while the request stream is still open; then the client resets it. With destroy():
    // node's stream.close(CANCEL) (what grpc-js's cancel does) first half-closes the request with END_STREAM and only
    // then sends RST_STREAM, so a handler may well see a complete request stream before the reset.
    const session = rawSession(targets.specforge!.url);
    const h2stream = session.request({ ":method": "POST", ":path": request.path, "content-type": "application/grpc", te: "trailers" });
    h2stream.on("error", () => undefined);
    h2stream.write(request.body[0]);
    await new Promise<void>((resolve) => h2stream.once("data", () => resolve()));
    h2stream.destroy(new Error("the client goes away"));
    expect(await eventually(() => counters.cancelled > before)).toBe(true);
    await expectNoLeaks(() => ({ openStreams: targets.specforge!.openStreams!(), running: counters.running }));
    session.close();
  });
});
