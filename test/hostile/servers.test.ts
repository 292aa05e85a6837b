/**
 * The four emulators as a hostile client sees them, over loopback: a slow-loris client that never finishes its
 * headers is cut off, so is one that trickles its body, and idle keep-alive connections are closed (serveNode's
 * headersTimeout / requestTimeout / keepAliveTimeout); wrong methods, content types and malformed requests get 4xx
 * answers (or SOAP faults) without stack traces. Body limits and malformed bodies per format are in payloads.test.ts.
 */
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentFeedHandler } from "../../examples/content/emulator.js";
import { DEFAULT_DATA_DIR, loadEntries, responseFiles } from "../../examples/content/entries.js";
import { createMembersEmulator } from "../../examples/members/app.js";
import { loadMembersFixture } from "../../examples/members/fixture.js";
import { createPartnerEmulator } from "../../examples/partner/emulator.js";
import { SERVICE_PATH } from "../../examples/partner/session.js";
import { createWebhooksEmulator } from "../../examples/webhooks/app.js";
import { NODE_SERVER_TIMEOUTS, serveNode, type NodeServerHandle } from "../../src/runtime/http/node.js";

const STACK = /\n\s+at |\.ts:\d+|node:internal/;
/** Short timeouts so the test is quick; the defaults are checked separately. */
const SHORT = { headersTimeoutMs: 400, requestTimeoutMs: 800, keepAliveTimeoutMs: 300 } as const;
/** The bound within which a cut-off must happen (far above the timeouts: no timing assertion, only a limit). */
const BOUND_MS = 8000;

interface Emulator {
  readonly name: string;
  readonly path: string;
  server: NodeServerHandle;
}

const emulators: Emulator[] = [];

beforeAll(async () => {
  const handlers: [string, string, (r: Request) => Promise<Response>][] = [
    ["partner", SERVICE_PATH, createPartnerEmulator({ onError: () => undefined }).handler],
    ["content", "/feed?page=1", contentFeedHandler(loadEntries(responseFiles(DEFAULT_DATA_DIR)), 10)],
    ["webhooks", "/api/v2/webhooks", createWebhooksEmulator()],
    ["members", "/api/v3/projects/1/members", createMembersEmulator(loadMembersFixture())],
  ];
  for (const [name, path, handler] of handlers) emulators.push({ name, path, server: await serveNode(handler, SHORT) });
});

afterAll(async () => {
  for (const e of emulators) await e.server.close();
});

/** Open a raw connection, run `client` on it, and resolve with what the server sent once it closes the socket. */
function rawConnection(port: number, client: (socket: Socket) => void): Promise<{ data: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let data = "";
    const finish = (closed: boolean) => {
      socket.destroy();
      resolve({ data, closed });
    };
    const bound = setTimeout(() => finish(false), BOUND_MS);
    socket.on("data", (chunk) => (data += chunk.toString("latin1")));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(bound);
      finish(true);
    });
    socket.on("connect", () => client(socket));
  });
}

/** Write `chunk` every 50 ms until the socket closes. */
function trickle(socket: Socket, chunk: string): void {
  const timer = setInterval(() => {
    if (!socket.destroyed) socket.write(chunk);
  }, 50);
  socket.once("close", () => clearInterval(timer));
}

describe.each(["partner", "content", "webhooks", "members"])("%s emulator", (name) => {
  const emulator = () => emulators.find((e) => e.name === name)!;

  it("cuts off a slow-loris client that never finishes its headers", async () => {
    const { closed, data } = await rawConnection(emulator().server.port, (socket) => {
      socket.write(`GET ${emulator().path} HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
      trickle(socket, "X-Slow: a\r\n");
    });
    expect(closed).toBe(true);
    expect(data === "" || data.startsWith("HTTP/1.1 408")).toBe(true);
  });

  it("cuts off a client that trickles its body", async () => {
    const { closed, data } = await rawConnection(emulator().server.port, (socket) => {
      socket.write(`POST ${emulator().path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`);
      trickle(socket, " ");
    });
    expect(closed).toBe(true);
    expect(data).not.toMatch(STACK);
  });

  it("closes an idle keep-alive connection", async () => {
    const { closed, data } = await rawConnection(emulator().server.port, (socket) => {
      socket.write(`GET ${emulator().path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
    });
    expect(closed).toBe(true);
    expect(data).toMatch(/^HTTP\/1\.1 \d{3} /);
  });

  it("answers garbage requests with 4xx and no stack trace", async () => {
    const { data } = await rawConnection(emulator().server.port, (socket) => {
      socket.write("BREW /pot HTTP/1.1\r\nHost: \u0000bad\r\nContent-Length: -1\r\n\r\n");
    });
    expect(data).toMatch(/^HTTP\/1\.1 4\d\d /);
    const res = await fetch(`${emulator().server.url}${emulator().path}`, { method: "PUT", headers: { "content-type": "application/x-nope" }, body: "\u0000\u0001" });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(600);
    if (res.status >= 500) expect(name).toBe("partner"); // SOAP 1.1 answers faults with 500: a fault, not a crash
    const text = await res.text();
    expect(text).not.toMatch(STACK);
    if (res.status >= 500) expect(text).toMatch(/Fault/);
  });
});

it("serveNode's default timeouts", async () => {
  const server = await serveNode(async () => new Response("ok"));
  try {
    expect(NODE_SERVER_TIMEOUTS).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 5_000 });
    expect([server.server.headersTimeout, server.server.requestTimeout, server.server.keepAliveTimeout]).toEqual([10_000, 60_000, 5_000]);
  } finally {
    await server.close();
  }
});

it("the content feed: 405 for POST, 406 for an unacceptable Accept, 404 for a page that does not exist", async () => {
  const content = emulators.find((e) => e.name === "content")!.server.url;
  expect((await fetch(`${content}/feed?page=1`, { method: "POST", body: "x" })).status).toBe(405);
  expect((await fetch(`${content}/feed?page=1`, { headers: { accept: "text/html" } })).status).toBe(406);
  for (const page of ["0", "-1", "abc", "1e9", "99999999999999999999", "%00"]) {
    const res = await fetch(`${content}/feed?page=${page}`);
    expect(res.status, page).toBe(404);
    expect(await res.text()).not.toMatch(STACK);
  }
});
