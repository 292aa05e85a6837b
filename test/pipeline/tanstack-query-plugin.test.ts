/**
 * The first-party plugin `specforge:tanstack-query` (issue 33): query.ts for the webhooks seed, generated through the
 * CLI with the plugin named in the config, type-checked strict against the generated client, and run with the real
 * `@tanstack/query-core` in node: cached queries under stable keys, the abort signal reaching fetch, mutations.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { MutationObserver, QueryClient } from "@tanstack/query-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { REPO } from "../helpers/seeds.js";

/** What fetchQuery takes: the generated factories are loaded untyped here (their types are checked in the typecheck test). */
type AnyQuery = Parameters<QueryClient["fetchQuery"]>[0];
import { typecheckFiles } from "../helpers/typecheck.js";

let dir: string;
let out: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "specforge-tanstack-"));
  mkdirSync(path.join(dir, "specs"));
  copyFileSync(path.join(REPO, "specs/webhooks.openapi.yaml"), path.join(dir, "specs/webhooks.openapi.yaml"));
  writeFileSync(path.join(dir, "specforge.config.json"), JSON.stringify({ specs: ["specs/webhooks.openapi.yaml"], plugins: ["specforge:tanstack-query"] }));
  const r = await runCli(dir, "generate", "--quiet");
  expect(r.err).toBe("");
  expect(r.code).toBe(0);
  out = path.join(dir, "generated/webhooks");
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Call {
  readonly method: string;
  readonly url: string;
  readonly body: string;
  readonly signal: AbortSignal;
}

/** A fetch answering like the API would, recording each request; `/webhooks` (the list) waits until aborted. */
function fakeApi(calls: Call[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    calls.push({ method: request.method, url: url.pathname + url.search, body: await request.text(), signal: request.signal });
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    if (url.pathname === "/api/webhooks/count") return json(200, { count: 3 });
    if (url.pathname === "/api/webhooks" && request.method === "POST") return json(201, { webhook: { id: 9, topic: "orders/create" } });
    if (url.pathname === "/api/webhooks") {
      return new Promise<Response>((_, reject) => request.signal.addEventListener("abort", () => reject(request.signal.reason)));
    }
    return json(404, { code: "not_found", message: "no" });
  };
}

async function load(): Promise<{ queries: Record<string, (...a: unknown[]) => Record<string, unknown>>; calls: Call[] }> {
  const query = (await import(pathToFileURL(path.join(out, "query.ts")).href)) as Record<string, (client: unknown) => Record<string, (...a: unknown[]) => Record<string, unknown>>>;
  const client = (await import(pathToFileURL(path.join(out, "client.ts")).href)) as Record<string, (o: unknown) => unknown>;
  const calls: Call[] = [];
  const api = client.createWebhooksAPIClient!({ baseUrl: "http://api.test/api", fetch: fakeApi(calls) });
  return { queries: query.webhooksAPIQueries!(api), calls };
}

describe("specforge:tanstack-query", () => {
  it("writes query.ts, owned by the folder's manifest, with an entry per operation", () => {
    const manifest = JSON.parse(readFileSync(path.join(out, ".specforge-manifest.json"), "utf8")) as { files: string[] };
    expect(manifest.files).toContain("query.ts");
    const text = readFileSync(path.join(out, "query.ts"), "utf8");
    const client = readFileSync(path.join(out, "client.ts"), "utf8");
    // Every method of the client interface has its factory.
    const methods = [...client.matchAll(/^ {2}(\w+)\(\n/gm)].map((m) => m[1]!);
    expect(methods.length).toBeGreaterThan(5);
    for (const m of methods) expect(text).toMatch(new RegExp(`^ {4}${m}: \\(`, "m"));
  });

  it("type-checks strict against the generated client, with typed results and required requests", () => {
    const consumer = [
      'import { createWebhooksAPIClient } from "./client.js";',
      'import { webhooksAPIQueries } from "./query.js";',
      'const q = webhooksAPIQueries(createWebhooksAPIClient({ baseUrl: "http://x" }));',
      "const list = q.listWebhooks();",
      "const one = q.getWebhook({ path: { id: 1 } });",
      "type One = Awaited<ReturnType<typeof one.queryFn>>;",
      "export const status: 200 | 401 | 404 = null as unknown as One[\"status\"];",
      "// @ts-expect-error the body of a 200 is the envelope, not a number",
      "export const wrong: number = null as unknown as Extract<One, { status: 200 }>[\"body\"];",
      "// @ts-expect-error getWebhook needs its path parameters",
      "q.getWebhook();",
      "const create = q.createWebhook();",
      "// @ts-expect-error a mutation's variables are the operation's request",
      "create.mutationFn({ body: 1 });",
      "export { list, create };",
    ].join("\n");
    const files = new Map([["consumer.ts", consumer]]);
    for (const f of ["query.ts", "client.ts", "types.ts"]) files.set(f, readFileSync(path.join(out, f), "utf8"));
    expect(typecheckFiles(files)).toEqual([]);
  });

  it("queries run through QueryClient: one fetch per key, whatever the request's property order", async () => {
    const { queries, calls } = await load();
    const qc = new QueryClient();
    const first = (await qc.fetchQuery({ ...queries.countWebhooks!({ query: { status: "active", filter: { a: "1" } } }), staleTime: Infinity } as AnyQuery)) as { status: number; body: unknown };
    expect(first).toMatchObject({ status: 200, body: { count: 3 } });
    expect(calls.map((c) => [c.method, c.url])).toEqual([["GET", "/api/webhooks/count?status=active&filter%5Ba%5D=1"]]);
    const again = queries.countWebhooks!({ query: { filter: { a: "1" }, status: "active" } });
    expect(await qc.fetchQuery({ ...again, staleTime: Infinity } as AnyQuery)).toBe(first);
    expect(calls.length).toBe(1);
    expect(qc.getQueryData(again.queryKey as readonly unknown[])).toBe(first);
    // Another request is another key.
    await qc.fetchQuery(queries.countWebhooks!({ query: { status: "paused" } }) as unknown as AnyQuery);
    expect(calls.length).toBe(2);
  });

  it("cancelling a query aborts its fetch: TanStack's signal is passed through", async () => {
    const { queries, calls } = await load();
    const qc = new QueryClient();
    const options = queries.listWebhooks!();
    const pending = qc.fetchQuery(options as unknown as AnyQuery);
    await vi.waitFor(() => expect(calls.length).toBe(1));
    expect(calls[0]!.signal.aborted).toBe(false);
    await qc.cancelQueries({ queryKey: options.queryKey as readonly unknown[] });
    await expect(pending).rejects.toThrow();
    expect(calls[0]!.signal.aborted).toBe(true);
  });

  it("mutations run through MutationObserver with the request as variables", async () => {
    const { queries, calls } = await load();
    const qc = new QueryClient();
    const observer = new MutationObserver(qc, queries.createWebhook!() as never);
    const result = (await observer.mutate({ body: { webhook: { topic: "orders/create", delivery_url: "https://h.example" } } } as never)) as { status: number; body: unknown };
    expect(result).toMatchObject({ status: 201, body: { webhook: { id: 9 } } });
    expect(calls.map((c) => [c.method, c.url, JSON.parse(c.body)])).toEqual([
      ["POST", "/api/webhooks", { webhook: { topic: "orders/create", delivery_url: "https://h.example" } }],
    ]);
  });
});

const SHOP = `syntax = "proto3";
package shop.v1;
message GetItemRequest { string id = 1; }
message Item { string id = 1; string name = 2; }
message SaveItemRequest { Item item = 1; }
service Shop {
  // Read only: a query.
  rpc GetItem(GetItemRequest) returns (Item) { option idempotency_level = NO_SIDE_EFFECTS; }
  // Writes: a mutation.
  rpc SaveItem(SaveItemRequest) returns (Item);
  // Streaming: no factory.
  rpc WatchItem(GetItemRequest) returns (stream Item);
}
`;

describe("specforge:tanstack-query on Connect services (unary methods)", () => {
  let shop: string;
  beforeAll(async () => {
    shop = mkdtempSync(path.join(os.tmpdir(), "specforge-tanstack-connect-"));
    writeFileSync(path.join(shop, "shop.proto"), SHOP);
    writeFileSync(path.join(shop, "specforge.config.json"), JSON.stringify({ specs: ["shop.proto"], plugins: ["specforge:tanstack-query"] }));
    const r = await runCli(shop, "generate", "--quiet");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
  });
  afterAll(() => rmSync(shop, { recursive: true, force: true }));

  it("queries for methods without side effects, mutations for other unary methods, nothing for streams; strict-clean", () => {
    const folder = path.join(shop, "generated/shop");
    const text = readFileSync(path.join(folder, "query.ts"), "utf8");
    expect(text).toMatch(/^ {4}getItem: \(request: RequestOf<ShopClient, "getItem">\) => \(\{\n {6}queryKey: \["shop\.v1\.Shop", "getItem", request\]/m);
    expect(text).toMatch(/^ {4}saveItem: \(\) => \(\{\n {6}mutationKey: \["shop\.v1\.Shop", "saveItem"\]/m);
    expect(text).not.toContain("watchItem");
    const files = new Map(readdirSync(folder).filter((f) => f.endsWith(".ts")).map((f) => [f, readFileSync(path.join(folder, f), "utf8")]));
    files.set("consumer.ts", [
      'import { createShopClient } from "./connect.js";',
      'import { shopQueries } from "./query.js";',
      'const q = shopQueries(createShopClient({ baseUrl: "http://x" }));',
      'const get = q.getItem({ id: "1" });',
      "export const name: string | undefined = null as unknown as Awaited<ReturnType<typeof get.queryFn>>[\"name\"];",
      "// @ts-expect-error the request is a GetItemRequest",
      "q.getItem({ id: 1 });",
      "export const save = q.saveItem();",
    ].join("\n"));
    expect(typecheckFiles(files)).toEqual([]);
  });

  it("runs against the generated Connect handler through QueryClient, the abort signal reaching fetch", async () => {
    const folder = path.join(shop, "generated/shop");
    const connect = (await import(pathToFileURL(path.join(folder, "connect.ts")).href)) as Record<string, (...a: unknown[]) => unknown>;
    const query = (await import(pathToFileURL(path.join(folder, "query.ts")).href)) as Record<string, (c: unknown) => Record<string, (...a: unknown[]) => Record<string, unknown>>>;
    const saved: unknown[] = [];
    const handler = connect.createShopHandler!({
      getItem: async (req: { id: string }) => (req.id === "slow" ? new Promise(() => {}) : { id: req.id, name: `item ${req.id}` }),
      saveItem: async (req: { item?: { id: string; name: string } }) => (saved.push(req.item), req.item),
      watchItem: async function* () {},
    }) as (r: Request) => Promise<Response>;
    const requests: Request[] = [];
    const client = connect.createShopClient!({
      baseUrl: "http://shop.test",
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        requests.push(request);
        return handler(request);
      },
    });
    const q = query.shopQueries!(client);
    const qc = new QueryClient();
    const item = await qc.fetchQuery({ ...q.getItem!({ id: "7" }), staleTime: Infinity } as AnyQuery);
    expect(item).toEqual({ id: "7", name: "item 7" });
    expect(await qc.fetchQuery({ ...q.getItem!({ id: "7" }), staleTime: Infinity } as AnyQuery)).toBe(item);
    expect(requests.length).toBe(1);
    expect(new URL(requests[0]!.url).pathname).toBe("/shop.v1.Shop/GetItem");

    const slow = q.getItem!({ id: "slow" });
    const pending = qc.fetchQuery(slow as unknown as AnyQuery);
    await vi.waitFor(() => expect(requests.length).toBe(2));
    await qc.cancelQueries({ queryKey: slow.queryKey as readonly unknown[] });
    await expect(pending).rejects.toThrow();
    expect(requests[1]!.signal.aborted).toBe(true);

    const result = await new MutationObserver(qc, q.saveItem!() as never).mutate({ item: { id: "9", name: "new" } } as never);
    expect(result).toEqual({ id: "9", name: "new" });
    expect(saved).toEqual([{ id: "9", name: "new" }]);
  });
});
