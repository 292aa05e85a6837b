import { describe, expect, it } from "vitest";
import {
  RestResponseFormatError, restAppendDeepObject, restAppendForm, restFormBody, restPathParam, restSend,
} from "../../../src/runtime/rest/client.js";
import { serveNode } from "../../../src/runtime/http/node.js";

describe("client helpers", () => {
  it("serializes form and deepObject parameters", () => {
    const q = new URLSearchParams();
    restAppendForm(q, "fields", ["id", "name"], false);
    restAppendForm(q, "tag", ["a", "b"], true);
    restAppendForm(q, "page", 2, true);
    restAppendForm(q, "skip", undefined, true);
    restAppendDeepObject(q, "filter", { status: "x y", limit: "1" });
    expect(q.toString()).toBe("fields=id%2Cname&tag=a&tag=b&page=2&filter%5Bstatus%5D=x+y&filter%5Blimit%5D=1");
    expect(restPathParam("a/b c")).toBe("a%2Fb%20c");
    // A nullable path parameter (vtex.local's `facets` in the APIs.guru directory): null expands to nothing.
    expect(restPathParam(null)).toBe("");
    expect(restFormBody({ user_id: 6, access_level: 30, none: undefined }).toString()).toBe("user_id=6&access_level=30");
  });
});

describe("restSend without a network", () => {
  it("sends a GET with an empty optional form body without one (fetch refuses a GET with a body)", async () => {
    const seen: Request[] = [];
    const fetch: typeof globalThis.fetch = async (input, init) => {
      seen.push(new Request(input, init));
      return new Response(null, { status: 204 });
    };
    const client = { baseUrl: "http://api.test", fetch };
    expect((await restSend(client, "op", "GET", "/things", undefined, {}, { kind: "form", value: restFormBody({}) })).status).toBe(204);
    expect([seen[0]!.body, seen[0]!.headers.get("content-type")]).toEqual([null, null]);
    // A POST keeps its (empty) form body and content type; a GET with form fields is refused by fetch, as before.
    await restSend(client, "op", "POST", "/things", undefined, {}, { kind: "form", value: restFormBody({}) });
    expect(seen[1]!.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    await expect(restSend(client, "op", "GET", "/things", undefined, {}, { kind: "form", value: restFormBody({ a: 1 }) })).rejects.toThrow(TypeError);
  });
});

describe("restSend over loopback", () => {
  it("sends headers, auth and JSON; reads status, headers and body; aborts on timeout", async () => {
    const seen: Request[] = [];
    const server = await serveNode(async (request) => {
      seen.push(request);
      const url = new URL(request.url);
      if (url.pathname === "/slow") await new Promise((r) => setTimeout(r, 2000));
      if (url.pathname === "/broken") return new Response("{", { headers: { "content-type": "application/json" } });
      return new Response(JSON.stringify({ echo: await request.text() }), { status: 201, headers: { "content-type": "application/json", "x-total": "7" } });
    });
    try {
      const client = {
        baseUrl: `${server.url}/`,
        headers: { "x-default": "d" },
        auth: (r: Request) => {
          const headers = new Headers(r.headers);
          headers.set("authorization", "Bearer t");
          return new Request(r, { headers });
        },
      };
      const r = await restSend(client, "op", "POST", "/things", new URLSearchParams("a=1"), { "x-h": "h" }, { kind: "json", value: { n: 1 } });
      expect([r.status, r.body, r.headers.get("x-total")]).toEqual([201, { echo: '{"n":1}' }, "7"]);
      const req = seen[0]!;
      expect(new URL(req.url).pathname + new URL(req.url).search).toBe("/things?a=1");
      expect([req.headers.get("x-default"), req.headers.get("x-h"), req.headers.get("authorization"), req.headers.get("content-type")]).toEqual(["d", "h", "Bearer t", "application/json"]);
      const timedOut = await restSend({ ...client, timeoutMs: 50 }, "op", "GET", "/slow", undefined, {}, undefined).catch((e: Error) => e.name);
      expect(timedOut).toBe("TimeoutError");
      const controller = new AbortController();
      const pending = restSend(client, "op", "GET", "/slow", undefined, {}, undefined, { signal: controller.signal }).catch((e: Error) => e.name);
      controller.abort();
      expect(await pending).toBe("AbortError");
      await expect(restSend(client, "op", "GET", "/broken", undefined, {}, undefined)).rejects.toBeInstanceOf(RestResponseFormatError);
    } finally {
      await server.close();
    }
  });
});

describe("restSend with a body declared on GET", () => {
  it("leaves an empty form out (Stripe's GET operations declare one) and refuses a non-empty one clearly", async () => {
    const seen: Request[] = [];
    const fetchStub = (async (r: Request) => {
      seen.push(r);
      return new Response(null, { status: 204 });
    }) as unknown as typeof fetch;
    const r = await restSend({ baseUrl: "http://x", fetch: fetchStub }, "listThings", "GET", "/things", undefined, {}, { kind: "form", value: [] });
    expect(r.status).toBe(204);
    expect(seen[0]!.body).toBeNull();
    expect(seen[0]!.headers.get("content-type")).toBeNull();
    await expect(restSend({ baseUrl: "http://x", fetch: fetchStub }, "listThings", "GET", "/things", undefined, {}, { kind: "form", value: ["a=1"] })).rejects.toThrow(/listThings: a GET request cannot carry a body/);
  });
});
