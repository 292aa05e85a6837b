/**
 * The page of test/browser/clients.test.ts: runs the generated clients in the browser against servers on other
 * ports (so every call is cross-origin and needs CORS) and reports what happened as JSON, in `globalThis.clientsRun`
 * (a promise the test awaits over the DevTools protocol) and in <pre id="results">. It asserts nothing itself:
 * the test compares the report with what the servers hold.
 *
 * Query parameters: `webhooks` (the webhooks emulator's origin), `refused` (a webhooks emulator whose CORS does not
 * allow this page), `feed` (the content feed emulator's origin), `connect` (a Connect server's origin) and
 * `connectModule` (the URL of the Connect client generated at test time).
 */
import { fetchResponse, iterateEntries } from "../../../generated/content/index.js";
import { createWebhooksAPIClient } from "../../../generated/webhooks/index.js";

/** The shape of the generated grpc.health.v1 Connect client this page uses (the module is generated at test time). */
interface HealthModule {
  createHealthClient(options: { baseUrl: string; format?: "proto" | "json" }): {
    check(request: { service: string }, options?: { signal?: AbortSignal }): Promise<{ status?: string | number }>;
  };
}

type Report = Record<string, unknown>;

const params = new URL(location.href).searchParams;
const param = (name: string): string => {
  const value = params.get(name);
  if (value === null) throw new Error(`the page needs ?${name}=`);
  return value;
};

/** An error as the test sees it: its class, name, message and the fields the typed errors carry. */
function describeError(error: unknown): Report {
  if (!(error instanceof Error)) return { thrown: String(error) };
  const fields = error as Error & { code?: unknown; status?: unknown };
  return {
    class: error.constructor.name,
    name: error.name,
    message: error.message,
    ...(fields.code === undefined ? {} : { code: String(fields.code) }),
    ...(typeof fields.status === "number" ? { status: fields.status } : {}),
  };
}

/** Run one scenario; a failure is reported, not thrown, so the other scenarios still run. */
async function scenario(run: () => Promise<Report>): Promise<Report> {
  try {
    return await run();
  } catch (error) {
    return { failed: describeError(error) };
  }
}

/** Settle `promise` and report how it was rejected (or that it was not). */
async function rejection(promise: Promise<unknown>): Promise<Report> {
  try {
    await promise;
    return { rejected: false };
  } catch (error) {
    return { rejected: true, ...describeError(error) };
  }
}

async function webhooksScenarios(origin: string): Promise<Report> {
  const client = createWebhooksAPIClient({
    baseUrl: `${origin}/api/v2`,
    auth: (request) => {
      const headers = new Headers(request.headers);
      headers.set("authorization", `Basic ${btoa("ck_admin:cs_admin")}`);
      return new Request(request, { headers });
    },
  });
  return {
    create: await scenario(async () => {
      const created = await client.createWebhook({
        body: { webhook: { name: "from the browser", topic: "Order.Created", delivery_url: `${location.origin}/hook` } },
      });
      if (created.status !== 201) return { status: created.status, body: created.body };
      const id = created.body.webhook.id;
      if (id === undefined) return { status: created.status, id: null };
      const read = await client.getWebhook({ path: { id } });
      return {
        status: created.status,
        id: created.body.webhook.id,
        topic: created.body.webhook.topic,
        read: read.status === 200 ? { status: read.status, id: read.body.webhook.id, name: read.body.webhook.name, topic: read.body.webhook.topic } : { status: read.status },
      };
    }),
    typedError: await scenario(async () => {
      const missing = await client.getWebhook({ path: { id: 987654 } });
      return missing.status === 200 ? { status: missing.status } : { status: missing.status, codes: missing.body.errors.map((e) => e.code) };
    }),
    abort: await scenario(async () => {
      const controller = new AbortController();
      const call = client.listWebhooks({}, { signal: controller.signal });
      controller.abort();
      return rejection(call);
    }),
    pages: await scenario(async () => {
      const ids: number[] = [];
      const headers: Report[] = [];
      for (let page = 1, last = 1; page <= last && page <= 100; page++) {
        const answer = await client.listWebhooks({ query: { page, filter: { limit: "1" } } });
        if (answer.status !== 200) return { status: answer.status };
        for (const webhook of answer.body.webhooks) ids.push(webhook.id ?? -1);
        // Readable across origins only because the emulator exposes them (Access-Control-Expose-Headers).
        last = Number(answer.headers.get("x-totalpages"));
        headers.push({ total: answer.headers.get("x-total"), totalPages: answer.headers.get("x-totalpages"), link: answer.headers.get("link") });
      }
      return { ids, headers };
    }),
  };
}

async function refusedScenario(origin: string): Promise<Report> {
  const client = createWebhooksAPIClient({ baseUrl: `${origin}/api/v2` });
  return rejection(client.countWebhooks());
}

async function feedScenarios(origin: string): Promise<Report> {
  const feed = `${origin}/feed`;
  return {
    iterate: await scenario(async () => {
      const entries: string[] = [];
      for await (const entry of iterateEntries(feed, { maxPages: 1000 })) {
        entries.push(`${entry.permalinkEntry?.identifier ?? ""} ${entry.permalinkEntry?.title ?? ""}`);
      }
      return { entries };
    }),
    jsonPage: await scenario(async () => {
      const page = await fetchResponse(`${feed}?page=1`, { format: "json" });
      return { entries: page.entry?.length ?? 0, next: page.nextRequestUrl ?? null };
    }),
    typedError: await scenario(() => rejection(fetchResponse(`${feed}?page=100000`))),
    abort: await scenario(async () => {
      const controller = new AbortController();
      const call = fetchResponse(feed, { signal: controller.signal });
      controller.abort();
      return rejection(call);
    }),
  };
}

async function connectScenarios(origin: string, moduleUrl: string): Promise<Report> {
  const health = (await import(moduleUrl)) as HealthModule;
  const report: Report = {};
  for (const format of ["proto", "json"] as const) {
    const client = health.createHealthClient({ baseUrl: origin, format });
    report[format] = {
      check: await scenario(async () => ({ status: (await client.check({ service: "" })).status })),
      typedError: await scenario(() => rejection(client.check({ service: "no.such.Service" }))),
      abort: await scenario(async () => {
        const controller = new AbortController();
        const call = client.check({ service: "" }, { signal: controller.signal });
        controller.abort();
        return rejection(call);
      }),
    };
  }
  return report;
}

async function run(): Promise<Report> {
  const report: Report = {
    origin: location.origin,
    webhooks: await webhooksScenarios(param("webhooks")),
    refused: await refusedScenario(param("refused")),
    feed: await feedScenarios(param("feed")),
    connect: await connectScenarios(param("connect"), param("connectModule")),
  };
  // bigint (int64 fields) is not JSON: the report carries only strings and numbers.
  document.getElementById("results")!.textContent = JSON.stringify(report, null, 2);
  return report;
}

(globalThis as { clientsRun?: Promise<Report> }).clientsRun = run();
