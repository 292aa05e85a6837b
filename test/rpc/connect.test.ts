// specforge client <-> specforge server over loopback: Connect (unary JSON and binary, streaming) and gRPC-Web
// (binary and text) over node:http, every method kind the protocol allows over fetch.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveNode, type NodeServerHandle } from "../../src/runtime/http/node.js";
import type { TempOutput } from "../emitters/proto-http/generate-temp.js";
import { collect, eventually, payloadOf, implementation, loadInterop, rejection, type InteropModule, type Observed } from "./service.js";

let module: InteropModule;
let output: TempOutput;
let server: NodeServerHandle;
const observed: Observed = { running: 0, aborted: 0 };

beforeAll(async () => {
  ({ module, output } = await loadInterop());
  server = await serveNode(module.createInteropServiceHandler(implementation(observed)));
});
afterAll(async () => {
  await server?.close();
  output?.remove();
});

const payload = { text: "héllo", number: 9007199254740993n, data: new Uint8Array([0, 1, 255]), tags: ["a", "b"], mood: "MOOD_LOUD" };

const clients = [
  ["connect proto", { protocol: "connect", format: "proto" }],
  ["connect json", { protocol: "connect", format: "json" }],
  ["grpc-web proto", { protocol: "grpc-web", format: "proto" }],
  ["grpc-web json", { protocol: "grpc-web", format: "json" }],
  ["grpc-web text", { protocol: "grpc-web", grpcWebText: true }],
] as const;

describe.each(clients)("%s over fetch", (_name, settings) => {
  const client = () => module.createInteropServiceClient({ baseUrl: server.url, ...settings });

  it("calls a unary method with headers and trailers both ways", async () => {
    let headers: Headers | undefined;
    let trailers: Headers | undefined;
    const answer = await client().unary({ payload }, {
      headers: { "x-ping": "pong" },
      onHeader: (h) => (headers = h),
      onTrailer: (t) => (trailers = t),
    });
    expect(answer.payload).toMatchObject({ text: "héllo", number: 9007199254740993n, tags: ["a", "b"] });
    expect([...answer.payload!.data]).toEqual([0, 1, 255]);
    expect(headers?.get("x-echo")).toBe("pong");
    expect(trailers?.get("x-trailer")).toBe("done");
  });

  it("streams answers of a server-streaming method", async () => {
    const answers = await collect(client().serverStream({ payload: payloadOf("s"), repeat: 3 }));
    expect(answers.map((a) => [a.index, a.payload?.text])).toEqual([[0, "s"], [1, "s"], [2, "s"]]);
  });

  it("sends a client stream (buffered by fetch)", async () => {
    const answer = await client().clientStream([{ payload: payloadOf("a") }, { payload: payloadOf("b") }]);
    expect(answer.index).toBe(2);
    expect(answer.payload?.text).toBe("b");
  });

  it("refuses bidi streaming over fetch, saying why", async () => {
    const error = await rejection(collect(client().bidiStream([{}])));
    expect(error.code).toBe("unimplemented");
    expect(error.message).toContain("HTTP/2");
  });

  it("passes an error's code, message, details and metadata", async () => {
    const error = await rejection(client().unary({ failCode: 7, failMessage: "nope é%" }));
    expect(error.code).toBe("permission_denied");
    expect(error.rawMessage).toBe("nope é%");
    expect(error.details).toEqual([{ type: "google.rpc.ErrorInfo", value: new Uint8Array([10, 3, 119, 104, 121]) }]);
    expect(error.metadata.get("x-fail")).toBe("yes");
  });

  it("ends a stream with an error after some answers", async () => {
    const seen: number[] = [];
    const error = await rejection((async () => {
      for await (const a of client().serverStream({ repeat: 2, failCode: 10, failMessage: "stop" })) seen.push(a.index);
    })());
    expect(seen).toEqual([0, 1]);
    expect(error.code).toBe("aborted");
    expect(error.rawMessage).toBe("stop");
  });

  it("enforces a deadline on the server and the client", async () => {
    const error = await rejection(client().unary({ delayMs: 2000 }, { timeoutMs: 50 }));
    expect(error.code).toBe("deadline_exceeded");
    expect(await eventually(() => observed.running === 0)).toBe(true);
  });

  it("cancels through the caller's AbortSignal", async () => {
    const abort = new AbortController();
    const call = client().unary({ delayMs: 2000 }, { signal: abort.signal });
    setTimeout(() => abort.abort(), 20);
    expect((await rejection(call)).code).toBe("canceled");
    expect(await eventually(() => observed.running === 0)).toBe(true);
  });
});

describe("Connect on the wire", () => {
  it("answers unary errors with the Connect code's HTTP status", async () => {
    const response = await fetch(`${server.url}/specforge.interop.v1.InteropService/Unary`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ failCode: 5, failMessage: "gone" }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: "not_found", message: "gone" });
  });

  it("answers an unknown method 404 unimplemented and a wrong content type 415", async () => {
    const unknown = await fetch(`${server.url}/specforge.interop.v1.InteropService/Nope`, { method: "POST", headers: { "content-type": "application/proto" }, body: "" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: "unimplemented" });
    const wrongType = await fetch(`${server.url}/specforge.interop.v1.InteropService/Unary`, { method: "POST", headers: { "content-type": "text/plain" }, body: "x" });
    expect(wrongType.status).toBe(415);
    const unaryTypeOnStream = await fetch(`${server.url}/specforge.interop.v1.InteropService/ServerStream`, { method: "POST", headers: { "content-type": "application/proto" }, body: "" });
    expect(unaryTypeOnStream.status).toBe(415);
  });

  it("answers a streaming error with HTTP 200 and an end-stream message", async () => {
    const body = new Uint8Array([0, 0, 0, 0, 2, 24, 9]); // EchoRequest{fail_code: 9}
    const response = await fetch(`${server.url}/specforge.interop.v1.InteropService/ServerStream`, {
      method: "POST",
      headers: { "content-type": "application/connect+proto" },
      body,
    });
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes[0]).toBe(2);
    expect(JSON.parse(new TextDecoder().decode(bytes.subarray(5)))).toMatchObject({ error: { code: "failed_precondition" }, metadata: { "x-trailer": ["done"] } });
  });

  it("answers a truncated envelope invalid_argument", async () => {
    const response = await fetch(`${server.url}/specforge.interop.v1.InteropService/ServerStream`, {
      method: "POST",
      headers: { "content-type": "application/connect+proto" },
      body: new Uint8Array([0, 0, 0, 0, 9, 1]),
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(JSON.parse(new TextDecoder().decode(bytes.subarray(5)))).toMatchObject({ error: { code: "invalid_argument" } });
  });
});
