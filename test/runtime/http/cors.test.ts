import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { checkedOrigin, DEFAULT_CORS_ALLOW_HEADERS, isLoopbackOrigin, withCors, type CorsOptions } from "../../../src/runtime/http/cors.js";
import { directPathOf, handlerWithDirectPath, type HttpAnswerParts } from "../../../src/runtime/http/direct.js";
import type { HttpHandler } from "../../../src/runtime/http/handler.js";
import { serveNode, type NodeServerHandle } from "../../../src/runtime/http/node.js";

/** A handler that records what reached it and answers 200 JSON with a Vary of its own. */
function recording(): { handler: HttpHandler; reached: string[] } {
  const reached: string[] = [];
  const handler: HttpHandler = async (request) => {
    reached.push(request.method);
    return new Response('{"ok":true}', { headers: { "content-type": "application/json", vary: "accept-encoding", "x-total": "3" } });
  };
  return { handler, reached };
}

function request(method: string, headers: Record<string, string>): Request {
  return new Request("http://127.0.0.1:9000/api/things", { method, headers });
}

const preflight = (origin: string, extra: Record<string, string> = {}) =>
  request("OPTIONS", { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type, authorization", ...extra });

describe("isLoopbackOrigin (the default allowed origins)", () => {
  it.each([
    ["http://localhost", true],
    ["http://localhost:5173", true],
    ["https://app.localhost:8443", true],
    ["http://127.0.0.1:3000", true],
    ["http://[::1]:8080", true],
    ["http://127.0.0.2:3000", false],
    ["http://localhost.example.com", false],
    ["http://evil.example", false],
    ["null", false],
    ["file://", false],
    ["http://localhost:5173/path", false],
  ])("%s -> %s", (origin, allowed) => {
    expect(isLoopbackOrigin(origin)).toBe(allowed);
  });
});

describe("withCors: preflight", () => {
  it("answers an allowed origin's preflight itself: 204 with methods, headers, max-age and Vary", async () => {
    const { handler, reached } = recording();
    const response = await withCors(handler)(preflight("http://localhost:5173"));
    expect(response.status).toBe(204);
    expect(reached).toEqual([]);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      "access-control-allow-origin": "http://localhost:5173",
      "access-control-allow-methods": "GET, HEAD, POST, PUT, PATCH, DELETE",
      "access-control-allow-headers": DEFAULT_CORS_ALLOW_HEADERS.join(", "),
      "access-control-max-age": "600",
    });
    expect(response.headers.get("vary")).toContain("origin");
    expect(response.headers.has("access-control-allow-credentials")).toBe(false);
  });

  it("covers what the generated clients send: JSON/protobuf bodies, Authorization, Connect, gRPC-Web and SOAP headers", () => {
    expect(DEFAULT_CORS_ALLOW_HEADERS).toEqual(
      expect.arrayContaining([
        "content-type", "authorization", "connect-protocol-version", "connect-timeout-ms", "connect-accept-encoding",
        "x-grpc-web", "x-user-agent", "grpc-timeout", "grpc-accept-encoding", "soapaction",
      ]),
    );
  });

  it("refuses another origin's preflight with 403 and a reason, without calling the handler", async () => {
    const { handler, reached } = recording();
    const response = await withCors(handler)(preflight("http://evil.example"));
    expect(response.status).toBe(403);
    expect(response.headers.has("access-control-allow-origin")).toBe(false);
    expect(await response.text()).toBe("CORS: origin http://evil.example is not allowed\n");
    expect(reached).toEqual([]);
  });

  it("allows a public page to reach a loopback server only for an allowed origin (Private Network Access)", async () => {
    const cors = withCors(recording().handler, { origins: ["https://app.example"] });
    const allowed = await cors(preflight("https://app.example", { "access-control-request-private-network": "true" }));
    expect(allowed.headers.get("access-control-allow-private-network")).toBe("true");
    const plain = await cors(preflight("https://app.example"));
    expect(plain.headers.has("access-control-allow-private-network")).toBe(false);
  });

  it("passes an OPTIONS request that is not a preflight to the handler", async () => {
    const { handler, reached } = recording();
    const response = await withCors(handler)(request("OPTIONS", { origin: "http://localhost:1234" }));
    expect(reached).toEqual(["OPTIONS"]);
    expect(response.headers.get("access-control-allow-origin")).toBe("http://localhost:1234");
  });

  it.each<[string, CorsOptions, Record<string, string>]>([
    ["custom headers and methods", { allowHeaders: ["X-Api-Key"], allowMethods: ["get", "post"], maxAgeSeconds: 5 }, {
      "access-control-allow-headers": "x-api-key",
      "access-control-allow-methods": "GET, POST",
      "access-control-max-age": "5",
    }],
    ["credentials", { allowCredentials: true }, { "access-control-allow-credentials": "true", "access-control-allow-origin": "http://localhost:1" }],
    ["any origin", { origins: "*" }, { "access-control-allow-origin": "*" }],
    ["any origin with credentials names the origin", { origins: "*", allowCredentials: true }, { "access-control-allow-origin": "http://localhost:1" }],
  ])("options: %s", async (_, options, expected) => {
    const response = await withCors(recording().handler, options)(preflight("http://localhost:1"));
    expect(response.status).toBe(204);
    expect(Object.fromEntries(response.headers)).toMatchObject(expected);
  });
});

describe("withCors: requests", () => {
  it("adds Allow-Origin, the exposed headers and Vary to an allowed origin's answer", async () => {
    const { handler, reached } = recording();
    const response = await withCors(handler, { exposeHeaders: ["X-Total", "Link"] })(request("GET", { origin: "http://127.0.0.1:3000" }));
    expect(reached).toEqual(["GET"]);
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:3000");
    expect(response.headers.get("access-control-expose-headers")).toBe("x-total, link");
    expect(response.headers.get("vary")).toBe("accept-encoding, origin");
    expect(await response.json()).toEqual({ ok: true });
  });

  it("answers another origin without CORS headers (the browser withholds the answer), Vary still set", async () => {
    const response = await withCors(recording().handler)(request("POST", { origin: "http://evil.example" }));
    expect(response.status).toBe(200);
    expect(response.headers.has("access-control-allow-origin")).toBe(false);
    expect(response.headers.get("vary")).toBe("accept-encoding, origin");
  });

  it("leaves a request without Origin (curl, servers, the generated clients under Node) untouched", async () => {
    const original = new Response("x", { headers: { "x-a": "1" } });
    const before = [...original.headers];
    const response = await withCors(async () => original)(request("GET", {}));
    expect(response).toBe(original);
    expect([...response.headers]).toEqual(before);
  });

  it("answers with a copy when the handler's Response has immutable headers (a proxied fetch answer)", async () => {
    const immutable = Response.redirect("http://127.0.0.1:9/elsewhere", 302); // its headers are immutable
    const response = await withCors(async () => immutable)(request("GET", { origin: "http://localhost:8080" }));
    expect(response).not.toBe(immutable);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("http://127.0.0.1:9/elsewhere");
    expect(response.headers.get("access-control-allow-origin")).toBe("http://localhost:8080");
  });

  it("does not send Vary for \"*\" without credentials (every origin gets the same answer)", async () => {
    const response = await withCors(async () => new Response("x"), { origins: "*" })(request("GET", { origin: "http://a.example" }));
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.has("vary")).toBe(false);
  });

  it("accepts a predicate for origins", async () => {
    const cors = withCors(async () => new Response("x"), { origins: (origin) => origin.endsWith(".example.com") });
    expect((await cors(request("GET", { origin: "https://a.example.com" }))).headers.get("access-control-allow-origin")).toBe("https://a.example.com");
    expect((await cors(request("GET", { origin: "https://example.org" }))).headers.has("access-control-allow-origin")).toBe(false);
  });
});

describe("withCors: a REST server's direct path", () => {
  const parts: HttpAnswerParts = { status: 200, headers: { "content-type": "application/json", Vary: "accept" }, body: '{"id":1}' };

  it("keeps the direct path and adds the CORS headers to its parts", async () => {
    const wrapped = withCors(handlerWithDirectPath(() => parts), { exposeHeaders: ["link"] });
    const direct = directPathOf(wrapped);
    expect(direct).toBeDefined();
    const answer = await direct!(request("GET", { origin: "http://localhost:3000" }));
    expect(answer).toEqual({
      status: 200,
      headers: {
        "content-type": "application/json",
        Vary: "accept, origin",
        "access-control-allow-origin": "http://localhost:3000",
        "access-control-expose-headers": "link",
      },
      body: '{"id":1}',
    });
    expect(await direct!(request("GET", {}))).toBe(parts);
    const viaResponse = await wrapped(request("GET", { origin: "http://localhost:3000" }));
    expect(viaResponse.headers.get("access-control-allow-origin")).toBe("http://localhost:3000");
  });

  let server: NodeServerHandle | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("writes the CORS headers through the node adapter, for preflights and answers", async () => {
    server = await serveNode(withCors(handlerWithDirectPath(async () => parts)));
    const port = server.port;
    const raw = (method: string, headers: Record<string, string>) =>
      new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
        const req = httpRequest({ host: "127.0.0.1", port, path: "/x", method, headers }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
        });
        req.on("error", reject);
        req.end();
      });
    const pre = await raw("OPTIONS", { origin: "http://localhost:5173", "access-control-request-method": "GET" });
    expect(pre.status).toBe(204);
    expect(pre.headers["access-control-allow-origin"]).toBe("http://localhost:5173");
    const get = await raw("GET", { origin: "http://localhost:5173" });
    expect(get.status).toBe(200);
    expect(get.headers["access-control-allow-origin"]).toBe("http://localhost:5173");
    expect(get.headers["vary"]).toBe("accept, origin");
  });
});

describe("withCors: options are checked when the wrapper is made", () => {
  it.each<[CorsOptions, string]>([
    [{ origins: ["http://localhost:5173/"] }, 'CORS origin "http://localhost:5173/" is not in the form browsers send: did you mean "http://localhost:5173"?'],
    [{ origins: ["HTTP://LOCALHOST"] }, 'did you mean "http://localhost"?'],
    [{ origins: ["localhost:5173"] }, 'CORS origin "localhost:5173" is not an origin'],
    [{ origins: ["not a url"] }, 'CORS origin "not a url" is not an origin'],
    [{ allowHeaders: ["x api key"] }, 'CORS allowHeaders: "x api key" is not a header name or method'],
    [{ exposeHeaders: ["a\nb"] }, "CORS exposeHeaders"],
    [{ maxAgeSeconds: -1 }, "CORS maxAgeSeconds must be an integer >= 0, got -1"],
  ])("%j", (options, message) => {
    expect(() => withCors(async () => new Response(), options)).toThrow(message);
  });

  it("checkedOrigin returns a well-formed origin as it is", () => {
    expect(checkedOrigin("https://app.example:8443")).toBe("https://app.example:8443");
  });
});
