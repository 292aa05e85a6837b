/**
 * The one server shape every generated server uses: a web-standard handler. It runs unchanged under Node (through
 * `serveNode`), Deno, Bun, Cloudflare Workers or any framework that speaks `Request`/`Response`.
 *
 * Generated code names these web types through this alias (and `globalThis.Request`) because a spec may declare its
 * own `Request` or `Response` type, which would shadow the globals in a generated file.
 */
export type HttpHandler = (request: Request) => Promise<Response>;

/** The `fetch` function a generated client calls; injectable for tests, proxies and instrumentation. */
export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
