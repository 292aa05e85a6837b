import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { serveNode, type NodeServerHandle } from "../../../src/runtime/http/node.js";
import { restJsonResponse } from "../../../src/runtime/rest/response.js";

let server: NodeServerHandle | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A raw request with full control of the Host header and target, which fetch does not allow. */
function rawGet(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, headers: { host } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("serveNode", () => {
  it("listens on 127.0.0.1 with a real port when asked for port 0", async () => {
    server = await serveNode(async () => new Response("ok"));
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(await (await fetch(server.url)).text()).toBe("ok");
  });

  it("passes method, URL, headers and a streamed body to the handler, and status, headers and body back", async () => {
    server = await serveNode(async (request) => {
      const body = await request.text();
      const headers = new Headers({ "x-echo": request.headers.get("x-test") ?? "" });
      headers.append("set-cookie", "a=1");
      headers.append("set-cookie", "b=2");
      return new Response(JSON.stringify({ method: request.method, url: request.url, body }), { status: 201, headers });
    });
    const response = await fetch(`${server.url}/echo?x=1`, { method: "PUT", body: "hello", headers: { "x-test": "yes" } });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-echo")).toBe("yes");
    expect(response.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(await response.json()).toEqual({ method: "PUT", url: `${server.url}/echo?x=1`, body: "hello" });
  });

  it("streams a large response body", async () => {
    const size = 3 * 1024 * 1024;
    server = await serveNode(async () => new Response(new Uint8Array(size).fill(7)));
    const bytes = new Uint8Array(await (await fetch(server.url)).arrayBuffer());
    expect(bytes.length).toBe(size);
    expect(bytes.every((b) => b === 7)).toBe(true);
  });

  it("answers a bare 500 when the handler throws, and reports the error", async () => {
    const errors: unknown[] = [];
    server = await serveNode(async () => {
      throw new Error("secret detail");
    }, { onError: (e) => errors.push(e) });
    const response = await fetch(server.url);
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain("secret");
    expect(errors).toHaveLength(1);
  });

  it("ignores a Host header that is not a plain host", async () => {
    server = await serveNode(async (request) => new Response(request.url));
    const answer = await rawGet(server.port, "/p", "evil.example/x?y");
    expect(answer).toEqual({ status: 200, body: "http://localhost/p" });
    expect((await rawGet(server.port, "/p", "feed.example:8080")).body).toBe("http://feed.example:8080/p");
  });

  it("answers 400 for a request target that is not a path", async () => {
    server = await serveNode(async () => new Response("never"));
    expect((await rawGet(server.port, "*", "localhost")).status).toBe(400);
  });

  it("aborts the handler's signal when the client goes away", async () => {
    let started!: () => void;
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    let aborted!: () => void;
    const sawAbort = new Promise<void>((resolve) => (aborted = resolve));
    server = await serveNode(async (request) => {
      request.signal.addEventListener("abort", () => aborted());
      started();
      await sawAbort;
      return new Response("late");
    });
    const controller = new AbortController();
    const pending = fetch(server.url, { signal: controller.signal }).catch((e: unknown) => e);
    await handlerStarted;
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    await sawAbort; // resolves only through the handler's abort listener
  });

  it("gives the handler a Request (instanceof, lazily built parts) with the URL in canonical form", async () => {
    server = await serveNode(async (request) => {
      const body = await request.text();
      return Response.json({ isRequest: request instanceof Request, url: request.url, method: request.method, auth: request.headers.get("authorization"), body });
    });
    const plain = await rawGet(server.port, "/a/b?x=1", "Feed.Example:80");
    expect(JSON.parse(plain.body)).toEqual({ isRequest: true, url: "http://feed.example/a/b?x=1", method: "GET", auth: null, body: "" });
    const dotted = await rawGet(server.port, "/a/../b/./c?q=%7e", "localhost");
    expect(JSON.parse(dotted.body).url).toBe("http://localhost/b/c?q=%7e");
    const posted = await fetch(`${server.url}/p`, { method: "POST", body: "payload", headers: { authorization: "Basic x" } });
    expect(await posted.json()).toMatchObject({ method: "POST", auth: "Basic x", body: "payload" });
  });

  it("writes a known body directly, with headers changed after the response was built", async () => {
    server = await serveNode(async () => {
      const response = restJsonResponse(202, { hello: "world" }, { "x-one": "1" });
      response.headers.append("set-cookie", "a=1");
      response.headers.append("set-cookie", "b=2");
      return response;
    });
    const response = await fetch(server.url);
    expect([response.status, response.headers.get("content-type"), response.headers.get("x-one")]).toEqual([202, "application/json", "1"]);
    expect(response.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(await response.json()).toEqual({ hello: "world" });
  });

  it("sends a known body with its byte length instead of chunked encoding; a length the handler set wins", async () => {
    const raw = (port: number, path: string) =>
      new Promise<{ headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
        const req = httpRequest({ host: "127.0.0.1", port, path }, (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (c: string) => (body += c));
          res.on("end", () => resolve({ headers: res.headers, body }));
        });
        req.on("error", reject);
        req.end();
      });
    server = await serveNode(async (request) => {
      if (request.url.endsWith("/given")) return restJsonResponse(200, { a: 1 }, { "Content-Length": "7" });
      return restJsonResponse(200, { name: "é€" });
    });
    const plain = await raw(server.port, "/");
    expect(plain.headers["content-length"]).toBe(String(Buffer.byteLength(plain.body)));
    expect(plain.headers["transfer-encoding"]).toBeUndefined();
    expect(JSON.parse(plain.body)).toEqual({ name: "é€" });
    const given = await raw(server.port, "/given");
    expect([given.headers["content-length"], given.body]).toEqual(["7", '{"a":1}']);
  });
});
