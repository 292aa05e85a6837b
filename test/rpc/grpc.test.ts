// specforge gRPC client <-> specforge server over node:http2 (h2c and TLS): every method kind, trailers, deadlines,
// compression, limits, malformed frames, and leak accounting (open streams back to zero, handlers see cancellation).
import { connect as http2Connect, constants } from "node:http2";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveNodeHttp2, type NodeHttp2ServerHandle } from "../../src/runtime/http/node-http2.js";
import { decodeRpcStatus } from "../../src/runtime/rpc/status-details.js";
import type { TempOutput } from "../emitters/proto-http/generate-temp.js";
import { collect, eventually, implementation, loadInterop, payloadOf, rejection, type InteropClient, type InteropModule, type Observed } from "./service.js";

let module: InteropModule;
let output: TempOutput;
let h2c: NodeHttp2ServerHandle;
let tls: NodeHttp2ServerHandle | undefined;
let cert: string | undefined;
const observed: Observed = { running: 0, aborted: 0 };
const PATH = "/specforge.interop.v1.InteropService";

/** A self-signed certificate for 127.0.0.1 (openssl is on the machine; without it the TLS case is skipped). */
function selfSigned(): { key: string; cert: string } | undefined {
  const dir = mkdtempSync(path.join(tmpdir(), "specforge-tls-"));
  try {
    execFileSync("openssl", [
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
      "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem"),
    ], { stdio: "ignore" });
    return { key: readFileSync(path.join(dir, "key.pem"), "utf8"), cert: readFileSync(path.join(dir, "cert.pem"), "utf8") };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  ({ module, output } = await loadInterop());
  const handler = module.createInteropServiceHandler(implementation(observed), { maxMessageBytes: 64 * 1024 });
  h2c = await serveNodeHttp2(handler);
  const pair = selfSigned();
  if (pair) {
    cert = pair.cert;
    tls = await serveNodeHttp2(handler, { tls: pair });
  }
});
afterAll(async () => {
  await Promise.all([h2c?.close(), tls?.close()]);
  output?.remove();
});

function grpcClient(extra: Record<string, unknown> = {}) {
  return module.createInteropServiceClient({ baseUrl: h2c.url, protocol: "grpc", ...extra });
}

async function* slowly<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) {
    await new Promise((r) => setTimeout(r, 1));
    yield item;
  }
}

describe("gRPC over h2c", () => {
  it("calls all four method kinds", async () => {
    const client = grpcClient();
    expect((await client.unary({ payload: payloadOf("u") })).payload?.text).toBe("u");
    expect((await collect(client.serverStream({ payload: payloadOf("s"), repeat: 3 }))).map((a) => a.index)).toEqual([0, 1, 2]);
    const counted = await client.clientStream(slowly([{ payload: payloadOf("a") }, { payload: payloadOf("b") }, { payload: payloadOf("c") }]));
    expect([counted.index, counted.payload?.text]).toEqual([3, "c"]);
    const echoed = await collect(client.bidiStream(slowly(["x", "y"].map((t) => ({ payload: payloadOf(t) })))));
    expect(echoed.map((a) => [a.index, a.payload?.text])).toEqual([[0, "x"], [1, "y"]]);
  });

  it("interleaves bidi requests and answers (each answer before the next request)", async () => {
    const client = grpcClient();
    let release: (() => void) | undefined;
    const seen: string[] = [];
    async function* requests() {
      yield { payload: payloadOf("first") };
      await new Promise<void>((r) => (release = r));
      yield { payload: payloadOf("second") };
    }
    for await (const answer of client.bidiStream(requests())) {
      seen.push(answer.payload!.text);
      release?.();
    }
    expect(seen).toEqual(["first", "second"]);
  });

  it("sends partial proto3 messages with the JSON codec as binary does (absent implicit fields read as zero)", async () => {
    // Generated types want every proto3 field, but a streamed request built by hand often leaves some out.
    const partial = [{ payload: { text: "p" } }, {}, { payload: {} }] as unknown as Parameters<InteropClient["bidiStream"]>[0];
    for (const format of ["json", "proto"] as const) {
      const answers = await collect(grpcClient({ format }).bidiStream(partial));
      expect(answers.map((a) => [a.index, a.payload?.text, a.payload?.number])).toEqual([[0, "p", 0n], [1, undefined, undefined], [2, "", 0n]]);
    }
  });

  it("sends metadata both ways, trailers included", async () => {
    let headers: Headers | undefined;
    let trailers: Headers | undefined;
    await grpcClient().unary({ payload: payloadOf("m") }, { headers: { "x-ping": "h2" }, onHeader: (h) => (headers = h), onTrailer: (t) => (trailers = t) });
    expect(headers?.get("x-echo")).toBe("h2");
    expect(trailers?.get("x-trailer")).toBe("done");
    expect(trailers?.get("grpc-status")).toBe("0");
  });

  it("carries a status with details in grpc-status-details-bin", async () => {
    const error = await rejection(grpcClient().unary({ failCode: 9, failMessage: "no: ünïcode 100%" }));
    expect(error.code).toBe("failed_precondition");
    expect(error.rawMessage).toBe("no: ünïcode 100%");
    expect(error.details).toEqual([{ type: "google.rpc.ErrorInfo", value: new Uint8Array([10, 3, 119, 104, 121]) }]);
    expect(error.metadata.get("x-fail")).toBe("yes");
  });

  it("ends a server stream with an error status in the trailers", async () => {
    const seen: number[] = [];
    const error = await rejection((async () => {
      for await (const a of grpcClient().serverStream({ repeat: 2, failCode: 14 })) seen.push(a.index);
    })());
    expect([seen, error.code]).toEqual([[0, 1], "unavailable"]);
  });

  it("enforces grpc-timeout on both sides, and the handler sees the cancellation", async () => {
    const before = observed.aborted;
    const error = await rejection(grpcClient().unary({ delayMs: 5000 }, { timeoutMs: 50 }));
    expect(error.code).toBe("deadline_exceeded");
    expect(await eventually(() => observed.running === 0 && h2c.openStreams() === 0)).toBe(true);
    expect(observed.aborted).toBeGreaterThan(before);
  });

  it("cancels through AbortSignal mid-stream", async () => {
    const abort = new AbortController();
    const seen: number[] = [];
    const error = await rejection((async () => {
      for await (const a of grpcClient().serverStream({ repeat: 1000, delayMs: 5 }, { signal: abort.signal })) {
        seen.push(a.index);
        if (seen.length === 2) abort.abort();
      }
    })());
    expect(error.code).toBe("canceled");
    expect(await eventually(() => observed.running === 0 && h2c.openStreams() === 0)).toBe(true);
  });

  it("stops the server's generator when the client stops reading", async () => {
    const before = observed.aborted;
    for await (const a of grpcClient().serverStream({ repeat: 1000, delayMs: 2 })) {
      if (a.index === 1) break;
    }
    expect(await eventually(() => observed.running === 0 && h2c.openStreams() === 0)).toBe(true);
    expect(observed.aborted).toBeGreaterThan(before);
  });

  it("compresses with gzip both ways", async () => {
    const big = "z".repeat(20_000);
    const client = grpcClient({ sendCompression: "gzip" });
    const answer = await client.unary({ payload: payloadOf(big) }, { onHeader: (h) => expect(h.get("grpc-encoding")).toBe("gzip") });
    expect(answer.payload?.text).toBe(big);
  });

  it("refuses a message over the limit with resource_exhausted", async () => {
    const error = await rejection(grpcClient().unary({ payload: payloadOf("x".repeat(70_000)) }));
    expect(error.code).toBe("resource_exhausted");
    expect(await eventually(() => h2c.openStreams() === 0)).toBe(true);
  });

  it.runIf(() => tls !== undefined)("works over TLS", async () => {
    const client = module.createInteropServiceClient({ baseUrl: tls!.url, protocol: "grpc", tls: { ca: cert } });
    expect((await client.unary({ payload: payloadOf("tls") })).payload?.text).toBe("tls");
    expect((await collect(client.bidiStream([{ payload: payloadOf("b") }]))).length).toBe(1);
  });

  it("runs Connect bidi streaming over the HTTP/2 transport", async () => {
    const { http2Transport } = await import("../../src/runtime/rpc/transport-http2.js");
    const client = module.createInteropServiceClient({ baseUrl: h2c.url, transport: http2Transport(h2c.url) });
    expect((await collect(client.bidiStream([{ payload: payloadOf("c1") }, { payload: payloadOf("c2") }]))).map((a) => a.payload?.text)).toEqual(["c1", "c2"]);
    expect((await client.unary({ payload: payloadOf("cu") })).payload?.text).toBe("cu");
  });
});

/** A raw HTTP/2 request: status, headers, body bytes and trailers, for what the generated client never sends. */
async function raw(pathName: string, headers: Record<string, string>, body: Uint8Array): Promise<{ headers: Record<string, unknown>; trailers: Record<string, unknown>; body: Uint8Array }> {
  const session = http2Connect(h2c.url);
  try {
    const stream = session.request({ ":method": "POST", ":path": pathName, ...headers });
    stream.end(body);
    let trailers: Record<string, unknown> = {};
    stream.on("trailers", (t) => (trailers = t));
    const head = await new Promise<Record<string, unknown>>((resolve, reject) => {
      stream.once("response", resolve);
      stream.once("error", reject);
    });
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return { headers: head, trailers, body: new Uint8Array(Buffer.concat(chunks)) };
  } finally {
    session.close();
  }
}

describe("gRPC on the wire", () => {
  const grpc = { "content-type": "application/grpc", te: "trailers" };

  it("answers an unknown method with trailers-only grpc-status 12", async () => {
    const answer = await raw(`${PATH}/Nope`, grpc, new Uint8Array([0, 0, 0, 0, 0]));
    expect([answer.headers[":status"], answer.headers["grpc-status"]]).toEqual([200, "12"]);
  });

  it("answers a wrong content type 415", async () => {
    const answer = await raw(`${PATH}/Unary`, { "content-type": "application/xml" }, new Uint8Array(0));
    expect(answer.headers[":status"]).toBe(415);
  });

  it("answers malformed frames invalid_argument", async () => {
    const truncated = await raw(`${PATH}/Unary`, grpc, new Uint8Array([0, 0, 0, 0, 10, 1, 2]));
    expect(truncated.headers["grpc-status"]).toBe("3");
    const compressedWithoutEncoding = await raw(`${PATH}/Unary`, grpc, new Uint8Array([1, 0, 0, 0, 0]));
    expect(compressedWithoutEncoding.headers["grpc-status"]).toBe("13");
    const badMessage = await raw(`${PATH}/Unary`, grpc, new Uint8Array([0, 0, 0, 0, 2, 0xff, 0xff]));
    expect(badMessage.headers["grpc-status"]).toBe("3");
  });

  it("refuses an unknown message encoding with unimplemented", async () => {
    const answer = await raw(`${PATH}/Unary`, { ...grpc, "grpc-encoding": "snappy" }, new Uint8Array([0, 0, 0, 0, 0]));
    expect(answer.headers["grpc-status"]).toBe("12");
    expect(answer.headers["grpc-accept-encoding"]).toBe("gzip");
  });

  it("sends the status in HTTP/2 trailers after the message, details as google.rpc.Status", async () => {
    const failing = await raw(`${PATH}/Unary`, grpc, new Uint8Array([0, 0, 0, 0, 2, 0x18, 5])); // fail_code: 5
    expect(failing.headers["grpc-status"]).toBe("5");
    const details = decodeRpcStatus(new Uint8Array(Buffer.from(String(failing.headers["grpc-status-details-bin"]), "base64")));
    expect(details).toMatchObject({ code: 5, details: [{ type: "google.rpc.ErrorInfo" }] });
    const ok = await raw(`${PATH}/Unary`, grpc, new Uint8Array([0, 0, 0, 0, 0]));
    expect(ok.trailers["grpc-status"]).toBe("0");
    expect([...ok.body]).toEqual([0, 0, 0, 0, 0]); // EchoResponse{} (no payload, index 0 is not written)
  });

  // node's client close() half-closes before it resets, so the handler is kept busy (a delayed second request) to
  // make sure the reset, not the end of the requests, is what it sees.
  it("tells a busy bidi handler that the client reset", async () => {
    const before = observed.aborted;
    const session = http2Connect(h2c.url);
    const stream = session.request({ ":method": "POST", ":path": `${PATH}/BidiStream`, ...grpc });
    stream.on("error", () => undefined);
    stream.write(new Uint8Array([0, 0, 0, 0, 0]));
    await new Promise((resolve) => stream.once("data", resolve));
    stream.write(new Uint8Array([0, 0, 0, 0, 3, 0x28, 0xd0, 0x0f])); // delay_ms: 2000
    stream.close(constants.NGHTTP2_CANCEL);
    const ok = await eventually(() => observed.aborted > before && observed.running === 0 && h2c.openStreams() === 0);
    expect(ok).toBe(true);
    session.close();
  });

  it("leaves no stream open", async () => {
    expect(await eventually(() => h2c.openStreams() === 0 && observed.running === 0)).toBe(true);
  });
});
