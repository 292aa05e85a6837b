/**
 * serveNodeHttp2 under load (issue 32, item 6): flow-control windows (1 MiB a stream, 16 MiB a connection, instead of
 * Node's 64 KiB), a max-concurrent-streams default, an idle timeout; and gzip through node:zlib on Node, giving what
 * the CompressionStream path gives.
 */
import { connect, type ClientHttp2Session, type Settings } from "node:http2";
import { afterEach, describe, expect, it } from "vitest";
import { HTTP2_SERVER_DEFAULTS, serveNodeHttp2, type NodeHttp2ServerHandle, type ServeNodeHttp2Options } from "../../../src/runtime/http/node-http2.js";
import { RpcError } from "../../../src/runtime/connect/error.js";
import { gunzip, gzip, useNodeZlibForTests } from "../../../src/runtime/rpc/compression.js";
import { http2Transport } from "../../../src/runtime/rpc/transport-http2.js";
import type { ServerHttp2Session } from "node:http2";

const servers: NodeHttp2ServerHandle[] = [];
const clients: ClientHttp2Session[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.destroy();
  for (const s of servers.splice(0)) await s.close();
  useNodeZlibForTests(true);
});

async function serverAndClient(options: ServeNodeHttp2Options = {}): Promise<{ client: ClientHttp2Session; settings: Settings }> {
  const server = await serveNodeHttp2(async () => new Response("ok"), options);
  servers.push(server);
  const client = connect(server.url);
  clients.push(client);
  const settings = await new Promise<Settings>((resolve) => client.once("remoteSettings", resolve));
  return { client, settings };
}

/** Waits (a bounded number of turns) until `check` holds. */
async function eventually(check: () => boolean): Promise<boolean> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  return check();
}

async function get(client: ClientHttp2Session): Promise<string> {
  const req = client.request({ ":path": "/" });
  req.setEncoding("utf8");
  let body = "";
  req.on("data", (d: string) => (body += d));
  await new Promise((resolve, reject) => req.on("end", resolve).on("error", reject));
  return body;
}

describe("serveNodeHttp2 settings", () => {
  it("defaults: 1 MiB stream window, 100 concurrent streams, 16 MiB connection window", async () => {
    const { client, settings } = await serverAndClient();
    expect(settings.initialWindowSize).toBe(1 << 20);
    expect(settings.maxConcurrentStreams).toBe(100);
    expect(HTTP2_SERVER_DEFAULTS).toEqual({ streamWindowBytes: 1 << 20, connectionWindowBytes: 16 << 20, maxConcurrentStreams: 100, idleTimeoutMs: 120_000 });
    // What the client may send on the connection before the server's next WINDOW_UPDATE (Node's default: 65,535).
    expect(await eventually(() => client.state.remoteWindowSize === 16 << 20)).toBe(true);
    expect(await get(client)).toBe("ok");
  });

  it("options: windows and the stream limit as given", async () => {
    const { client, settings } = await serverAndClient({ streamWindowBytes: 300_000, connectionWindowBytes: 4 << 20, maxConcurrentStreams: 7 });
    expect([settings.initialWindowSize, settings.maxConcurrentStreams]).toEqual([300_000, 7]);
    expect(await eventually(() => client.state.remoteWindowSize === 4 << 20)).toBe(true);
  });

  it("an idle connection is closed after idleTimeoutMs (GOAWAY), one in use is answered", async () => {
    const { client } = await serverAndClient({ idleTimeoutMs: 150 });
    expect(await get(client)).toBe("ok");
    let goaway = false;
    client.once("goaway", () => (goaway = true));
    expect(await eventually(() => goaway || client.closed || client.destroyed)).toBe(true);
  });
});

describe("the HTTP/2 client transport", () => {
  it("grants the server a 1 MiB stream window and a 16 MiB connection window", async () => {
    let session: ServerHttp2Session | undefined;
    const server = await serveNodeHttp2(async () => new Response("ok"));
    servers.push(server);
    server.server.on("session", (s: ServerHttp2Session) => (session = s));
    const transport = http2Transport(server.url);
    try {
      const r = await transport.request({ url: `${server.url}/x`, headers: new Headers(), body: new Uint8Array(0), signal: undefined });
      expect(r.status).toBe(200);
      expect(await eventually(() => session?.remoteSettings.initialWindowSize === 1 << 20)).toBe(true);
      // What the server may send on the connection before the client's next WINDOW_UPDATE.
      expect(await eventually(() => (session?.state.remoteWindowSize ?? 0) > 15 << 20)).toBe(true);
    } finally {
      transport.close?.();
    }
  });
});

describe("gzip through node:zlib", () => {
  const payload = new TextEncoder().encode(JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ i, name: `item ${i}` }))));

  async function codeOf(run: () => Promise<unknown>): Promise<string> {
    try {
      await run();
      return "ok";
    } catch (e) {
      return e instanceof RpcError ? e.code : `not an RpcError: ${String(e)}`;
    }
  }

  it("compresses and decompresses interchangeably with CompressionStream", async () => {
    useNodeZlibForTests(true);
    const byZlib = await gzip(payload);
    useNodeZlibForTests(false);
    const byStream = await gzip(payload);
    expect(Array.from(await gunzip(byZlib, 1 << 20))).toEqual(Array.from(payload));
    useNodeZlibForTests(true);
    expect(Array.from(await gunzip(byStream, 1 << 20))).toEqual(Array.from(payload));
    expect(byZlib[0]).toBe(0x1f);
    expect(byZlib.length).toBeLessThan(payload.length / 4);
  });

  it("the same errors on both paths: over the limit (exactly the limit is fine), bad data, trailing junk", async () => {
    const compressed = await gzip(payload);
    const cases: [string, () => Promise<unknown>][] = [
      ["limit", () => gunzip(compressed, payload.length - 1)],
      ["exact", () => gunzip(compressed, payload.length)],
      ["bad", () => gunzip(new Uint8Array([1, 2, 3, 4, 5]), 1000)],
      ["junk", () => gunzip(new Uint8Array([...compressed, 9, 9, 9]), 1 << 20)],
    ];
    const run = async () => Promise.all(cases.map(async ([, f]) => codeOf(f)));
    useNodeZlibForTests(true);
    const zlib = await run();
    useNodeZlibForTests(false);
    const stream = await run();
    expect(zlib).toEqual(stream);
    expect(zlib.slice(0, 3)).toEqual(["resource_exhausted", "ok", "invalid_argument"]);
  });
});
