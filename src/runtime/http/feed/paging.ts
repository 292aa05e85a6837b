import { fetchFeedPage, type FeedClientOptions } from "./client.js";
import { FeedLoopError, FeedPageError } from "./errors.js";
import type { MessageReader } from "../message-codec.js";

export interface FeedIterateOptions extends FeedClientOptions {
  /** Stop with FeedLoopError after this many pages (default 10000): a guard against feeds that never end. */
  readonly maxPages?: number;
}

/** What paging needs to know about a page: its items and the link to the next page. */
export interface FeedPageParts<I> {
  readonly items: readonly I[] | undefined;
  readonly next: string | undefined;
}

export const DEFAULT_MAX_PAGES = 10_000;

function resolveNext(next: string, current: URL): URL {
  let url: URL;
  try {
    url = new URL(next, current);
  } catch (error) {
    throw new FeedPageError(current.href, `next page link is not a URL: ${JSON.stringify(next.slice(0, 200))}`, { cause: error });
  }
  // A page is untrusted input: it may send us on to another http(s) page, never to another scheme.
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new FeedPageError(current.href, `next page link has unsupported scheme ${url.protocol}`);
  }
  return url;
}

/**
 * Every page of a feed from `startUrl`, following each page's next link (resolved against the page's own URL) until
 * it is absent or empty. Reading the same URL twice, or more than `maxPages` pages, throws FeedLoopError.
 */
export async function* iterateFeedPages<P, I>(
  startUrl: string | URL,
  reader: MessageReader<P>,
  partsOf: (page: P) => FeedPageParts<I>,
  options: FeedIterateOptions = {},
): AsyncGenerator<P, void, undefined> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const seen = new Set<string>();
  let url: URL | undefined = new URL(startUrl);
  while (url !== undefined) {
    if (seen.has(url.href)) throw new FeedLoopError(url.href, "feed links back to a page already read");
    if (seen.size >= maxPages) throw new FeedLoopError(url.href, `feed has more than ${maxPages} pages`);
    seen.add(url.href);
    const page: P = await fetchFeedPage(url, reader, options);
    yield page;
    const next: string | undefined = partsOf(page).next;
    url = next ? resolveNext(next, url) : undefined;
  }
}

/** Every item of every page of a feed, in order (see iterateFeedPages for how pages are followed). */
export async function* iterateFeedItems<P, I>(
  startUrl: string | URL,
  reader: MessageReader<P>,
  partsOf: (page: P) => FeedPageParts<I>,
  options: FeedIterateOptions = {},
): AsyncGenerator<I, void, undefined> {
  for await (const page of iterateFeedPages(startUrl, reader, partsOf, options)) {
    yield* partsOf(page).items ?? [];
  }
}
