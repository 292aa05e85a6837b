import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConnectError } from "../../../src/runtime/connect/error.js";
import type { HttpHandler } from "../../../src/runtime/http/handler.js";
import { serveNode, type NodeServerHandle } from "../../../src/runtime/http/node.js";
import { GREETER_PROTO } from "./emit.helpers.js";
import { generateToTemp, type TempOutput } from "./generate-temp.js";

/** The shapes of the generated greeter connect.ts this test uses (the module is generated at test time). */
interface GreetRequest { name: string; times: bigint; tags?: string[] }
interface GreetResponse { greeting: string; count: bigint }
interface Item { id: number; title: string }
interface CallOptions { timeoutMs?: number; headers?: HeadersInit }
interface ClientOptions { baseUrl: string; format?: "proto" | "json"; fetch?: typeof fetch; headers?: HeadersInit }
interface GreeterModule {
  createGreeterClient(options: ClientOptions): {
    greet(request: GreetRequest, options?: CallOptions): Promise<GreetResponse>;
    fail(request: GreetRequest): Promise<object>;
  };
  createCatalogClient(options: ClientOptions): {
    getItem(request: Item): Promise<Item>;
    listItems(request: object): Promise<{ items?: Item[]; nextRequestUrl: string }>;
  };
  createGreeterHandler(impl: {
    greet(request: GreetRequest, context: { request: Request; responseHeaders: Headers }): Promise<GreetResponse>;
    fail(request: GreetRequest): Promise<object>;
  }): HttpHandler;
  createCatalogHandler(impl: { getItem(request: Item): Promise<Item>; listItems(request: object): Promise<object> }): HttpHandler;
}

let out: TempOutput;
let greeter: GreeterModule;
let server: NodeServerHandle;

beforeAll(async () => {
  out = generateToTemp(GREETER_PROTO);
  greeter = (await import(`${out.dir}/connect.ts`)) as GreeterModule;
  const greeterHandler = greeter.createGreeterHandler({
    greet: async ({ name, times, tags }, context) => {
      context.responseHeaders.set("x-greeted", name);
      const suffix = tags?.length ? ` [${tags.join(",")}]` : "";
      return { greeting: `hello ${name}${context.request.headers.get("x-shout") ? "!" : ""}${suffix}`, count: times * 2n };
    },
    fail: async ({ name }) => {
      if (name === "boom") throw new TypeError("undefined is not a function at secret.ts:1");
      throw new ConnectError(name as ConnectError["code"], `asked for ${name}`);
    },
  });
  const catalogHandler = greeter.createCatalogHandler({
    getItem: async (item) => ({ id: item.id + 1, title: item.title.toUpperCase() }),
    listItems: async () => ({ items: [{ id: 1, title: "one" }, { id: 2, title: "two" }], nextRequestUrl: "" }),
  });
  // Two services on one server: route by the service prefix of the procedure path.
  server = await serveNode(async (request) =>
    new URL(request.url).pathname.startsWith("/specforge.test.v1.Catalog/") ? catalogHandler(request) : greeterHandler(request),
  );
});

afterAll(async () => {
  await server?.close();
  out?.remove();
});

describe("a test service with several unary methods over Connect", () => {
  it.each(["proto", "json"] as const)("round-trips int64 and repeated fields (%s)", async (format) => {
    const client = greeter.createGreeterClient({ baseUrl: server.url, format });
    const big = 2n ** 60n + 1n; // over 2^53: exact only as bigint
    expect(await client.greet({ name: "Ada", times: big, tags: ["a", "b"] })).toEqual({ greeting: "hello Ada [a,b]", count: big * 2n });
  });

  it("sends client and call headers", async () => {
    const client = greeter.createGreeterClient({ baseUrl: server.url, headers: { "x-shout": "1" } });
    expect((await client.greet({ name: "Bo", times: 1n })).greeting).toBe("hello Bo!");
  });

  it("writes int64 as a JSON string on the wire (ProtoJSON)", async () => {
    const bodies: string[] = [];
    const recording: typeof fetch = async (input, init) => {
      bodies.push(String(init?.body instanceof Uint8Array ? new TextDecoder().decode(init.body) : init?.body));
      return fetch(input, init);
    };
    await greeter.createGreeterClient({ baseUrl: server.url, format: "json", fetch: recording }).greet({ name: "x", times: 5n });
    expect(JSON.parse(bodies[0]!)).toEqual({ name: "x", times: "5" });
  });

  it.each([
    ["not_found", 404],
    ["already_exists", 409],
    ["failed_precondition", 400],
    ["unauthenticated", 401],
    ["unavailable", 503],
  ] as const)("a thrown %s reaches the client with HTTP %i", async (code, status) => {
    const raw = await fetch(`${server.url}/specforge.test.v1.Greeter/Fail`, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: code }),
    });
    expect(raw.status).toBe(status);
    const error = await greeter.createGreeterClient({ baseUrl: server.url }).fail({ name: code, times: 0n }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).code).toBe(code);
  });

  it("any other thrown error is internal, without its message or stack", async () => {
    const error = await greeter.createGreeterClient({ baseUrl: server.url, format: "json" }).fail({ name: "boom", times: 0n }).catch((e: unknown) => e);
    expect((error as ConnectError).code).toBe("internal");
    expect((error as ConnectError).rawMessage).toBe("internal error");
  });

  it("serves the second service's methods", async () => {
    const catalog = greeter.createCatalogClient({ baseUrl: server.url });
    expect(await catalog.getItem({ id: 41, title: "x" })).toMatchObject({ id: 42, title: "X" });
    expect((await catalog.listItems({})).items?.map((i) => i.title)).toEqual(["one", "two"]);
  });

  it("rejects JSON with fields of the wrong type as invalid_argument", async () => {
    const raw = await fetch(`${server.url}/specforge.test.v1.Greeter/Greet`, {
      method: "POST", headers: { "content-type": "application/json" }, body: '{"name": 5, "times": "x"}',
    });
    expect(raw.status).toBe(400);
    expect((await raw.json()).code).toBe("invalid_argument");
  });

  it("leaves prototypes alone for __proto__ and constructor keys", async () => {
    const raw = await fetch(`${server.url}/specforge.test.v1.Greeter/Greet`, {
      method: "POST", headers: { "content-type": "application/json" },
      body: '{"name":"p","times":"1","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    });
    expect([200, 400]).toContain(raw.status);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
