import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { directPathOf, handlerWithDirectPath } from "../../../src/runtime/http/direct.js";
import { nodeRequestListener, serveNode, type NodeServerHandle } from "../../../src/runtime/http/node.js";
import { restInteger } from "../../../src/runtime/rest/params.js";
import { createRestHandler, restOperation, type RestServerOptions } from "../../../src/runtime/rest/server.js";
import type { ValidationIssue } from "../../../src/runtime/index.js";

/**
 * A generated REST server served by node:http takes the direct path (answers as parts, written without a Response):
 * every answer must be the one the web-standard handler gives for the same request.
 */

function api(options: RestServerOptions = {}) {
  const validateItem = (v: unknown): ValidationIssue[] =>
    typeof v === "object" && v !== null && typeof (v as { name?: unknown }).name === "string" ? [] : [{ path: "/name", rule: "required", message: "name is required" }];
  return createRestHandler(
    [
      restOperation({
        name: "getItem", method: "GET", path: "/items/{id}", query: true,
        parameters: (segments, query, _r, issues: ValidationIssue[]) => ({ id: restInteger(segments[0]!, "/path/id", issues)!, q: query.get("q") }),
        invoke: (p) => (p.id === 404 ? { status: 404, body: { message: "no item" } } : { status: 200, body: { id: p.id, name: "ä", q: p.q ?? null } }),
      }),
      restOperation({
        name: "headItem", method: "HEAD", path: "/items/{id}", query: false,
        parameters: () => ({}),
        invoke: () => ({ status: 200, body: { id: 1 } }),
      }),
      restOperation({
        name: "slowItem", method: "GET", path: "/slow/{id}", query: false,
        parameters: (segments) => ({ id: segments[0] }),
        invoke: async (p) => {
          await new Promise((resolve) => setTimeout(resolve, 1));
          if (p.id === "boom") throw new Error("secret async detail");
          return { status: 202, body: { id: p.id }, headers: { "x-slow": "yes" } };
        },
      }),
      restOperation({
        name: "createItem", method: "POST", path: "/items", query: false,
        parameters: () => ({}),
        body: { required: true, json: true, validate: validateItem },
        invoke: (_p, body) => ({ status: 201, body, headers: { "x-created": "1" } }),
      }),
      restOperation({
        name: "noContent", method: "DELETE", path: "/items/{id}", query: false,
        parameters: () => ({}),
        invoke: () => ({ status: 204 }),
      }),
      restOperation({
        name: "boom", method: "GET", path: "/boom", query: false,
        parameters: () => ({}),
        invoke: () => {
          throw new Error("secret stack detail");
        },
      }),
      restOperation({
        name: "badHeader", method: "GET", path: "/bad-header", query: false,
        parameters: () => ({}),
        invoke: () => ({ status: 200, body: {}, headers: { "x-evil": "a\r\nset-cookie: injected=1" } }),
      }),
    ],
    { basePath: "/api", ...options },
  );
}

interface Seen {
  status: number;
  headers: Record<string, string | null>;
  body: string;
}

const SHOWN_HEADERS = ["content-type", "content-length", "allow", "x-created", "x-slow"];

async function seen(response: Response): Promise<Seen> {
  const headers = Object.fromEntries(SHOWN_HEADERS.map((h) => [h, response.headers.get(h)]));
  return { status: response.status, headers, body: await response.text() };
}

let server: NodeServerHandle | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const REQUESTS: [string, RequestInit?][] = [
  ["/api/items/5"],
  ["/api/items/5?q=a%20b"],
  ["/api/items/404"],
  ["/api/items/abc"],
  ["/api/items/5", { method: "HEAD" }],
  ["/api/items/5", { method: "PATCH" }],
  ["/api/items/5", { method: "DELETE" }],
  ["/api/nothing"],
  ["/other"],
  ["/api/slow/7"],
  ["/api/slow/boom"],
  ["/api/boom"],
  ["/api/items", { method: "POST", headers: { "content-type": "application/json" }, body: '{"name":"n"}' }],
  ["/api/items", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }],
  ["/api/items", { method: "POST", headers: { "content-type": "application/json" }, body: "{" }],
  ["/api/items", { method: "POST", headers: { "content-type": "text/plain" }, body: "x" }],
];

describe("the node adapter's direct path for REST servers", () => {
  it("is offered by createRestHandler and not by other handlers", () => {
    expect(directPathOf(api())).toBeTypeOf("function");
    expect(directPathOf(async () => new Response("x"))).toBeUndefined();
  });

  it("answers every request over HTTP exactly as the web handler does", async () => {
    const errors: unknown[] = [];
    const handler = api({ onHandlerError: (e) => errors.push(e) });
    server = await serveNode(handler);
    for (const [path, init] of REQUESTS) {
      const web = await seen(await handler(new Request(`${server.url}${path}`, init)));
      const wire = await seen(await fetch(`${server.url}${path}`, init));
      // On the wire every body states its byte length (the adapter counts it; a web Response leaves that to the
      // runtime serving it), and a HEAD the length its GET would have.
      if (init?.method !== "HEAD") {
        const length = wire.body === "" ? null : String(Buffer.byteLength(wire.body));
        expect([path, wire.headers["content-length"]]).toEqual([path, length]);
        wire.headers["content-length"] = web.headers["content-length"] ?? null;
      }
      expect({ path, method: init?.method, ...wire }).toEqual({ path, method: init?.method, ...web });
    }
    expect(errors.map((e) => (e as Error).message)).toEqual(["secret async detail", "secret async detail", "secret stack detail", "secret stack detail"]);
  });

  it("answers a HEAD without a body but with the length a GET would have", async () => {
    server = await serveNode(api());
    const head = await fetch(`${server.url}/api/items/5`, { method: "HEAD" });
    expect([head.status, head.headers.get("content-length"), await head.text()]).toEqual([200, "8", ""]);
  });

  it("writes a synchronous handler's answer before the listener returns; an async one later", async () => {
    const listener = nodeRequestListener(api());
    const sentInListener: boolean[] = [];
    const plain: Server = createServer((req, res) => {
      listener(req, res);
      sentInListener.push(res.headersSent);
    });
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
    const port = (plain.address() as AddressInfo).port;
    try {
      const get = (path: string) =>
        new Promise<number>((resolve, reject) => {
          httpRequest({ host: "127.0.0.1", port, path }, (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
          }).on("error", reject).end();
        });
      expect(await get("/api/items/5")).toBe(200);
      expect(await get("/api/slow/5")).toBe(202);
      expect(sentInListener).toEqual([true, false]);
    } finally {
      await new Promise<void>((resolve) => { plain.close(() => resolve()); plain.closeAllConnections(); });
    }
  });

  it("answers 500 and stays up when a handler's header cannot be written", async () => {
    const errors: unknown[] = [];
    server = await serveNode(api(), { onError: (e) => errors.push(e) });
    const bad = await fetch(`${server.url}/api/bad-header`);
    expect(bad.status).toBe(500);
    expect(bad.headers.get("set-cookie")).toBeNull();
    expect(errors).toHaveLength(1);
    expect((await fetch(`${server.url}/api/items/1`)).status).toBe(200);
  });

  it("writes a Response a hook returns, and parts made by handlerWithDirectPath", async () => {
    const hooked = api({ onValidationError: async () => new Response("custom", { status: 418, headers: { "x-created": "hook" } }) });
    server = await serveNode(hooked);
    const r = await fetch(`${server.url}/api/items/x`);
    expect([r.status, r.headers.get("x-created"), await r.text()]).toEqual([418, "hook", "custom"]);
    await server.close();
    server = await serveNode(handlerWithDirectPath(() => ({ status: 203, headers: { "content-type": "text/plain" }, body: "parts" })));
    const p = await fetch(server.url);
    expect([p.status, p.headers.get("content-type"), await p.text()]).toEqual([203, "text/plain", "parts"]);
  });
});
