import { Agent, createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createWebhooksAPIServer, type Webhook, type WebhooksAPIHandlers } from "../generated/webhooks/index.js";
import { serveNode } from "../src/runtime/http/node.js";
import { interleaved, type BenchResult, type BenchSuite } from "./harness.js";

/**
 * GET /api/v2/webhooks/{id}?fields=... through the generated server against a hand-written handler doing the same
 * work (route match, id coercion and check, fields list, lookup, JSON response), both as web-standard handlers called
 * directly and both served by node:http over loopback with a bounded number of requests.
 *
 * The machine is shared and noisy, so rounds of the two sides alternate, time is this process's CPU time (client and
 * server both run here: it is the total work per request), no GC is forced between rounds (straight after gc() the
 * young generation is small and sweeping still runs on helper threads, which the CPU clock charged to the round:
 * 4k instead of 24k requests per CPU-second), and each side's figure is the median of its rounds.
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


/** `count` direct calls of an async handler, the 50 URLs in turn. */
async function directBatch(handler: (r: Request) => Promise<Response>, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const response = await handler(new Request(URLS[i % 50]!));
    if (response.status !== 200) throw new Error(`unexpected status ${response.status}`);
    await response.text();
  }
}

async function directComparison(): Promise<BenchResult> {
  const handlers = { ours: generated, peer: handWritten };
  const r = await interleaved(["ours", "peer"] as const, 2000, 11, (side) => directBatch(handlers[side], 2000));
  return result("rest server GET /webhooks/{id} (Request->Response)", r.ours, r.peer, "hand-written handler", "req/cpu-s");
}

const PATHS = Array.from({ length: 50 }, (_, i) => `/api/v2/webhooks/${i + 1}?fields=id,name,status,topic`);

/** One GET with node's own client (much lighter than fetch, so the server's share of the cost shows). */
function get(port: number, agent: Agent, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, agent }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`unexpected status ${res.statusCode}`));
      res.resume();
      res.on("end", resolve);
    });
    req.on("error", reject);
    req.end();
  });
}

/** A bounded loopback run: `total` requests, `concurrency` at a time over as many keep-alive connections. */
async function loopbackBatch(port: number, agent: Agent, total: number, concurrency: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < total) await get(port, agent, PATHS[next++ % 50]!);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

async function loopbackComparison(): Promise<BenchResult> {
  const CONCURRENCY = 4;
  const ours = await serveNode(generated);
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
  const ports = { ours: ours.port, peer: await listen(plain) };
  // One agent per side, the same number of keep-alive sockets for both.
  const agents = { ours: new Agent({ keepAlive: true, maxSockets: CONCURRENCY }), peer: new Agent({ keepAlive: true, maxSockets: CONCURRENCY }) };
  try {
    const r = await interleaved(["ours", "peer"] as const, 800, 21, (side) => loopbackBatch(ports[side], agents[side], 800, CONCURRENCY));
    return result("rest server GET /webhooks/{id} (node:http loopback)", r.ours, r.peer, "hand-written node:http", "req/cpu-s");
  } finally {
    agents.ours.destroy();
    agents.peer.destroy();
    await ours.close();
    await new Promise<void>((resolve) => { plain.close(() => resolve()); plain.closeAllConnections(); });
  }
}

function result(name: string, ours: number, peer: number, peerName: string, unit: string): BenchResult {
  return { name, ours: Math.round(ours), peer: Math.round(peer), peerName, unit, ratio: Number((ours / peer).toFixed(2)) };
}

export const suite: BenchSuite = {
  name: "rest-server",
  async run() {
    return [await directComparison(), await loopbackComparison()];
  },
};
