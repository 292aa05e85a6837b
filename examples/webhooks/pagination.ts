/**
 * Paging of webhook lists: `page` (default 1) is passed into the filter as its page; `filter[limit]` sets the page
 * size (default 10). The headers X-Total, X-TotalPages and Link (RFC 8288: first, prev, next, last) describe it.
 */
export const DEFAULT_PAGE_SIZE = 10;

export interface Page<T> {
  readonly items: T[];
  readonly headers: Record<string, string>;
}

export function paginate<T>(all: readonly T[], page: number, limit: number, requestUrl: string): Page<T> {
  const size = limit > 0 ? limit : DEFAULT_PAGE_SIZE;
  const totalPages = Math.ceil(all.length / size);
  const items = all.slice((page - 1) * size, page * size);
  const link = (p: number, rel: string) => {
    const url = new URL(requestUrl);
    // Credentials passed as query parameters must not be echoed into the Link header.
    url.searchParams.delete("consumer_key");
    url.searchParams.delete("consumer_secret");
    url.searchParams.set("page", String(p));
    return `<${url.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (totalPages > 0) links.push(link(1, "first"));
  if (page > 1 && page <= totalPages + 1) links.push(link(page - 1, "prev"));
  if (page < totalPages) links.push(link(page + 1, "next"));
  if (totalPages > 0) links.push(link(totalPages, "last"));
  const headers: Record<string, string> = { "X-Total": String(all.length), "X-TotalPages": String(totalPages) };
  if (links.length > 0) headers.Link = links.join(", ");
  return { items, headers };
}
