/**
 * The first-party plugin `specforge:tanstack-query` (issue 33): query.ts for the webhooks seed, generated through the
 * CLI with the plugin named in the config, type-checked strict against the generated client, and run with the real
 * `@tanstack/query-core` in node: cached queries under stable keys, the abort signal reaching fetch, mutations.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { MutationObserver, QueryClient } from "@tanstack/query-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { REPO } from "../helpers/seeds.js";
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
    const first = (await qc.fetchQuery({ ...queries.countWebhooks!({ query: { status: "active", filter: { a: "1" } } }), staleTime: Infinity })) as { status: number; body: unknown };
    expect(first).toMatchObject({ status: 200, body: { count: 3 } });
    expect(calls.map((c) => [c.method, c.url])).toEqual([["GET", "/api/webhooks/count?status=active&filter%5Ba%5D=1"]]);
    const again = queries.countWebhooks!({ query: { filter: { a: "1" }, status: "active" } });
    expect(await qc.fetchQuery({ ...again, staleTime: Infinity })).toBe(first);
    expect(calls.length).toBe(1);
    expect(qc.getQueryData(again.queryKey as readonly unknown[])).toBe(first);
    // Another request is another key.
    await qc.fetchQuery(queries.countWebhooks!({ query: { status: "paused" } }));
    expect(calls.length).toBe(2);
  });

  it("cancelling a query aborts its fetch: TanStack's signal is passed through", async () => {
    const { queries, calls } = await load();
    const qc = new QueryClient();
    const options = queries.listWebhooks!();
    const pending = qc.fetchQuery(options);
    await new Promise((r) => setTimeout(r, 10));
    expect(calls.length).toBe(1);
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
