/// <reference types="node" preserve="true" />
// Node-only module: the directive above stays in the published .d.ts, so a user's project that has @types/node
// (an optional peer dependency of specforge) type-checks this adapter whatever its tsconfig `types` says.
/**
 * The node:http adapter: runs any web-standard `(Request) => Promise<Response>` handler (generated feed servers,
 * Connect handlers, REST servers) on a node:http server. The only Node-specific part of the HTTP runtime, so it is
 * imported from this module directly rather than through the runtime index.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import { listenAndHandle } from "./listen.js";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { RpcError } from "../connect/error.js";
import { directPathOf, type DirectAnswer } from "./direct.js";
import type { HttpHandler } from "./handler.js";
import { knownBody, statusAllowsBody } from "./known-body.js";
import { answerTheRestFromReal } from "./stand-in.js";

export interface NodeAdapterOptions {
  /** Host used in request URLs when the client sent no usable Host header (default "localhost"). */
  readonly fallbackHost?: string;
  /** Called when the handler throws (the client gets a bare 500) or a response cannot be written. */
  readonly onError?: (error: unknown) => void;
}

export interface ServeNodeOptions extends NodeAdapterOptions {
  /** Port to listen on; 0 (the default) picks a free one, see `NodeServerHandle.port`. */
  readonly port?: number;
  /** Interface to bind; default "127.0.0.1" so nothing is exposed beyond this machine unless asked for. */
  readonly host?: string;
  /** Time a client has to send the complete request headers; then the connection is closed (408). Default 10 s. */
  readonly headersTimeoutMs?: number;
  /** Time a client has to send the whole request, body included (408 after). Default 60 s; 0 disables it. */
  readonly requestTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open between requests. Default 5 s. */
  readonly keepAliveTimeoutMs?: number;
}

/** Defaults of serveNode's timeouts: a client that never finishes its headers (slow loris) is cut off. */
export const NODE_SERVER_TIMEOUTS = Object.freeze({ headersTimeoutMs: 10_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 5_000 });

export interface NodeServerHandle {
  readonly server: Server;
  readonly host: string;
  /** The port actually bound (useful with port 0). */
  readonly port: number;
  /** Base URL of the server, e.g. "http://127.0.0.1:8080". */
  readonly url: string;
  /** How many requests are in flight (received, response not yet closed); leak tests expect 0 when idle. */
  openStreams(): number;
  /** Stop accepting connections, drop open ones and wait until the server is closed. */
  close(): Promise<void>;
}

/** A Host header we build URLs from: a name or IPv4/IPv6 literal with an optional port, nothing else. */
const PLAIN_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

/** A target already in the form the URL parser would serialize it to (no dot segments, nothing to escape). */
const CANONICAL_TARGET = /^\/(?:[A-Za-z0-9\-_~!$&'()*+,;=:@/?%]|\.(?![./?]|$))*$/;
const CANONICAL_HOST = /^[a-z0-9.-]+(?::(?!80$)[0-9]{1,5})?$/;

/**
 * The absolute URL of a node:http request. The origin comes from the Host header (what the client used, so
 * absolute links a handler builds point back the same way) when it is a plain host, else `fallbackHost`; the
 * target must be a path. The usual request is already in canonical form and is used as it is; anything else goes
 * through the URL parser, so handlers always see what `new Request(url).url` would give.
 */
function requestUrl(req: IncomingMessage, fallbackHost: string, last: HostCheck): string {
  const header = req.headers.host;
  // A keep-alive client sends the same Host on every request: its two checks are remembered for the next one.
  if (header !== last.header) {
    last.header = header;
    last.host = header !== undefined && PLAIN_HOST.test(header) ? header : fallbackHost;
    last.canonical = CANONICAL_HOST.test(last.host);
  }
  const target = req.url ?? "/";
  if (target.charCodeAt(0) !== 47) throw new TypeError("request target is not a path");
  const url = `http://${last.host}${target}`;
  return last.canonical && CANONICAL_TARGET.test(target) ? url : new URL(url).href;
}

/** The last Host header a listener saw, the origin it gave and whether that origin is in canonical form. */
interface HostCheck {
  header: string | undefined;
  host: string;
  canonical: boolean;
}

function newHostCheck(fallbackHost: string): HostCheck {
  return { header: undefined, host: fallbackHost, canonical: CANONICAL_HOST.test(fallbackHost) };
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.charCodeAt(0) !== 58) headers.append(name, raw[i + 1]!); // HTTP/2 pseudo-headers (":path") are not headers
  }
  return headers;
}

/** The full web Request for a node:http request: streamed body, headers copied, the abort signal attached. */
function fullRequest(req: IncomingMessage, url: string, headers: Headers, signal: AbortSignal): Request {
  const method = req.method ?? "GET";
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal };
  if (method !== "GET" && method !== "HEAD") {
    init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
    init.duplex = "half"; // required by fetch's Request for a streamed body
  }
  return new Request(url, init);
}

/**
 * Turn a node:http request into a web Request (eagerly; the listener uses the lazy `NodeRequest` instead). The body
 * is streamed, not buffered. Throws TypeError for an unusable target.
 */
export function toWebRequest(req: IncomingMessage, signal: AbortSignal, fallbackHost = "localhost"): Request {
  return fullRequest(req, requestUrl(req, fallbackHost, newHostCheck(fallbackHost)), headersOf(req), signal);
}

/**
 * A Request whose parts are built when first asked for. Building a real undici Request (URL parsing, a Headers
 * copy, a signal it follows, a body stream) costs more than routing, validating and answering a small GET, and
 * most handlers read only `method`, `url` and a header or two. `method` and `url` are plain fields, `headers` is
 * copied on first use, `signal` is created on first use, and everything else (the body, `clone()`, `text()`, ...)
 * goes to a real Request made on demand. Its prototype chain includes Request.prototype, so `instanceof Request`
 * holds.
 */
class NodeRequest {
  readonly method: string;
  readonly url: string;
  #req: IncomingMessage;
  #res: ServerResponse;
  #headers: Headers | undefined;
  #abort: AbortController | undefined;
  #real: Request | undefined;

  constructor(req: IncomingMessage, res: ServerResponse, url: string) {
    this.method = req.method ?? "GET";
    this.url = url;
    this.#req = req;
    this.#res = res;
  }

  get headers(): Headers {
    return (this.#headers ??= headersOf(this.#req));
  }

  /** Aborted when the client goes away before the response is finished. */
  get signal(): AbortSignal {
    if (this.#abort === undefined) {
      const abort = new AbortController();
      this.#abort = abort;
      const res = this.#res;
      const gone = () => {
        if (!res.writableFinished) abort.abort(new RpcError("canceled", "client closed the connection"));
      };
      if (res.closed) gone();
      else res.once("close", gone);
    }
    return this.#abort.signal;
  }

  /** Whether the client went away (only tracked once someone asked for the signal). */
  get clientGone(): boolean {
    return this.#abort?.signal.aborted ?? false;
  }

  get real(): Request {
    return (this.#real ??= fullRequest(this.#req, this.url, this.headers, this.signal));
  }
}

/**
 * Everything else a Request has is answered by the real one, built on first use. Patched in when the first handler
 * is made, not when the module loads (the runtime has no module-level side effects: package.json `sideEffects`).
 */
let completed = false;
function completeNodeRequest(): void {
  if (completed) return;
  answerTheRestFromReal(NodeRequest.prototype, Request.prototype, ["method", "url"]);
  completed = true;
}

/** Write a web Response to a node:http response: a body the runtime knows as text or bytes (see known-body.ts) is
 * written directly, any other body is streamed with back-pressure. */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  await sendResponse(res, response);
}

/** Write a response whose body the runtime holds (every generated JSON answer) at once; false for any other. */
function sendKnownBody(res: ServerResponse, response: Response): boolean {
  const known = knownBody(response);
  if (known === undefined) return false;
  if (known.statusText) res.statusMessage = known.statusText;
  // The record as given, unless someone took the Headers object (and may have changed it).
  const headers = known.headers === undefined ? known.headerRecord : headerRecord(known.headers);
  res.writeHead(known.status, withContentLength(known.status, headers, known.body));
  res.end(known.body);
  return true;
}

/**
 * The headers to write with a whole body: its byte length added, unless the status has no body or the handler gave a
 * length. Without it node falls back to chunked encoding, which costs both sides a little per response (the body
 * is one piece anyway). Added to the record rather than with setHeader, which would send writeHead down its slower
 * merging path; copied by a loop, as `{ ...headers, name: value }` takes a slow path in V8 (350-580 ns measured on
 * Node 20).
 */
function withContentLength(
  status: number,
  headers: Readonly<Record<string, string | string[]>> | undefined,
  body: string | Uint8Array | undefined,
): Readonly<Record<string, string | string[]>> | undefined {
  if (body === undefined || !statusAllowsBody(status) || hasContentLength(headers)) return headers;
  const record: Record<string, string | string[] | number> = {};
  for (const name in headers) record[name] = headers[name]!;
  record["content-length"] = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  return record as Record<string, string>;
}

function hasContentLength(headers: Readonly<Record<string, unknown>> | undefined): boolean {
  if (headers === undefined) return false;
  for (const name in headers) if (name.length === 14 && name.toLowerCase() === "content-length") return true;
  return false;
}

async function sendStreamedBody(res: ServerResponse, response: Response): Promise<void> {
  if (response.statusText) res.statusMessage = response.statusText;
  res.writeHead(response.status, headerRecord(response.headers));
  if (response.body === null) {
    res.end();
    return;
  }
  await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), res);
}

function headerRecord(headers: Headers): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  headers.forEach((value, name) => {
    if (name !== "set-cookie") record[name] = value;
  });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) record["set-cookie"] = cookies;
  return record;
}

function plainError(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8" }).end(`${text}\n`);
}

/** A node:http request listener running `handler`; usable with any node:http(s) server or framework that takes one. */
export function nodeRequestListener(handler: HttpHandler, options: NodeAdapterOptions = {}): RequestListener {
  const fallbackHost = options.fallbackHost ?? "localhost";
  const lastHost = newHostCheck(fallbackHost);
  // A generated REST server answers with parts (see direct.ts): written as they are, without a Response in between.
  const direct = directPathOf(handler);
  completeNodeRequest();
  return (req, res) => {
    let request: NodeRequest;
    try {
      request = new NodeRequest(req, res, requestUrl(req, fallbackHost, lastHost));
    } catch {
      plainError(res, 400, "bad request");
      return;
    }
    const failed = (error: unknown) => {
      if (request.clientGone || res.destroyed) return; // nobody is listening any more
      options.onError?.(error);
      plainError(res, 500, "internal error");
    };
    if (direct === undefined) {
      // A known body is written in the same tick the handler settles; only a streamed one needs another promise.
      handler(request as unknown as Request).then((response) => sendResponse(res, response)).catch(failed);
      return;
    }
    let answer: DirectAnswer | Promise<DirectAnswer>;
    try {
      answer = direct(request as unknown as Request);
    } catch (error) {
      failed(error);
      return;
    }
    if (answer instanceof Promise) {
      answer.then((settled) => sendAnswer(res, settled)).catch(failed);
      return;
    }
    try {
      sendAnswer(res, answer)?.catch(failed);
    } catch (error) {
      failed(error); // say a header value the handler gave is not allowed (node throws)
    }
  };
}

/** Write a Response: a known body at once (undefined returned), any other streamed (a promise of the end). */
function sendResponse(res: ServerResponse, response: Response): Promise<void> | undefined {
  return sendKnownBody(res, response) ? undefined : sendStreamedBody(res, response);
}

/** Write a direct path's answer: parts as they are (what a hand-written handler would do), a Response as above. */
function sendAnswer(res: ServerResponse, answer: DirectAnswer): Promise<void> | undefined {
  if (answer instanceof Response) return sendResponse(res, answer);
  res.writeHead(answer.status, withContentLength(answer.status, answer.headers, answer.body));
  res.end(answer.body);
  return undefined;
}

/** Listen on `host:port` with `handler`; resolves once the server accepts connections. */
export async function serveNode(handler: HttpHandler, options: ServeNodeOptions = {}): Promise<NodeServerHandle> {
  const host = options.host ?? "127.0.0.1";
  const headersTimeout = options.headersTimeoutMs ?? NODE_SERVER_TIMEOUTS.headersTimeoutMs;
  const requestTimeout = options.requestTimeoutMs ?? NODE_SERVER_TIMEOUTS.requestTimeoutMs;
  const server = createServer(
    {
      headersTimeout,
      // node requires requestTimeout >= headersTimeout (0 = none); both are checked every connectionsCheckingInterval.
      requestTimeout: requestTimeout === 0 ? 0 : Math.max(requestTimeout, headersTimeout),
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
    },
    nodeRequestListener(handler, options),
  );
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? NODE_SERVER_TIMEOUTS.keepAliveTimeoutMs;
  let open = 0;
  const closed = () => open--;
  server.on("request", (_req: IncomingMessage, res: ServerResponse) => {
    open++;
    res.once("close", closed);
  });
  return listenAndHandle(server, { port: options.port ?? 0, host, scheme: "http" }, () => open, () => server.closeAllConnections());
}

export { serveNodeHttp2, type NodeHttp2ServerHandle, type ServeNodeHttp2Options } from "./node-http2.js";
