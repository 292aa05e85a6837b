import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createWebhooksEmulator } from "../../../examples/webhooks/app.js";
import { loadWebhooksFixture, type WebhooksFixture } from "../../../examples/webhooks/fixture.js";
import { isHostName } from "../../../examples/webhooks/rules.js";
import { createWebhooksAPIClient, type WebhooksAPIClient } from "../../../generated/webhooks/index.js";
import { serveNode, type NodeServerHandle } from "../../../src/runtime/http/node.js";
import { RestUnexpectedStatusError } from "../../../src/runtime/index.js";

/** Every rule of the webhook emulator over real HTTP on 127.0.0.1, through the generated client. */

const basic = (key: string, secret: string) => (req: Request) => {
  const headers = new Headers(req.headers);
  headers.set("authorization", `Basic ${Buffer.from(`${key}:${secret}`).toString("base64")}`);
  return new Request(req, { headers });
};
const viaQuery = (key: string, secret: string) => (req: Request) => {
  const url = new URL(req.url);
  url.searchParams.set("consumer_key", key);
  url.searchParams.set("consumer_secret", secret);
  return new Request(url, req);
};

/** A loopback receiver for pings: records every request it gets. */
interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}
let receiver: { url: string; received: Received[]; close(): Promise<void> };

let server: NodeServerHandle;
let admin: WebhooksAPIClient;
let reader: WebhooksAPIClient;
let nobody: WebhooksAPIClient;
let anonymous: WebhooksAPIClient;
const PINNED = new Date(Date.UTC(2024, 5, 5, 15, 4, 0));

async function start(fixture: WebhooksFixture): Promise<void> {
  await server?.close();
  server = await serveNode(createWebhooksEmulator(fixture, { pingTimeoutMs: 2000, now: () => PINNED, development: true }));
  const baseUrl = `${server.url}/api/v2`;
  admin = createWebhooksAPIClient({ baseUrl, auth: basic("ck_admin", "cs_admin") });
  reader = createWebhooksAPIClient({ baseUrl, auth: viaQuery("ck_reader", "cs_reader") });
  nobody = createWebhooksAPIClient({ baseUrl, auth: basic("ck_customer", "cs_customer") });
  anonymous = createWebhooksAPIClient({ baseUrl });
}

function errorCode(r: { status: number; body: unknown }): string | undefined {
  return (r.body as { errors?: { code: string }[] }).errors?.[0]?.code;
}

beforeAll(async () => {
  const received: Received[] = [];
  const http = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("pong");
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const port = (http.address() as AddressInfo).port;
  receiver = {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () => new Promise((resolve) => { http.close(() => resolve()); http.closeAllConnections(); }),
  };
});

afterAll(async () => {
  await server?.close();
  await receiver.close();
});

beforeEach(async () => {
  receiver.received.length = 0;
  await start(loadWebhooksFixture());
});

describe("delivery URL host names", () => {
  const rows: [hostname: string, valid: boolean][] = [
    ["example.com", true],
    ["localhost", true],
    ["127.0.0.1", true],
    ["[::1]", true],
    ["xn--bcher-kva.example", true],
    ["example.com.", true],
    [`${"a".repeat(63)}.example`, true],
    ["foobar!", false],
    ["-a.example", false],
    ["a-.example", false],
    ["a..b", false],
    ["a_b.example", false],
    [`${"a".repeat(64)}.example`, false],
    [`${"a.".repeat(127)}ab`, false],
    ["", false],
    [".", false],
  ];
  it.each(rows)("%s is a valid host: %s", (hostname, valid) => {
    expect(isHostName(hostname)).toBe(valid);
  });
  it("is given URL.hostname, which has already turned an IDN into punycode", () => {
    expect(isHostName(new URL("http://bücher.example/").hostname)).toBe(true);
  });
});

describe("authentication", () => {
  it("answers 401 shop_api_authentication_error without or with bad credentials", async () => {
    const r = await anonymous.listWebhooks();
    expect(r.status).toBe(401);
    expect(errorCode(r)).toBe("shop_api_authentication_error");
    const bad = createWebhooksAPIClient({ baseUrl: `${server.url}/api/v2`, auth: basic("ck_admin", "wrong") });
    expect(errorCode(await bad.getWebhook({ path: { id: 1 } }))).toBe("shop_api_authentication_error");
  });

  it("accepts HTTP Basic and the consumer_key/consumer_secret query parameters", async () => {
    expect((await admin.listWebhooks()).status).toBe(200);
    expect((await reader.listWebhooks()).status).toBe(200);
  });
});

describe("status mapping and list", () => {
  it("returns public statuses for stored publish/draft/pending", async () => {
    const r = await admin.listWebhooks();
    if (r.status !== 200) throw new Error(`status ${r.status}`);
    expect(r.body.webhooks.map((w) => [w.id, w.status])).toEqual([[1, "active"], [2, "paused"], [3, "disabled"]]);
  });

  it("filters by status, treating an unknown non-empty status as active", async () => {
    const ids = async (status: string) => {
      const r = await admin.listWebhooks({ query: { status } });
      return r.status === 200 ? r.body.webhooks.map((w) => w.id) : [];
    };
    expect(await ids("active")).toEqual([1]);
    expect(await ids("paused")).toEqual([2]);
    expect(await ids("disabled")).toEqual([3]);
    expect(await ids("whatever")).toEqual([1]);
    expect(await ids("")).toEqual([1, 2, 3]);
  });

  it("adds pagination headers and pages with page and filter[limit]", async () => {
    const r = await admin.listWebhooks({ query: { page: 2, filter: { limit: "1" } } });
    expect(r.status).toBe(200);
    if (r.status !== 200) return;
    expect(r.body.webhooks.map((w) => w.id)).toEqual([2]);
    expect(r.headers.get("x-total")).toBe("3");
    expect(r.headers.get("x-totalpages")).toBe("3");
    const link = r.headers.get("link") ?? "";
    expect(link).toContain('page=1>; rel="first"');
    expect(link).toContain('page=1>; rel="prev"');
    expect(link).toContain('page=3>; rel="next"');
    expect(link).toContain('page=3>; rel="last"');
  });

  it("never echoes query credentials into Link", async () => {
    const r = await reader.listWebhooks();
    expect(r.headers.get("link")).not.toContain("consumer_secret");
  });

  it("returns only the requested fields", async () => {
    const r = await admin.getWebhook({ path: { id: 1 }, query: { fields: ["id", "topic"] } });
    expect(r.status === 200 && r.body.webhook).toEqual({ id: 1, topic: "order.created" });
  });

  it("silently leaves out webhooks the caller cannot read", async () => {
    const r = await nobody.listWebhooks();
    expect(r.status === 200 && r.body.webhooks).toEqual([]);
  });

  it("never returns the secret", async () => {
    const r = await admin.getWebhook({ path: { id: 1 } });
    expect(r.status === 200 && "secret" in r.body.webhook).toBe(false);
  });
});

describe("count", () => {
  it("counts with the read capability, by status", async () => {
    expect((await reader.countWebhooks()).body).toEqual({ count: 3 });
    expect((await reader.countWebhooks({ query: { status: "paused" } })).body).toEqual({ count: 1 });
    expect((await reader.countWebhooks({ query: { status: "bogus" } })).body).toEqual({ count: 1 });
  });

  it("answers 401 shop_api_user_cannot_read_webhooks_count without it", async () => {
    const r = await nobody.countWebhooks();
    expect([r.status, errorCode(r)]).toEqual([401, "shop_api_user_cannot_read_webhooks_count"]);
  });
});

describe("POST /webhooks", () => {
  const valid = () => ({ webhook: { topic: "order.created", delivery_url: receiver.url } });

  it("checks in order: webhook object, permission, topic, delivery_url", async () => {
    // missing webhook object beats missing permission
    const r1 = await nobody.createWebhook({ body: {} as never });
    expect([r1.status, errorCode(r1)]).toEqual([400, "shop_api_missing_webhook_data"]);
    // permission beats an invalid topic
    const r2 = await nobody.createWebhook({ body: { webhook: { topic: "nope", delivery_url: "ftp://x" } } });
    expect([r2.status, errorCode(r2)]).toEqual([401, "shop_api_user_cannot_create_webhooks"]);
    // topic beats delivery_url
    const r3 = await admin.createWebhook({ body: { webhook: { topic: "nope", delivery_url: "ftp://x" } } });
    expect([r3.status, errorCode(r3)]).toEqual([400, "shop_api_invalid_webhook_topic"]);
    const r4 = await admin.createWebhook({ body: { webhook: { delivery_url: receiver.url } } as never });
    expect([r4.status, errorCode(r4)]).toEqual([400, "shop_api_invalid_webhook_topic"]);
    const r5 = await admin.createWebhook({ body: { webhook: { topic: "order.created", delivery_url: "ftp://x/y" } } });
    expect([r5.status, errorCode(r5)]).toEqual([400, "shop_api_invalid_webhook_delivery_url"]);
    const r6 = await admin.createWebhook({ body: { webhook: { topic: "order.created" } } as never });
    expect([r6.status, errorCode(r6)]).toEqual([400, "shop_api_invalid_webhook_delivery_url"]);
    expect(receiver.received).toHaveLength(0);
  });

  it("creates an active webhook with the default name and derived resource and event", async () => {
    const r = await admin.createWebhook({ body: valid() });
    expect(r.status).toBe(201);
    if (r.status !== 201) return;
    expect(r.body.webhook).toMatchObject({
      id: 4,
      status: "active",
      name: "Webhook created on Jun 05, 2024 @ 03:04 PM",
      topic: "order.created",
      resource: "order",
      event: "created",
      delivery_url: receiver.url,
      created_at: "2024-06-05T15:04:00",
    });
  });

  it("accepts every resource x event and action.<name> topics, case-insensitively", async () => {
    for (const resource of ["coupon", "customer", "order", "product"]) {
      for (const event of ["created", "updated", "deleted"]) {
        const r = await admin.createWebhook({ body: { webhook: { topic: `${resource.toUpperCase()}.${event}`, delivery_url: receiver.url } } });
        expect(r.status === 201 && r.body.webhook.topic).toBe(`${resource}.${event}`);
      }
    }
    const custom = await admin.createWebhook({ body: { webhook: { topic: "Action.Shop_Sync", delivery_url: receiver.url } } });
    expect(custom.status === 201 && [custom.body.webhook.resource, custom.body.webhook.event]).toEqual(["action", "shop_sync"]);
    for (const topic of ["order", "order.shipped", "invoice.created", "action.", "order.created.x", ""]) {
      const r = await admin.createWebhook({ body: { webhook: { topic, delivery_url: receiver.url } } });
      expect([topic, errorCode(r)]).toEqual([topic, "shop_api_invalid_webhook_topic"]);
    }
  });

  it("validates delivery_url as an http or https URL", async () => {
    // Loopback only (nothing listens on port 9): the ping fails fast and is logged, the webhook is created.
    for (const url of ["https://127.0.0.1:9/x", "HTTP://127.0.0.1:9/x"]) {
      const r = await admin.createWebhook({ body: { webhook: { topic: "order.created", delivery_url: url } } }, { timeoutMs: 5000 });
      expect([url, r.status]).toEqual([url, 201]);
      expect(r.status === 201 && r.body.webhook.delivery_url).toBe(url.replace("HTTP:", "http:"));
    }
    // Hosts that URL parsing accepts but that are no valid host name (the original service refuses them too).
    const badHosts = ["https://foobar!", "http://-a.example/", "http://a-.example/", "http://a..b/", "http://a_b.example/", `http://${"a".repeat(64)}.example/`];
    for (const url of ["example.com", "ftp://example.com", "mailto:a@b.c", "http://", "javascript:alert(1)", ...badHosts]) {
      const r = await admin.createWebhook({ body: { webhook: { topic: "order.created", delivery_url: url } } });
      expect([url, errorCode(r)]).toEqual([url, "shop_api_invalid_webhook_delivery_url"]);
    }
  }, 20_000);

  it("pings the delivery_url with a real POST and logs the delivery", async () => {
    const r = await admin.createWebhook({ body: { webhook: { ...valid().webhook, secret: "topsecret" } } });
    if (r.status !== 201) throw new Error(`status ${r.status}`);
    expect(receiver.received).toHaveLength(1);
    const ping = receiver.received[0]!;
    expect(ping.method).toBe("POST");
    expect(ping.url).toBe("/hook");
    expect(JSON.parse(ping.body)).toEqual({ webhook_id: r.body.webhook.id });
    const { createHmac } = await import("node:crypto");
    expect(ping.headers["x-shop-webhook-signature"]).toBe(createHmac("sha256", "topsecret").update(ping.body).digest("base64"));
    const log = await admin.listWebhookDeliveries({ path: { webhook_id: r.body.webhook.id! } });
    if (log.status !== 200) throw new Error(`status ${log.status}`);
    expect(log.body.webhook_deliveries).toHaveLength(1);
    expect(log.body.webhook_deliveries[0]).toMatchObject({ response_code: "200", response_body: "pong", request_url: receiver.url });
    expect(log.body.webhook_deliveries[0]!.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  });

  it("defaults the secret to the caller's consumer secret", async () => {
    const r = await admin.createWebhook({ body: valid() });
    expect(r.status).toBe(201);
    const { createHmac } = await import("node:crypto");
    const ping = receiver.received[0]!;
    expect(ping.headers["x-shop-webhook-signature"]).toBe(createHmac("sha256", "cs_admin").update(ping.body).digest("base64"));
  });

  it("logs a failed ping without failing the creation", async () => {
    const r = await admin.createWebhook({ body: { webhook: { topic: "order.created", delivery_url: "http://127.0.0.1:9/closed" } } });
    if (r.status !== 201) throw new Error(`status ${r.status}`);
    const log = await admin.listWebhookDeliveries({ path: { webhook_id: r.body.webhook.id! } });
    expect(log.status === 200 && log.body.webhook_deliveries[0]?.response_code).toBe("0");
  });

  it("answers 500 shop_api_cannot_create_webhook when storing fails (failCreate)", async () => {
    await start({ ...loadWebhooksFixture(), failCreate: true });
    const r = await admin.createWebhook({ body: valid() });
    expect([r.status, errorCode(r)]).toEqual([500, "shop_api_cannot_create_webhook"]);
    expect(receiver.received).toHaveLength(0);
  });
});

describe("single webhook", () => {
  it("answers 404 shop_api_invalid_webhook_id for 0 or a non-number, 404 shop_api_no_webhook_found for unknown", async () => {
    const zero = await admin.getWebhook({ path: { id: 0 } });
    expect([zero.status, errorCode(zero)]).toEqual([404, "shop_api_invalid_webhook_id"]);
    const text = await fetch(`${server.url}/api/v2/webhooks/abc?consumer_key=ck_admin&consumer_secret=cs_admin`);
    expect([text.status, (await text.json()).errors[0].code]).toEqual([404, "shop_api_invalid_webhook_id"]);
    const unknown = await admin.getWebhook({ path: { id: 99 } });
    expect([unknown.status, errorCode(unknown)]).toEqual([404, "shop_api_no_webhook_found"]);
  });

  it("answers 401 for a missing read, edit or delete capability", async () => {
    expect(errorCode(await nobody.getWebhook({ path: { id: 1 } }))).toBe("shop_api_user_cannot_read_webhook");
    expect(errorCode(await reader.updateWebhook({ path: { id: 1 }, body: { webhook: { name: "x" } } }))).toBe("shop_api_user_cannot_edit_webhook");
    expect(errorCode(await reader.deleteWebhook({ path: { id: 1 } }))).toBe("shop_api_user_cannot_delete_webhook");
    expect(errorCode(await nobody.listWebhookDeliveries({ path: { webhook_id: 1 } }))).toBe("shop_api_user_cannot_read_webhook");
  });

  it("PUT applies only non-empty fields and validates topic and delivery_url", async () => {
    const r = await admin.updateWebhook({
      path: { id: 1 },
      body: { webhook: { name: "", topic: "", delivery_url: "", secret: "", status: "" as never } },
    });
    expect(r.status === 200 && r.body.webhook).toMatchObject({ name: "Order created", topic: "order.created", status: "active" });
    const changed = await admin.updateWebhook({ path: { id: 1 }, body: { webhook: { name: "Renamed", topic: "PRODUCT.deleted", status: "paused" } } });
    expect(changed.status === 200 && changed.body.webhook).toMatchObject({ name: "Renamed", topic: "product.deleted", resource: "product", event: "deleted", status: "paused" });
    const badTopic = await admin.updateWebhook({ path: { id: 1 }, body: { webhook: { topic: "order.nope" } } });
    expect([badTopic.status, errorCode(badTopic)]).toEqual([400, "shop_api_invalid_webhook_topic"]);
    const badUrl = await admin.updateWebhook({ path: { id: 1 }, body: { webhook: { delivery_url: "nope" } } });
    expect([badUrl.status, errorCode(badUrl)]).toEqual([400, "shop_api_invalid_webhook_delivery_url"]);
    const badHost = await admin.updateWebhook({ path: { id: 1 }, body: { webhook: { delivery_url: "https://foobar!" } } });
    expect([badHost.status, errorCode(badHost)]).toEqual([400, "shop_api_invalid_webhook_delivery_url"]);
    const missing = await admin.updateWebhook({ path: { id: 1 }, body: {} as never });
    expect([missing.status, errorCode(missing)]).toEqual([400, "shop_api_missing_webhook_data"]);
    const after = await admin.getWebhook({ path: { id: 1 } });
    expect(after.status === 200 && after.body.webhook.name).toBe("Renamed");
  });

  it("deletes permanently", async () => {
    const r = await admin.deleteWebhook({ path: { id: 2 } });
    expect([r.status, r.body]).toEqual([200, { message: "Permanently deleted webhook" }]);
    expect(errorCode(await admin.getWebhook({ path: { id: 2 } }))).toBe("shop_api_no_webhook_found");
    expect(errorCode(await admin.deleteWebhook({ path: { id: 2 } }))).toBe("shop_api_no_webhook_found");
    expect((await admin.countWebhooks()).body).toEqual({ count: 2 });
  });
});

describe("delivery log", () => {
  it("lists every entry with created_at", async () => {
    const r = await reader.listWebhookDeliveries({ path: { webhook_id: 1 } });
    expect(r.status === 200 && r.body.webhook_deliveries.map((d) => [d.id, d.created_at])).toEqual([[1, "2024-01-02T03:05:00"]]);
  });

  it("returns one entry; 0 or empty id -> 404, an id with no entry -> 400", async () => {
    const one = await reader.getWebhookDelivery({ path: { webhook_id: 1, id: 1 } });
    expect(one.status === 200 && one.body.webhook_delivery.response_code).toBe("200");
    const zero = await reader.getWebhookDelivery({ path: { webhook_id: 1, id: 0 } });
    expect([zero.status, errorCode(zero)]).toEqual([404, "shop_api_invalid_webhook_delivery_id"]);
    const empty = await fetch(`${server.url}/api/v2/webhooks/1/deliveries/?consumer_key=ck_admin&consumer_secret=cs_admin`);
    expect([empty.status, (await empty.json()).errors[0].code]).toEqual([404, "shop_api_invalid_webhook_delivery_id"]);
    const none = await reader.getWebhookDelivery({ path: { webhook_id: 1, id: 42 } });
    expect([none.status, errorCode(none)]).toEqual([400, "shop_api_invalid_webhook_delivery_id"]);
    const unknownHook = await reader.getWebhookDelivery({ path: { webhook_id: 77, id: 1 } });
    expect([unknownHook.status, errorCode(unknownHook)]).toEqual([404, "shop_api_no_webhook_found"]);
  });
});

describe("server errors in the {errors: [...]} shape", () => {
  it("unknown routes, wrong methods and malformed JSON", async () => {
    const unknown = await fetch(`${server.url}/api/v2/nope`);
    expect([unknown.status, (await unknown.json()).errors[0].code]).toEqual([404, "shop_api_no_route"]);
    const wrong = await fetch(`${server.url}/api/v2/webhooks/count`, { method: "POST" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET");
    const bad = await fetch(`${server.url}/api/v2/webhooks`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    expect([bad.status, (await bad.json()).errors[0].code]).toEqual([400, "shop_api_invalid_request"]);
  });

  it("the generated client throws a typed error for an undeclared status", async () => {
    const client = createWebhooksAPIClient({ baseUrl: `${server.url}/api/v2/extra` });
    const error = await client.countWebhooks().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RestUnexpectedStatusError);
    expect((error as RestUnexpectedStatusError).status).toBe(404);
  });
});
