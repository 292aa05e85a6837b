import { afterEach, describe, expect, it } from "vitest";
import { fetchFeedPage } from "../../../src/runtime/http/feed/client.js";
import { FeedLoopError, FeedPageError } from "../../../src/runtime/http/feed/errors.js";
import { iterateFeedItems } from "../../../src/runtime/http/feed/paging.js";
import { serveFeedPages } from "../../../src/runtime/http/feed/server.js";
import type { HttpHandler } from "../../../src/runtime/http/handler.js";
import { serveNode, type NodeServerHandle } from "../../../src/runtime/http/node.js";
import { HttpStatusError, HttpTimeoutError } from "../../../src/runtime/http/status-error.js";
import { textCodec, type TextMessage } from "./text-codec.js";

let server: NodeServerHandle | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(handler: HttpHandler): Promise<string> {
  server = await serveNode(handler);
  return server.url;
}

const parts = (page: TextMessage) => ({ items: page.items, next: page.next });

/** Pages /p/1 .. /p/n, each with two items; next links are relative ("2") to test resolution against the page URL. */
function pagesServer(n: number): HttpHandler {
  return serveFeedPages(async (request) => {
    const k = Number(new URL(request.url).pathname.split("/")[2]);
    if (!(k >= 1 && k <= n)) return undefined;
    return { text: `page ${k}`, items: [`${k}a`, `${k}b`], ...(k < n ? { next: String(k + 1) } : {}) };
  }, textCodec);
}

describe("feed server", () => {
  it("serves binary without Accept, JSON for application/json, with Vary", async () => {
    const url = await start(pagesServer(1));
    const binary = await fetch(`${url}/p/1`);
    expect(binary.headers.get("content-type")).toBe("application/x-protobuf");
    expect(binary.headers.get("vary")).toBe("Accept");
    expect(textCodec.decode(new Uint8Array(await binary.arrayBuffer())).text).toBe("page 1");
    const json = await fetch(`${url}/p/1`, { headers: { accept: "application/json" } });
    expect(json.headers.get("content-type")).toBe("application/json");
    expect(await json.json()).toMatchObject({ text: "page 1", format: "json" });
  });

  it("answers 406 for an Accept it cannot satisfy, 404 for no page, 405 for POST, HEAD without body", async () => {
    const url = await start(pagesServer(1));
    const refused = await fetch(`${url}/p/1`, { headers: { accept: "text/html" } });
    expect(refused.status).toBe(406);
    expect(await refused.text()).toContain("application/json");
    expect((await fetch(`${url}/p/9`)).status).toBe(404);
    const post = await fetch(`${url}/p/1`, { method: "POST", body: "x" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    const head = await fetch(`${url}/p/1`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("hides errors of getPage behind a 500 and reports them", async () => {
    const seen: unknown[] = [];
    const url = await start(serveFeedPages(async () => {
      throw new Error("database password is hunter2");
    }, textCodec, { onError: (e) => seen.push(e) }));
    const response = await fetch(url);
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain("hunter2");
    expect(seen).toHaveLength(1);
  });
});

describe("feed client", () => {
  it("fetches one page in both formats", async () => {
    const url = await start(pagesServer(2));
    expect(await fetchFeedPage(`${url}/p/1`, textCodec)).toEqual({ text: "page 1", items: ["1a", "1b"], next: "2" });
    expect(await fetchFeedPage(`${url}/p/1`, textCodec, { format: "json" })).toEqual({ text: "page 1", items: ["1a", "1b"], next: "2" });
  });

  it("iterates items across pages, resolving relative next links", async () => {
    const url = await start(pagesServer(3));
    const items: string[] = [];
    for await (const item of iterateFeedItems(`${url}/p/1`, textCodec, parts)) items.push(item);
    expect(items).toEqual(["1a", "1b", "2a", "2b", "3a", "3b"]);
  });

  it("throws HttpStatusError with status and body text for non-2xx", async () => {
    const url = await start(pagesServer(1));
    const error = await fetchFeedPage(`${url}/p/7`, textCodec).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpStatusError);
    expect((error as HttpStatusError).status).toBe(404);
    expect((error as HttpStatusError).bodyText).toBe("no such page\n");
  });

  it("keeps only the start of an endless error body", async () => {
    const url = await start(async () => new Response(new ReadableStream({
      pull: (controller) => controller.enqueue(new TextEncoder().encode("error ".repeat(1000))),
    }), { status: 503 }));
    const error = await fetchFeedPage(url, textCodec).catch((e: unknown) => e);
    expect((error as HttpStatusError).status).toBe(503);
    expect((error as HttpStatusError).bodyText).toHaveLength(4096);
  });

  it("throws FeedPageError for a body that does not decode", async () => {
    const url = await start(async () => new Response(new Uint8Array([0xff, 0xfe]), { headers: { "content-type": "application/x-protobuf" } }));
    await expect(fetchFeedPage(url, textCodec)).rejects.toBeInstanceOf(FeedPageError);
    await expect(fetchFeedPage(url, textCodec, { format: "json" })).rejects.toBeInstanceOf(FeedPageError);
  });

  it("stops with FeedLoopError when a page links back to itself or an earlier page", async () => {
    const url = await start(serveFeedPages(async (request) => {
      const k = Number(new URL(request.url).searchParams.get("k"));
      return { text: "loop", items: [String(k)], next: `?k=${(k + 1) % 3}` };
    }, textCodec));
    const items: string[] = [];
    const error = await (async () => {
      for await (const item of iterateFeedItems(`${url}/?k=0`, textCodec, parts)) items.push(item);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FeedLoopError);
    expect(items).toEqual(["0", "1", "2"]);
  });

  it("stops with FeedLoopError after maxPages distinct pages", async () => {
    const url = await start(serveFeedPages(async (request) => {
      const k = Number(new URL(request.url).searchParams.get("k"));
      return { text: "endless", items: [String(k)], next: `?k=${k + 1}` };
    }, textCodec));
    const items: string[] = [];
    const error = await (async () => {
      for await (const item of iterateFeedItems(`${url}/?k=0`, textCodec, parts, { maxPages: 5 })) items.push(item);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FeedLoopError);
    expect(items).toHaveLength(5);
  });

  it("refuses a next link to another scheme", async () => {
    const url = await start(serveFeedPages(async () => ({ text: "x", items: [], next: "file:///etc/passwd" }), textCodec));
    const error = await (async () => {
      for await (const _ of iterateFeedItems(url, textCodec, parts)) void _;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FeedPageError);
    expect(String(error)).toContain("file:");
  });

  describe("against a server that never answers", () => {
    let release!: () => void;
    const hang = async (): Promise<Response> => {
      await new Promise<void>((resolve) => (release = resolve));
      return new Response("too late");
    };
    afterEach(() => release?.());

    it("times out with HttpTimeoutError", async () => {
      const url = await start(hang);
      const error = await fetchFeedPage(url, textCodec, { timeoutMs: 50 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpTimeoutError);
      expect((error as HttpTimeoutError).timeoutMs).toBe(50);
    });

    it("rejects with the abort reason when the caller aborts", async () => {
      const url = await start(hang);
      const controller = new AbortController();
      const pending = fetchFeedPage(url, textCodec, { signal: controller.signal, timeoutMs: 60_000 });
      controller.abort(new Error("user gave up"));
      await expect(pending).rejects.toThrow("user gave up");
    });
  });
});
