import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createWebhooksAPIServer, type Webhook, type WebhooksAPIHandlers } from "../generated/webhooks/index.js";
import { restListen } from "../src/runtime/rest/node-server.js";
import type { BenchResult, BenchSuite } from "./harness.js";

/**
 * GET /api/v2/webhooks/{id}?fields=... through the generated server against a hand-written handler doing the same
 * work (route match, id coercion and check, fields list, lookup, JSON response), both as web-standard handlers called
 * directly and both served by node:http over loopback with a bounded number of requests.
 */

const WEBHOOKS = new Map<number, Webhook>(
  Array.from({ length: 50 }, (_, i) => [i + 1, {
    id: i + 1, name: `Webhook ${i + 1}`, status: "active", topic: "order.created", resource: "order", event: "created",
    hooks: [], delivery_url: "https://example.invalid/hook", created_at: "2024-01-02T03:04:05", updated_at: "2024-01-02T03:04:05",
  } satisfies Webhook]),
);

function pick(webhook: Webhook, fields: readonly string[] | undefined): Webhook {
  if (!fields) return webhook;
  const out: Record<string, unknown> = {};
  for (const f of fields) if (f in webhook) out[f] = webhook[f as keyof Webhook];
  return out as Webhook;
}

const notFound = { errors: [{ code: "shop_api_no_webhook_found" as const, message: "No webhook found." }] };
const unused = () => ({ status: 401 as const, body: { errors: [{ code: "shop_api_authentication_error" as const, message: "unused" }] } });

const handlers: WebhooksAPIHandlers = {
  getWebhook({ path, query }) {
    const webhook = WEBHOOKS.get(path.id);
    if (!webhook) return { status: 404, body: notFound };
    return { status: 200, body: { webhook: pick(webhook, query.fields) } };
  },
  listWebhooks: unused, createWebhook: unused, countWebhooks: unused, updateWebhook: unused, deleteWebhook: unused,
  listWebhookDeliveries: unused, getWebhookDelivery: unused,
};

const generated = createWebhooksAPIServer(handlers);

const ROUTE = /^\/api\/v2\/webhooks\/([^/]+)$/;
/** What a careful hand-written handler does for the same request. */
async function handWritten(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const match = ROUTE.exec(url.pathname);
  if (!match || request.method !== "GET") return new Response(null, { status: 404 });
  if (!/^\d+$/.test(match[1]!)) return Response.json({ message: "bad id" }, { status: 400 });
  const id = Number(match[1]);
  const fieldsText = url.searchParams.get("fields");
  const fields = fieldsText === null ? undefined : fieldsText === "" ? [] : fieldsText.split(",");
  const webhook = WEBHOOKS.get(id);
  const [status, body] = webhook ? [200, { webhook: pick(webhook, fields) }] : [404, notFound];
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

const URLS = Array.from({ length: 50 }, (_, i) => `http://127.0.0.1/api/v2/webhooks/${i + 1}?fields=id,name,status,topic`);

/** Requests per second of an async handler: best of several rounds, interleaved by the caller. */
async function round(handler: (r: Request) => Promise<Response>, ms: number): Promise<number> {
  let n = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < 50; i++) {
      const response = await handler(new Request(URLS[i]!));
      if (response.status !== 200) throw new Error(`unexpected status ${response.status}`);
      await response.text();
    }
    n += 50;
    elapsed = performance.now() - start;
  }
  return (n * 1000) / elapsed;
}

async function directComparison(): Promise<BenchResult> {
  for (let i = 0; i < 3; i++) {
    await round(generated, 100);
    await round(handWritten, 100);
  }
  let ours = 0;
  let peer = 0;
  for (let i = 0; i < 6; i++) {
    ours = Math.max(ours, await round(generated, 250));
    peer = Math.max(peer, await round(handWritten, 250));
  }
  return result("rest server GET /webhooks/{id} (Request->Response)", ours, peer, "hand-written handler");
}

/** Bounded loopback run: `total` sequential requests with keep-alive. */
async function loopback(origin: string, total: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const response = await fetch(`${origin}/api/v2/webhooks/${(i % 50) + 1}?fields=id,name,status,topic`);
    if (response.status !== 200) throw new Error(`unexpected status ${response.status}`);
    await response.text();
  }
  return (total * 1000) / (performance.now() - start);
}

async function loopbackComparison(): Promise<BenchResult> {
  const ours = await restListen(generated);
  const plain = createServer((req, res) => {
    // The hand-written node:http version: same work, no web Request/Response in between.
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const match = ROUTE.exec(url.pathname);
    const webhook = match && /^\d+$/.test(match[1]!) ? WEBHOOKS.get(Number(match[1])) : undefined;
    const fieldsText = url.searchParams.get("fields");
    const body = webhook ? { webhook: pick(webhook, fieldsText === null ? undefined : fieldsText.split(",")) } : notFound;
    res.writeHead(webhook ? 200 : 404, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
  const plainOrigin = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
  try {
    await loopback(ours.origin, 300);
    await loopback(plainOrigin, 300);
    // Short interleaved batches, best of each: the machine's load changes faster than a long batch.
    let o = 0;
    let p = 0;
    for (let i = 0; i < 8; i++) {
      o = Math.max(o, await loopback(ours.origin, 400));
      p = Math.max(p, await loopback(plainOrigin, 400));
    }
    return result("rest server GET /webhooks/{id} (node:http loopback)", o, p, "hand-written node:http");
  } finally {
    await ours.close();
    await new Promise<void>((resolve) => { plain.close(() => resolve()); plain.closeAllConnections(); });
  }
}

function result(name: string, ours: number, peer: number, peerName: string): BenchResult {
  return { name, ours: Math.round(ours), peer: Math.round(peer), peerName, unit: "req/s", ratio: Number((ours / peer).toFixed(2)) };
}

export const suite: BenchSuite = {
  name: "rest-server",
  async run() {
    return [await directComparison(), await loopbackComparison()];
  },
};
