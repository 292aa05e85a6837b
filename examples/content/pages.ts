import type { Entry, Response$ } from "../../generated/content/index.js";

export const FEED_PATH = "/feed";

/** The address of page `page` (1-based) of the feed served at `origin`. */
export function pageUrl(origin: string, page: number): string {
  return `${origin}${FEED_PATH}?page=${page}`;
}

export function pageCount(entries: number, pageSize: number): number {
  return Math.max(1, Math.ceil(entries / pageSize));
}

/**
 * Page `page` of the entries as a Response: its own URL and the URLs of its neighbours, absolute and pointing back at
 * the emulator. Undefined beyond the last page. An empty data set is one empty page.
 */
export function responsePage(entries: readonly Entry[], pageSize: number, page: number, origin: string): Response$ | undefined {
  const last = pageCount(entries.length, pageSize);
  if (!Number.isSafeInteger(page) || page < 1 || page > last) return undefined;
  return {
    requestUrl: pageUrl(origin, page),
    ...(page > 1 ? { previousRequestUrl: pageUrl(origin, page - 1) } : {}),
    ...(page < last ? { nextRequestUrl: pageUrl(origin, page + 1) } : {}),
    entry: entries.slice((page - 1) * pageSize, page * pageSize),
  };
}

/** The page number a request asks for: `GET /feed` is page 1, `GET /feed?page=K` page K; undefined for anything else. */
export function requestedPage(url: URL): number | undefined {
  if (url.pathname !== FEED_PATH) return undefined;
  const raw = url.searchParams.get("page");
  if (raw === null) return 1;
  return /^[0-9]{1,9}$/.test(raw) ? Number(raw) : undefined;
}
