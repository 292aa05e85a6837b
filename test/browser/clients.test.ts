/**
 * The generated fetch clients in a real browser: Debian's headless Chromium opens a page served on 127.0.0.1 whose
 * code is the generated client code (generated/webhooks, generated/content, and a Connect client generated here
 * from grpc.health.v1) with src/runtime, compiled module by module. The page calls the emulators and a Connect
 * server on other ports, so every call is cross-origin and passes only through their CORS answers: create, read, a
 * typed error, abort and paging (REST list pages read through exposed headers, the content feed followed link by
 * link), and a server whose CORS does not allow the page refuses it. The test compares what the page reports with
 * what the servers hold.
 *
 * Chromium comes from scripts/ensure-tools.sh. Without it the suite is skipped locally (with a message) and fails
 * under CI=true, where ensure-tools.sh must have installed it.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTENT_CORS, startContentEmulator, type RunningEmulator } from "../../examples/content/emulator.js";
import { createWebhooksEmulator, WEBHOOKS_CORS } from "../../examples/webhooks/app.js";
import { loadWebhooksFixture } from "../../examples/webhooks/fixture.js";
import { createWebhooksAPIClient } from "../../generated/webhooks/index.js";
import { ConnectError } from "../../src/runtime/connect/error.js";
import { withCors } from "../../src/runtime/http/cors.js";
import type { HttpHandler } from "../../src/runtime/http/handler.js";
import { serveNode, type NodeServerHandle } from "../../src/runtime/http/node.js";
import { HEALTH_PROTO } from "../emitters/proto-http/emit.helpers.js";
import { generateToTemp, type TempOutput } from "../emitters/proto-http/generate-temp.js";
import { REPO } from "../helpers/seeds.js";
import { Chromium, CHROMIUM_PATH, chromiumInstalled, type PageLog } from "./chromium.js";
import { servePage, type PageServer } from "./page-server.js";

const installed = chromiumInstalled();
const requireBrowser = process.env["CI"] === "true";
if (!installed && !requireBrowser) {
  console.warn(`test/browser: skipped, no Chromium at ${CHROMIUM_PATH} (run scripts/ensure-tools.sh as root to install it)`);
}

/** The generated grpc.health.v1 Connect module, as far as this test uses it (it is generated at test time). */
interface HealthModule {
  createHealthHandler(impl: { check(request: { service: string }): Promise<{ status: string }> }): HttpHandler;
}

/** Every request a server got: method and Origin header (to prove the browser really asked across origins). */
interface Seen {
  readonly method: string;
  readonly origin: string | null;
}

function observed(handler: HttpHandler, seen: Seen[]): HttpHandler {
  return (request) => {
    seen.push({ method: request.method, origin: request.headers.get("origin") });
    return handler(request);
  };
}

const ADMIN = `Basic ${Buffer.from("ck_admin:cs_admin").toString("base64")}`;

/** The JSON the page reports (checked field by field below). */
type Report = Record<string, any>;

let browser: Chromium | undefined;
let page: PageServer | undefined;
let webhooks: NodeServerHandle | undefined;
let refused: NodeServerHandle | undefined;
let feed: RunningEmulator | undefined;
let connect: NodeServerHandle | undefined;
let health: TempOutput | undefined;
let log: PageLog = { lines: [] };
let report: Report = {};
const webhooksSeen: Seen[] = [];
const refusedSeen: Seen[] = [];
const connectSeen: Seen[] = [];

/** What the page logged, for failure messages (CORS refusals and page errors show up there). */
const pageLog = () => `page log:\n${log.lines.join("\n")}`;

describe.skipIf(!installed && !requireBrowser)("generated clients in headless Chromium, across origins", () => {
  beforeAll(async () => {
    if (!installed) throw new Error(`CI=true but no Chromium at ${CHROMIUM_PATH}: scripts/ensure-tools.sh installs it (apt-get install chromium)`);
    const fixture = loadWebhooksFixture();
    webhooks = await serveNode(observed(withCors(createWebhooksEmulator(fixture), WEBHOOKS_CORS), webhooksSeen));
    // Same emulator, but its CORS allows only another origin: the browser must refuse the page its answers.
    refused = await serveNode(observed(withCors(createWebhooksEmulator(fixture), { ...WEBHOOKS_CORS, origins: ["http://localhost:1"] }), refusedSeen));
    feed = await startContentEmulator({ port: 0, cors: CONTENT_CORS });
    health = generateToTemp(HEALTH_PROTO);
    const healthModule = (await import(`${health.dir}/connect.ts`)) as HealthModule;
    connect = await serveNode(
      observed(
        withCors(
          healthModule.createHealthHandler({
            check: async ({ service }) => {
              if (service !== "") throw new ConnectError("not_found", `unknown service ${service}`);
              return { status: "SERVING" };
            },
          }),
        ),
        connectSeen,
      ),
    );
    page = await servePage({
      roots: {
        "/generated/": path.join(REPO, "generated"),
        "/src/runtime/": path.join(REPO, "src/runtime"),
        "/test/browser/page/": path.join(REPO, "test/browser/page"),
        "/connect-gen/": health.dir,
      },
      entry: "/test/browser/page/clients-page.js",
      imports: {
        "specforge/runtime": "/src/runtime/index.js",
        ...Object.fromEntries(["protobuf", "json", "xml", "soap", "rest", "rpc"].map((a) => [`specforge/runtime/${a}`, `/src/runtime/areas/${a}.js`])),
      },
    });
    const query = new URLSearchParams({
      webhooks: webhooks.url,
      refused: refused.url,
      feed: feed.url,
      connect: connect.url,
      connectModule: "/connect-gen/connect.js",
    });
    browser = await Chromium.launch();
    const opened = await browser.open(`${page.url}/?${query}`);
    log = opened.log;
    report = (await browser.evaluate(opened.sessionId, "globalThis.clientsRun", 40_000)) as Report;
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([page?.close(), webhooks?.close(), refused?.close(), feed?.close(), connect?.close()]);
    health?.remove();
  });

  it("serves the page from another origin than the servers, and the browser sends preflights", () => {
    expect(report["origin"], pageLog()).toBe(page!.url);
    for (const server of [webhooks!, refused!, feed!, connect!]) expect(server.url).not.toBe(page!.url);
    // JSON bodies and Authorization are not CORS-safelisted: the browser asked first, from the page's origin.
    expect(webhooksSeen).toContainEqual({ method: "OPTIONS", origin: page!.url });
    expect(connectSeen).toContainEqual({ method: "OPTIONS", origin: page!.url });
    expect(webhooksSeen.every((s) => s.origin === page!.url)).toBe(true);
  });

  it("REST: creates a webhook and reads it back", async () => {
    const create = report["webhooks"].create;
    expect(create.status, `${JSON.stringify(create)}\n${pageLog()}`).toBe(201);
    // What the page read is what the emulator holds (read again here, outside the browser).
    const fromNode = await createWebhooksAPIClient({ baseUrl: `${webhooks!.url}/api/v2`, headers: { authorization: ADMIN } }).getWebhook({
      path: { id: create.id },
    });
    expect(fromNode.status).toBe(200);
    if (fromNode.status !== 200) return;
    expect(create.read).toEqual({ status: 200, id: create.id, name: fromNode.body.webhook.name, topic: fromNode.body.webhook.topic });
    expect(fromNode.body.webhook.name).toBe("from the browser");
    expect(fromNode.body.webhook.topic).toBe("order.created"); // stored lower-case
  });

  it("REST: a declared error status arrives typed, with its body", () => {
    expect(report["webhooks"].typedError, pageLog()).toEqual({ status: 404, codes: ["shop_api_no_webhook_found"] });
  });

  it("REST: an aborted call rejects with AbortError", () => {
    expect(report["webhooks"].abort, pageLog()).toMatchObject({ rejected: true, name: "AbortError" });
  });

  it("REST: pages through the list, reading the exposed pagination headers", async () => {
    const pages = report["webhooks"].pages;
    const all = await createWebhooksAPIClient({ baseUrl: `${webhooks!.url}/api/v2`, headers: { authorization: ADMIN } }).listWebhooks({
      query: { filter: { limit: "100" } },
    });
    expect(all.status).toBe(200);
    if (all.status !== 200) return;
    const ids = all.body.webhooks.map((w) => w.id);
    expect(ids.length).toBeGreaterThan(1);
    expect(pages.ids, `${JSON.stringify(pages)}\n${pageLog()}`).toEqual(ids);
    expect(pages.headers).toHaveLength(ids.length);
    expect(pages.headers[0]).toMatchObject({ total: String(ids.length), totalPages: String(ids.length) });
    expect(pages.headers[0].link).toContain('rel="next"');
  });

  it("REST: a server whose CORS does not allow the page is refused by the browser", async () => {
    expect(report["refused"], pageLog()).toMatchObject({ rejected: true, class: "TypeError" });
    expect(refusedSeen).toContainEqual({ method: "GET", origin: page!.url }); // it answered; the browser withheld it
    const fromNode = await createWebhooksAPIClient({ baseUrl: `${refused!.url}/api/v2`, headers: { authorization: ADMIN } }).countWebhooks();
    expect(fromNode.status).toBe(200);
  });

  it("content feed: iterates every entry across pages, in order", () => {
    const iterate = report["feed"].iterate;
    const want = feed!.entries.map((e) => `${e.permalinkEntry?.identifier ?? ""} ${e.permalinkEntry?.title ?? ""}`);
    expect(want.length).toBeGreaterThan(feed!.pageSize);
    expect(iterate.entries?.length, `${JSON.stringify(iterate).slice(0, 2000)}\n${pageLog()}`).toBe(want.length);
    expect(iterate.entries).toEqual(want);
  });

  it("content feed: a ProtoJSON page links to the next one", () => {
    expect(report["feed"].jsonPage, pageLog()).toEqual({ entries: feed!.pageSize, next: `${feed!.url}/feed?page=2` });
  });

  it("content feed: a missing page is an HttpStatusError, an aborted fetch an AbortError", () => {
    expect(report["feed"].typedError, pageLog()).toMatchObject({ rejected: true, class: "HttpStatusError", status: 404 });
    expect(report["feed"].abort).toMatchObject({ rejected: true, name: "AbortError" });
  });

  it.each(["proto", "json"])("Connect (%s): a call, a typed error and an abort", (format) => {
    const connectReport = report["connect"]?.[format];
    expect(connectReport?.check, pageLog()).toEqual({ status: "SERVING" });
    expect(connectReport.typedError).toMatchObject({ rejected: true, class: "RpcError", code: "not_found" });
    expect(connectReport.abort).toMatchObject({ rejected: true, class: "RpcError", code: "canceled" });
  });
});
