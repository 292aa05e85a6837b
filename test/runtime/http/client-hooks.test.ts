import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMembersAPIClient } from "../../../generated/members/index.js";
import { createPartnerServiceClient, createPartnerServiceServer } from "../../../generated/partner/index.js";
import { serveNode, type NodeServerHandle } from "../../../src/runtime/http/node.js";
import { serveNodeHttp2, type NodeHttp2ServerHandle } from "../../../src/runtime/http/node-http2.js";
import { basicAuth, bearerAuth, type Interceptor } from "../../../src/runtime/index.js";
import type { TempOutput } from "../../emitters/proto-http/generate-temp.js";
import { implementation, loadInterop, payloadOf, type InteropModule, type Observed } from "../../rpc/service.js";

/**
 * The hooks every generated client has (SOAP, REST, RPC): per-client and per-call HTTP headers, basic and bearer
 * auth, and interceptors that see and may change the request and the response, checked on what the server received
 * and what the caller got back.
 */

/** Records the order interceptors run in, and stamps the request and the response. */
function tracer(name: string, log: string[]): Interceptor {
  return (next) => async (request) => {
    log.push(`${name}>`);
    const headers = new Headers(request.headers);
    headers.append("x-trace", name);
    const response = await next(new Request(request, { headers }));
    log.push(`<${name}`);
    const out = new Headers(response.headers);
    out.append("x-seen-by", name);
    return new Response(response.body, { status: response.status, headers: out });
  };
}

describe("SOAP client hooks", () => {
  const received: Request[] = [];
  const handler = createPartnerServiceServer({ getServerTimestamp: () => ({ result: { timestamp: "2024-05-06T07:08:09.000Z" } }) });
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    received.push(request.clone());
    return handler(request);
  };

  it("sends the client's and the call's HTTP headers beside SOAPAction, which they cannot override", async () => {
    received.length = 0;
    const api = createPartnerServiceClient({ endpoint: "http://127.0.0.1:1/soap", fetch, httpHeaders: { "x-tenant": "acme", "x-both": "client", SOAPAction: "evil" } });
    await api.getServerTimestamp({}, { httpHeaders: { "x-both": "call", "x-request-id": "r1" } });
    const h = received[0]!.headers;
    expect([h.get("x-tenant"), h.get("x-both"), h.get("x-request-id"), h.get("soapaction"), h.get("content-type")]).toEqual([
      "acme", "call", "r1", '""', "text/xml; charset=utf-8",
    ]);
  });

  it("basic and bearer auth (a token function is asked on every call)", async () => {
    received.length = 0;
    await createPartnerServiceClient({ endpoint: "http://127.0.0.1:1/soap", fetch, auth: basicAuth("zoë", "p:w") }).getServerTimestamp({});
    expect(received[0]!.headers.get("authorization")).toBe(`Basic ${Buffer.from("zoë:p:w", "utf8").toString("base64")}`);
    let n = 0;
    const api = createPartnerServiceClient({ endpoint: "http://127.0.0.1:1/soap", fetch, auth: bearerAuth(async () => `token-${++n}`) });
    await api.getServerTimestamp({});
    await api.getServerTimestamp({});
    expect(received.slice(1).map((r) => r.headers.get("authorization"))).toEqual(["Bearer token-1", "Bearer token-2"]);
    expect(() => basicAuth("a:b", "c")).toThrow(TypeError);
  });

  it("interceptors run outermost first, see the envelope, and may change the response", async () => {
    received.length = 0;
    const log: string[] = [];
    let envelope = "";
    const peek: Interceptor = (next) => async (request) => {
      envelope = await request.clone().text();
      return next(request);
    };
    // Rewrites the answer the caller decodes: the interceptor really sits on the response path.
    const rewrite: Interceptor = (next) => async (request) => {
      const response = await next(request);
      const text = (await response.text()).replace("2024-05-06T07:08:09.000Z", "2030-01-01T00:00:00.000Z");
      return new Response(text, { status: response.status, headers: response.headers });
    };
    const api = createPartnerServiceClient({ endpoint: "http://127.0.0.1:1/soap", fetch, interceptors: [tracer("a", log), tracer("b", log), peek, rewrite] });
    const answer = await api.getServerTimestamp({});
    expect(log).toEqual(["a>", "b>", "<b", "<a"]);
    expect(received[0]!.headers.get("x-trace")).toBe("a, b");
    expect(envelope).toContain("getServerTimestamp");
    expect(answer.body.result.timestamp).toBe("2030-01-01T00:00:00.000Z");
  });
});

describe("REST client hooks", () => {
  it("auth, per-call headers and interceptors on a generated REST client", async () => {
    const received: Request[] = [];
    const log: string[] = [];
    const fetch = async (input: string | URL | Request, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      received.push(request);
      return new Response("[]", { status: 200, headers: { "content-type": "application/json" } });
    };
    const api = createMembersAPIClient({
      baseUrl: "http://127.0.0.1:1/api/v4",
      fetch: fetch as typeof globalThis.fetch,
      headers: { "x-client": "c" },
      auth: bearerAuth("rest-token"),
      interceptors: [tracer("one", log)],
    });
    const answer = await api.listProjectMembers({ path: { id: 7 } }, { headers: { "x-call": "k" } });
    expect(answer.status).toBe(200);
    const h = received[0]!.headers;
    expect([h.get("authorization"), h.get("x-client"), h.get("x-call"), h.get("x-trace")]).toEqual(["Bearer rest-token", "c", "k", "one"]);
    expect(answer.headers.get("x-seen-by")).toBe("one");
    expect(log).toEqual(["one>", "<one"]);
  });
});

describe("RPC client hooks", () => {
  let module: InteropModule;
  let output: TempOutput;
  let server: NodeServerHandle;
  let h2c: NodeHttp2ServerHandle;
  const observed: Observed = { running: 0, aborted: 0 };
  beforeAll(async () => {
    ({ module, output } = await loadInterop());
    const handler = module.createInteropServiceHandler(implementation(observed));
    server = await serveNode(handler);
    h2c = await serveNodeHttp2(handler);
  });
  afterAll(async () => {
    await server?.close();
    await h2c?.close();
    output?.remove();
  });

  it("Connect over fetch: auth, per-call headers and interceptors (which see the response headers)", async () => {
    const log: string[] = [];
    let echoed: string | null = null;
    const sawEcho: Interceptor = (next) => async (request) => {
      const response = await next(request);
      echoed = response.headers.get("x-echo");
      return response;
    };
    const client = module.createInteropServiceClient({ baseUrl: server.url, auth: basicAuth("rpc", "pw"), interceptors: [tracer("t", log), sawEcho] });
    const answer = await client.unary({ payload: payloadOf("hi") }, { headers: { "x-ping": "p" } });
    expect(answer.payload?.text).toBe("hi");
    expect(observed.lastHeaders?.get("authorization")).toBe(`Basic ${btoa("rpc:pw")}`);
    expect(observed.lastHeaders?.get("x-trace")).toBe("t");
    expect(echoed).toBe("p");
    expect(log).toEqual(["t>", "<t"]);
  });

  it("gRPC over HTTP/2: auth reaches the server; interceptors are refused up front", async () => {
    const client = module.createInteropServiceClient({ baseUrl: h2c.url, protocol: "grpc", auth: bearerAuth(() => "h2-token") });
    await client.unary({ payload: payloadOf("x") });
    expect(observed.lastHeaders?.get("authorization")).toBe("Bearer h2-token");
    expect(() => module.createInteropServiceClient({ baseUrl: server.url, protocol: "grpc", interceptors: [tracer("x", [])] })).toThrow(/interceptors need the fetch transport/);
  });
});
