import { describe, expect, it } from "vitest";
import { emitFeed } from "../../../src/emitters/proto-http/emit-feed.js";
import { CONTENT_PROTO, GREETER_PROTO, protoContext } from "./emit.helpers.js";

describe("feed.ts", () => {
  it("generates fetch, iterate and serve for content.proto's Response pages of Entry", () => {
    const text = emitFeed(protoContext(CONTENT_PROTO)).render();
    expect(text).toContain("export function fetchResponse(url: string | URL, options?: FeedClientOptions): Promise<Response$> {\n");
    expect(text).toContain(
      "export function iterateEntries(startUrl: string | URL, options?: FeedIterateOptions): AsyncGenerator<Entry, void, undefined> {\n" +
        "  return iterateFeedItems(startUrl, responseCodec, responsePageParts, options);\n}\n",
    );
    expect(text).toContain(
      "export function serveResponses(getPage: (request: globalThis.Request) => Promise<Response$ | undefined>, options?: FeedServerOptions): HttpHandler {\n",
    );
    expect(text).toContain("  items: page.entry,\n  next: page.nextRequestUrl,\n");
  });

  it("generalises to any page message (proto3 ItemPage of Item)", () => {
    const text = emitFeed(protoContext(GREETER_PROTO)).render();
    expect(text).toContain("export function fetchItemPage(");
    expect(text).toContain("export function iterateItems(");
    expect(text).toContain("export function serveItemPages(");
    expect(text).not.toContain("GreetRequest");
  });
});
