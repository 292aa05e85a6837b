/**
 * Load on the webhooks REST emulator through the generated client: 20 concurrent clients × 50 operations (25 creates,
 * then 25 renames). Every acknowledged write is there once with its last value, and the heap has settled.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createWebhooksEmulator } from "../../examples/webhooks/app.js";
import { createWebhooksAPIClient } from "../../generated/webhooks/index.js";
import { serveNode, type NodeServerHandle } from "../../src/runtime/http/node.js";
import { CLIENTS, OPERATIONS, runClients, SETTLED_BOUND_BYTES, settledHeap } from "./helpers.js";

let server: NodeServerHandle;
const auth = (req: Request) => {
  const headers = new Headers(req.headers);
  headers.set("authorization", `Basic ${Buffer.from("ck_admin:cs_admin").toString("base64")}`);
  return new Request(req, { headers });
};

beforeAll(async () => {
  // Pings go to a stub: the load is on the emulator, not on a receiver.
  server = await serveNode(createWebhooksEmulator(undefined, { fetch: async () => new Response("pong") }));
});
afterAll(async () => server?.close());

it("20 clients x 50 creates/renames: every acknowledged write is there once, with its last value", async () => {
  const before = await settledHeap();
  const baseUrl = `${server.url}/api/v2`;
  const acknowledged = new Map<number, string>();
  await runClients(CLIENTS, async (c) => {
    const client = createWebhooksAPIClient({ baseUrl, auth });
    const mine: number[] = [];
    for (let i = 0; i < OPERATIONS / 2; i++) {
      const r = await client.createWebhook({ body: { webhook: { name: `load-${c}-${i}`, topic: "order.created", delivery_url: "http://127.0.0.1:1/hook" } } });
      expect(r.status).toBe(201);
      if (r.status !== 201) continue;
      acknowledged.set(r.body.webhook.id!, `load-${c}-${i}`);
      mine.push(r.body.webhook.id!);
    }
    for (const [i, id] of mine.entries()) {
      const r = await client.updateWebhook({ path: { id }, body: { webhook: { name: `load-${c}-${i}-renamed` } } });
      expect(r.status).toBe(200);
      acknowledged.set(id, `load-${c}-${i}-renamed`);
    }
  });
  expect(acknowledged.size).toBe(CLIENTS * (OPERATIONS / 2));

  const client = createWebhooksAPIClient({ baseUrl, auth });
  const seen: { id: number; name: string }[] = [];
  for (let page = 1; ; page++) {
    const r = await client.listWebhooks({ query: { page, filter: { limit: "100" } } });
    expect(r.status).toBe(200);
    if (r.status !== 200 || r.body.webhooks.length === 0) break;
    seen.push(...r.body.webhooks.map((w) => ({ id: w.id!, name: w.name ?? "" })));
  }
  const load = seen.filter((w) => w.name.startsWith("load-"));
  expect(new Set(load.map((w) => w.id)).size).toBe(load.length);
  expect(new Set(load.map((w) => w.name)).size).toBe(load.length);
  expect(new Map(load.map((w) => [w.id, w.name]))).toEqual(acknowledged);

  expect((await settledHeap()) - before).toBeLessThan(SETTLED_BOUND_BYTES);
});
