import { afterEach, describe, expect, it } from "vitest";
import { callUnary, type ConnectClientOptions } from "../../../src/runtime/connect/client.js";
import { ConnectError } from "../../../src/runtime/connect/error.js";
import { connectRoute, connectRouter, type ConnectHandlerOptions } from "../../../src/runtime/connect/server.js";
import type { HttpHandler } from "../../../src/runtime/http/handler.js";
import { serveNode, type NodeServerHandle } from "../../../src/runtime/http/node.js";
import { textCodec, type TextMessage } from "../http/text-codec.js";

const echo = { path: "/test.Echo/Say", input: textCodec, output: textCodec };
const fail = { path: "/test.Echo/Fail", input: textCodec, output: textCodec };
const hang = { path: "/test.Echo/Hang", input: textCodec, output: textCodec };

let server: NodeServerHandle | undefined;
let releaseHang: (() => void) | undefined;
afterEach(async () => {
  releaseHang?.();
  await server?.close();
  server = undefined;
});

const errors: unknown[] = [];
function handler(options: ConnectHandlerOptions = {}): HttpHandler {
  return connectRouter([
    connectRoute(echo, async (m: TextMessage, context) => {
      context.responseHeaders.set("x-seen-format", context.request.headers.get("content-type") ?? "");
      return { text: `you said ${m.text}` };
    }),
    connectRoute(fail, async (m: TextMessage) => {
      if (m.text === "connect") throw new ConnectError("permission_denied", "not you", { metadata: { "x-why": "test" } });
      throw new Error(`stack secret ${m.text}`);
    }),
    connectRoute(hang, async (_m: TextMessage, context) => {
      await new Promise<void>((resolve) => {
        releaseHang = resolve;
        context.signal.addEventListener("abort", () => resolve());
      });
      return { text: "late" };
    }),
  ], { onError: (e) => errors.push(e), ...options });
}

async function start(options: ConnectHandlerOptions = {}): Promise<ConnectClientOptions> {
  server = await serveNode(handler(options));
  return { baseUrl: `${server.url}/` };
}

async function rejection(p: Promise<unknown>): Promise<ConnectError> {
  const error = await p.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ConnectError);
  return error as ConnectError;
}

describe("Connect unary over HTTP", () => {
  it.each(["proto", "json"] as const)("calls a method with %s", async (format) => {
    const options = await start();
    expect(await callUnary({ ...options, format }, echo, { text: "hi" })).toEqual({ text: "you said hi" });
  });

  it("sends the Connect headers and the right content type", async () => {
    const options = await start();
    const response = await fetch(`${options.baseUrl}test.Echo/Say`, {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify({ text: "raw" }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("x-seen-format")).toBe("application/json; charset=utf-8");
    expect(await response.json()).toEqual({ text: "you said raw", format: "json" });
  });

  it("turns a thrown ConnectError into its code, status and metadata", async () => {
    const options = await start();
    const raw = await fetch(`${options.baseUrl}test.Echo/Fail`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"text":"connect"}' });
    expect(raw.status).toBe(403);
    expect(await raw.json()).toEqual({ code: "permission_denied", message: "not you" });
    const error = await rejection(callUnary(options, fail, { text: "connect" }));
    expect(error.code).toBe("permission_denied");
    expect(error.rawMessage).toBe("not you");
    expect(error.metadata.get("x-why")).toBe("test");
  });

  it("answers any other error as internal without leaking it", async () => {
    const options = await start();
    errors.length = 0;
    const raw = await fetch(`${options.baseUrl}test.Echo/Fail`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"text":"x"}' });
    expect(raw.status).toBe(500);
    const text = await raw.text();
    expect(text).not.toContain("secret");
    expect(text).not.toContain("at ");
    expect(JSON.parse(text)).toEqual({ code: "internal", message: "internal error" });
    expect(errors).toHaveLength(1);
  });

  it("answers a request that does not decode with invalid_argument", async () => {
    const options = await start();
    const raw = await fetch(`${options.baseUrl}test.Echo/Say`, { method: "POST", headers: { "content-type": "application/proto" }, body: new Uint8Array([0xff]) });
    expect(raw.status).toBe(400);
    expect((await raw.json()).code).toBe("invalid_argument");
    const json = await fetch(`${options.baseUrl}test.Echo/Say`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"__proto__":{"text":1}}' });
    expect((await json.json()).code).toBe("invalid_argument");
  });

  it("routes unknown procedures to 404, other methods to 405, other content types to 415", async () => {
    const options = await start();
    const unknown = await fetch(`${options.baseUrl}test.Echo/Nope`, { method: "POST", headers: { "content-type": "application/proto" } });
    expect(unknown.status).toBe(404);
    const error = await rejection(callUnary(options, { ...echo, path: "/test.Echo/Nope" }, { text: "x" }));
    expect(error.code).toBe("unimplemented");
    const get = await fetch(`${options.baseUrl}test.Echo/Say`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const xml = await fetch(`${options.baseUrl}test.Echo/Say`, { method: "POST", headers: { "content-type": "text/xml" }, body: "<x/>" });
    expect(xml.status).toBe(415);
    expect(xml.headers.get("accept-post")).toBe("application/proto, application/json");
    const gzip = await fetch(`${options.baseUrl}test.Echo/Say`, { method: "POST", headers: { "content-type": "application/json", "content-encoding": "gzip" }, body: "{}" });
    expect(gzip.status).toBe(501);
  });

  it("refuses bodies over the limit with resource_exhausted", async () => {
    const options = await start({ maxBodyBytes: 64 });
    const error = await rejection(callUnary(options, echo, { text: "x".repeat(100) }));
    expect(error.code).toBe("resource_exhausted");
    expect(await callUnary(options, echo, { text: "short" })).toEqual({ text: "you said short" });
  });

  it("gives deadline_exceeded when the client's timeout passes (the server stops too)", async () => {
    const options = await start();
    const error = await rejection(callUnary({ ...options, timeoutMs: 50 }, hang, { text: "x" }));
    expect(error.code).toBe("deadline_exceeded");
    const raw = await fetch(`${options.baseUrl}test.Echo/Hang`, {
      method: "POST", headers: { "content-type": "application/json", "connect-timeout-ms": "20" }, body: '{"text":"x"}',
    });
    expect(raw.status).toBe(504);
    expect((await raw.json()).code).toBe("deadline_exceeded");
  });

  it("gives canceled when the caller aborts", async () => {
    const options = await start();
    const controller = new AbortController();
    const pending = callUnary(options, hang, { text: "x" }, { signal: controller.signal });
    controller.abort();
    expect((await rejection(pending)).code).toBe("canceled");
  });

  it("gives unavailable when nothing listens", async () => {
    const options = await start();
    await server!.close();
    server = undefined;
    expect((await rejection(callUnary(options, echo, { text: "x" }))).code).toBe("unavailable");
  });

  it("maps error responses without a Connect body by their status", async () => {
    server = await serveNode(async () => new Response("<h1>Bad Gateway</h1>", { status: 502, headers: { "content-type": "text/html" } }));
    const error = await rejection(callUnary({ baseUrl: server.url }, echo, { text: "x" }));
    expect(error.code).toBe("unavailable");
    expect(error.rawMessage).toContain("502");
  });

  it("gives internal for a 200 answer that is not a message of the expected type", async () => {
    server = await serveNode(async () => new Response("{}", { headers: { "content-type": "application/json" } }));
    expect((await rejection(callUnary({ baseUrl: server.url, format: "json" }, echo, { text: "x" }))).code).toBe("internal");
    expect((await rejection(callUnary({ baseUrl: server.url }, echo, { text: "x" }))).code).toBe("internal");
  });
});
