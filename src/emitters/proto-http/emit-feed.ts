import { GeneratedFile } from "../../codegen/generated-file.js";
import { fieldPropertyName } from "../../naming/property-name.js";
import type { EmitContext } from "../artifact.js";
import { emitCodecConsts } from "./codec-consts.js";
import { TYPES_MODULE } from "./codec-functions.js";
import { findFeedPages, type FeedPage } from "./find-pages.js";
import { isOwnType } from "../modules.js";
import { propertyAccess } from "./identifiers.js";
import type { FeedNames } from "../../naming/assign-names.js";
import { ModuleScope } from "../../naming/module-scope.js";
import { stemOf } from "../../naming/derived.js";

/**
 * feed.ts: content feeds over HTTP for every page message (see findFeedPages). Per page type P with items I:
 * `fetch<P>(url, options)` reads one page, `iterate<I>s(startUrl, options)` yields every item across pages following
 * next_request_url, and `serve<P>s(getPage, options)` is a web-standard handler serving pages by content negotiation.
 */
export function emitFeed(ctx: EmitContext): GeneratedFile {
  const f = new GeneratedFile(`${ctx.dir}/feed.ts`, ctx.source);
  const pages = findFeedPages(ctx.doc).filter((p) => isOwnType(ctx, p.page.id));
  f.jsdoc("", [
    `Content feeds over HTTP for ${ctx.source}: clients that fetch and page through feeds, and servers that serve them.`,
    "Pages are protobuf binary (application/x-protobuf) by default, or ProtoJSON (application/json).",
    "@packageDocumentation",
  ]);
  f.print();
  const names = new Map(pages.map((p) => [p.page.id, ctx.names.feed(p.page.id)!] as const));
  const scope = new ModuleScope(ctx.names, [...names.values()].flatMap((n) => [n.fetch, n.iterate, n.serve, n.parts]));
  const codecs = emitCodecConsts(f, ctx, pages.map((p) => p.page.id), scope);
  for (const page of pages) emitPage(f, ctx, page, codecs.get(page.page.id)!, names.get(page.page.id)!);
  return f;
}

function emitPage(f: GeneratedFile, ctx: EmitContext, page: FeedPage, codec: string, names: FeedNames): void {
  const rt = (name: string, typeOnly = false) => f.import(name, ctx.runtimeModule, { typeOnly });
  const pageType = f.import(ctx.names.type(page.page.id), TYPES_MODULE, { typeOnly: true });
  const itemType = f.import(ctx.names.type(page.itemType), TYPES_MODULE, { typeOnly: true });
  // For the doc comments.
  const pageName = stemOf(pageType.name);
  const itemName = stemOf(itemType.name);
  const partsName = names.parts;
  const origin = `@generated from ${page.page.origin.construct}`;

  f.jsdoc("", [`How paging reads a ${pageName}: its ${page.items.name} items and its ${page.next.name} link.`]);
  f.print(`const ${partsName} = (page: `, pageType, "): ", rt("FeedPageParts", true), "<", itemType, "> => ({");
  f.print(`  items: ${propertyAccess("page", fieldPropertyName(page.items))},`);
  f.print(`  next: ${propertyAccess("page", fieldPropertyName(page.next))},`);
  f.print("});");
  f.print();

  f.jsdoc("", [
    `GET one ${pageName} page: protobuf binary by default, ProtoJSON with \`format: "json"\`.`,
    "Throws HttpStatusError for a non-2xx answer (with its status and body text), HttpTimeoutError after `timeoutMs`," +
      " FeedPageError when the body is not a valid page, and the signal's reason when `signal` aborts.",
    origin,
  ]);
  f.print(`export function ${names.fetch}(url: string | URL, options?: `, rt("FeedClientOptions", true), "): Promise<", pageType, "> {");
  f.print("  return ", rt("fetchFeedPage"), `(url, ${codec}, options);`);
  f.print("}");
  f.print();

  f.jsdoc("", [
    `Every ${itemName} of a feed, page by page from \`startUrl\`, following each page's ${page.next.name}` +
      " (resolved against the page's URL) until it is absent or empty.",
    "Throws FeedLoopError when a page links back to a page already read or after `maxPages` pages (default 10000).",
    origin,
  ]);
  f.print(
    `export function ${names.iterate}(startUrl: string | URL, options?: `, rt("FeedIterateOptions", true),
    "): AsyncGenerator<", itemType, ", void, undefined> {",
  );
  f.print("  return ", rt("iterateFeedItems"), `(startUrl, ${codec}, ${partsName}, options);`);
  f.print("}");
  f.print();

  f.jsdoc("", [
    `A web-standard handler serving ${pageName} pages: \`getPage\` returns the page a request asks for, or undefined` +
      " (404). Answers GET and HEAD; protobuf binary or JSON by the Accept header (406 when neither is acceptable).",
    origin,
  ]);
  f.print(
    `export function ${names.serve}(`,
    "getPage: (request: globalThis.Request) => Promise<", pageType, " | undefined>, options?: ", rt("FeedServerOptions", true),
    "): ", rt("HttpHandler", true), " {",
  );
  f.print("  return ", rt("serveFeedPages"), `(getPage, ${codec}, options);`);
  f.print("}");
  f.print();
}
