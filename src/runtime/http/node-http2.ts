/// <reference types="node" preserve="true" />
// Node-only module: the directive above stays in the published .d.ts, so a user's project that has @types/node
// (an optional peer dependency of specforge) type-checks this adapter whatever its tsconfig `types` says.
/**
 * The node:http2 adapter: runs a web-standard handler on an HTTP/2 server (h2c, or TLS with ALPN "h2"), with
 * request and response bodies streamed both ways, which bidi streaming needs. It is what makes gRPC possible: a
 * Response made by an RPC handler carries its trailers as a Headers object under the registered symbol
 * `Symbol.for("specforge.rpc.trailers")` (complete once the body has ended), and the adapter sends them as HTTP/2
 * trailers. A Response without a body ends the stream with its headers (gRPC's trailers-only answer).
 */
import {
  constants, createSecureServer, createServer, type Http2SecureServer, type Http2Server, type IncomingHttpHeaders,
  type OutgoingHttpHeaders, type ServerHttp2Session, type ServerHttp2Stream,
} from "node:http2";
import { listenAndHandle } from "./listen.js";
import { RpcError } from "../connect/error.js";
import type { HttpHandler } from "./handler.js";
import { knownBody } from "./known-body.js";
import { answerTheRestFromReal } from "./stand-in.js";

/** The same registered symbol src/runtime/rpc/server.ts attaches trailers under. */
const RPC_TRAILERS = Symbol.for("specforge.rpc.trailers");
/** The RPC handler reads a request body through this method when a request has it (see server.ts, BODY_SOURCE). */
const BODY_SOURCE = Symbol.for("specforge.rpc.bodySource");

/** A chunk producer the RPC runtime reads from (src/runtime/rpc/envelope.ts ChunkSource, by shape). */
interface ChunkSource {
  read(): Promise<Uint8Array | undefined>;
  cancel(reason?: unknown): void;
}

/**
 * The request body straight from the HTTP/2 stream's events, without a web ReadableStream in between (building one
 * per call costs more than the rest of a small RPC). At most a few chunks are queued before the stream is paused.
 */
function chunkSource(stream: ServerHttp2Stream): ChunkSource {
  const queue: Uint8Array[] = [];
  let ended = false;
  let discard = false;
  let failure: RpcError | undefined;
  let waiting: { resolve: (chunk: Uint8Array | undefined) => void; reject: (error: unknown) => void } | undefined;
  const settle = () => {
    const w = waiting;
    if (w === undefined) return;
    waiting = undefined;
    if (failure !== undefined) w.reject(failure);
    else w.resolve(undefined);
  };
  stream.on("data", (chunk: Buffer) => {
    if (discard) return;
    const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (waiting !== undefined) {
      const w = waiting;
      waiting = undefined;
      w.resolve(bytes);
      return;
    }
    queue.push(bytes);
    if (queue.length >= 4) stream.pause();
  });
  stream.once("aborted", () => {
    failure ??= new RpcError("canceled", "the client reset the stream");
    settle();
  });
  stream.once("end", () => {
    ended = true;
    settle();
  });
  stream.once("close", () => {
    if (!ended) failure ??= new RpcError("canceled", "the client reset the stream");
    settle();
  });
  return {
    read() {
      if (queue.length > 0) {
        const chunk = queue.shift()!;
        if (queue.length < 2 && stream.isPaused()) stream.resume();
        return Promise.resolve(chunk);
      }
      if (failure !== undefined) return Promise.reject(failure);
      if (ended || discard) return Promise.resolve(undefined);
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject };
      });
    },
    cancel() {
      discard = true; // keep HTTP/2 flow control moving; what the client still sends is dropped
      queue.length = 0;
      stream.resume();
      settle();
    },
  };
}

export interface ServeNodeHttp2Options {
  /** Port to listen on; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Interface to bind; default "127.0.0.1". */
  readonly host?: string;
  /** Serve TLS (HTTP/2 over TLS, ALPN h2) with this key and certificate; without it, cleartext h2c. */
  readonly tls?: { readonly key: string | Uint8Array; readonly cert: string | Uint8Array; readonly ca?: string | Uint8Array };
  /** Called when the handler throws (the client gets a bare 500) or a response cannot be written. */
  readonly onError?: (error: unknown) => void;
  /**
   * Flow-control window of each stream, in bytes (SETTINGS_INITIAL_WINDOW_SIZE); default 1 MiB. Node's default,
   * 64 KiB, makes many concurrent streams wait for WINDOW_UPDATEs (gRPC servers use 1 MiB and more).
   */
  readonly streamWindowBytes?: number;
  /** Flow-control window of each connection (all its streams together), in bytes; default 16 MiB. */
  readonly connectionWindowBytes?: number;
  /** Streams a client may have open at once on one connection (SETTINGS_MAX_CONCURRENT_STREAMS); default 100. */
  readonly maxConcurrentStreams?: number;
  /**
   * A connection without any frame for this long (ms) is closed gracefully (its open streams finish, no new ones);
   * default 120,000 (2 minutes); 0 keeps idle connections open.
   */
  readonly idleTimeoutMs?: number;
}

/** Defaults of ServeNodeHttp2Options. */
export const HTTP2_SERVER_DEFAULTS = {
  streamWindowBytes: 1 << 20,
  connectionWindowBytes: 16 << 20,
  maxConcurrentStreams: 100,
  idleTimeoutMs: 120_000,
} as const;

export interface NodeHttp2ServerHandle {
  readonly server: Http2Server | Http2SecureServer;
  readonly host: string;
  readonly port: number;
  /** Base URL, e.g. "http://127.0.0.1:8080" (h2c) or "https://127.0.0.1:8443". */
  readonly url: string;
  /** How many HTTP/2 streams are in flight (requests not yet closed); leak tests expect 0 when idle. */
  openStreams(): number;
  /** Stop accepting, close every session and wait until the server is closed. */
  close(): Promise<void>;
}

function headersOf(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const name in raw) {
    if (name.charCodeAt(0) === 58) continue; // pseudo-headers (":path") are not headers
    const value = raw[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.append(name, value);
  }
  return headers;
}

/** The request body as a web stream with back-pressure; a cancelled body stops reading and discards the rest. */
function bodyOf(stream: ServerHttp2Stream): ReadableStream<Uint8Array> {
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      stream.on("data", (chunk: Buffer) => {
        if (cancelled) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) stream.pause();
      });
      stream.once("aborted", () => {
        if (!cancelled) {
          cancelled = true;
          controller.error(new RpcError("canceled", "the client reset the stream"));
        }
      });
      stream.once("end", () => {
        if (!cancelled) controller.close();
      });
      stream.once("close", () => {
        if (!cancelled && !stream.readableEnded) {
          cancelled = true;
          controller.error(new RpcError("canceled", "the client reset the stream"));
        }
      });
    },
    pull() {
      stream.resume();
    },
    cancel() {
      cancelled = true;
      stream.resume(); // keep HTTP/2 flow control moving; what the client still sends is dropped
    },
  }, { highWaterMark: 4 });
}

/**
 * A Request built lazily from an HTTP/2 stream: method, url, headers, signal and body are its own (cheap) fields;
 * anything else is answered by a real Request made on demand.
 */
class Http2Request {
  readonly method: string;
  readonly url: string;
  #raw: IncomingHttpHeaders;
  #stream: ServerHttp2Stream;
  #headers: Headers | undefined;
  #abort: AbortController | undefined;
  /** Set when the client reset the stream; the signal (made on first use) is then aborted. */
  #gone: RpcError | undefined;
  #body: ReadableStream<Uint8Array> | null | undefined;
  #real: Request | undefined;

  constructor(stream: ServerHttp2Stream, raw: IncomingHttpHeaders, url: string) {
    this.method = String(raw[":method"] ?? "GET");
    this.url = url;
    this.#raw = raw;
    this.#stream = stream;
  }
  /** The client reset the stream or went away. */
  reset(): void {
    if (this.#gone !== undefined) return;
    this.#gone = new RpcError("canceled", "the client reset the stream");
    this.#abort?.abort(this.#gone);
  }
  get clientGone(): boolean {
    return this.#gone !== undefined;
  }
  get headers(): Headers {
    return (this.#headers ??= headersOf(this.#raw));
  }
  get signal(): AbortSignal {
    if (this.#abort === undefined) {
      this.#abort = new AbortController();
      if (this.#gone !== undefined) this.#abort.abort(this.#gone);
    }
    return this.#abort.signal;
  }
  get body(): ReadableStream<Uint8Array> | null {
    if (this.#body === undefined) this.#body = this.method === "GET" || this.method === "HEAD" ? null : bodyOf(this.#stream);
    return this.#body;
  }
  /** The body as a chunk source for the RPC handler (instead of `body`, not as well). */
  [BODY_SOURCE](): ChunkSource | null {
    if (this.method === "GET" || this.method === "HEAD") return null;
    this.#body = null;
    return chunkSource(this.#stream);
  }
  get bodyUsed(): boolean {
    return this.#body !== undefined && this.#body !== null && this.#body.locked;
  }
  get real(): Request {
    if (this.#real === undefined) {
      const body = this.body;
      const init: RequestInit & { duplex?: "half" } = { method: this.method, headers: this.headers, signal: this.signal };
      if (body !== null) {
        init.body = body;
        init.duplex = "half";
      }
      this.#real = new Request(this.url, init);
    }
    return this.#real;
  }
}
/** As NodeRequest (node.ts): the rest of Request is patched in when the first server starts, not at module load. */
let completed = false;
function completeHttp2Request(): void {
  if (completed) return;
  answerTheRestFromReal(Http2Request.prototype, Request.prototype, ["method", "url"]);
  completed = true;
}

function headerRecord(status: number, headers: Headers): OutgoingHttpHeaders {
  const record: OutgoingHttpHeaders = { ":status": status };
  headers.forEach((value, name) => {
    if (name === "connection" || name === "keep-alive" || name === "transfer-encoding") return;
    const previous = record[name];
    record[name] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [String(previous), value];
  });
  return record;
}

function recordHeaders(status: number, record: Readonly<Record<string, string>> | undefined): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = { ":status": status };
  for (const name in record) out[name.toLowerCase()] = record[name];
  return out;
}

function trailerRecord(trailers: Headers): OutgoingHttpHeaders {
  const record: OutgoingHttpHeaders = {};
  trailers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

function waitDrain(stream: ServerHttp2Stream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done);
      stream.off("close", done);
      resolve();
    };
    stream.on("drain", done);
    stream.on("close", done);
  });
}

async function writeResponse(stream: ServerHttp2Stream, response: Response): Promise<void> {
  const trailers = (response as { [RPC_TRAILERS]?: Headers })[RPC_TRAILERS];
  const known = knownBody(response);
  const headers = known !== undefined && known.headers === undefined ? recordHeaders(known.status, known.headerRecord) : headerRecord(response.status, response.headers);
  if (stream.destroyed || stream.closed) return;
  const options = trailers === undefined ? {} : { waitForTrailers: true };
  if (trailers !== undefined) {
    stream.once("wantTrailers", () => {
      if (stream.destroyed) return;
      stream.sendTrailers(trailerRecord(trailers));
      // A reset right behind the trailers can overtake them (the client then misses the status): a client still
      // sending gets a moment to see the trailers and stop by itself.
      if (!stream.readableEnded) setTimeout(endEarly, 200, stream).unref();
    });
  }
  if (known !== undefined) {
    known.used = true;
    stream.respond(headers, options);
    stream.end(known.body);
    if (trailers === undefined) endEarly(stream);
    return;
  }
  if (response.body === null) {
    stream.respond(headers, trailers === undefined ? { endStream: true } : options);
    if (trailers !== undefined) stream.end();
    else endEarly(stream);
    return;
  }
  stream.respond(headers, options);
  const reader = response.body.getReader();
  const onClose = () => {
    if (!stream.writableFinished) reader.cancel(new Error("the client reset the stream")).catch(() => undefined);
  };
  stream.once("close", onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (stream.destroyed || stream.closed) {
        await reader.cancel().catch(() => undefined);
        return;
      }
      if (!stream.write(value)) await waitDrain(stream);
    }
    if (!stream.destroyed) {
      stream.end();
      if (trailers === undefined) endEarly(stream);
    }
  } finally {
    stream.off("close", onClose);
  }
}

/**
 * The answer is complete but the client is still sending (an error answered before the request ended, say): reset
 * the stream with NO_ERROR, as gRPC servers do, so the client stops and the stream closes instead of lingering. Node
 * sends the RST_STREAM after the frames already queued.
 */
function endEarly(stream: ServerHttp2Stream): void {
  if (!stream.readableEnded && !stream.closed) stream.close(constants.NGHTTP2_NO_ERROR);
}

/** Listen with `handler` on HTTP/2 (h2c without `tls`); resolves once the server accepts connections. */
export async function serveNodeHttp2(handler: HttpHandler, options: ServeNodeHttp2Options = {}): Promise<NodeHttp2ServerHandle> {
  const host = options.host ?? "127.0.0.1";
  const tls = options.tls;
  const settings = {
    initialWindowSize: options.streamWindowBytes ?? HTTP2_SERVER_DEFAULTS.streamWindowBytes,
    maxConcurrentStreams: options.maxConcurrentStreams ?? HTTP2_SERVER_DEFAULTS.maxConcurrentStreams,
  };
  const connectionWindow = options.connectionWindowBytes ?? HTTP2_SERVER_DEFAULTS.connectionWindowBytes;
  const idleTimeout = options.idleTimeoutMs ?? HTTP2_SERVER_DEFAULTS.idleTimeoutMs;
  const server =
    tls === undefined
      ? createServer({ settings })
      : createSecureServer({ settings, key: tls.key as never, cert: tls.cert as never, ...(tls.ca ? { ca: tls.ca as never } : {}) });
  const scheme = tls === undefined ? "http" : "https";
  // RPCs are small request/answer exchanges: Nagle's algorithm would hold the last frames of one back.
  server.on(tls === undefined ? "connection" : "secureConnection", (socket: { setNoDelay(on: boolean): void }) => socket.setNoDelay(true));
  const sessions = new Set<ServerHttp2Session>();
  let open = 0;
  server.on("session", (session: ServerHttp2Session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
    session.on("error", () => undefined); // a broken connection: its streams close and are counted down
    // The connection's own window (the SETTINGS frame only sets the streams'); once the session is up.
    const widen = () => {
      try {
        if (!session.destroyed) session.setLocalWindowSize(connectionWindow);
      } catch {
        // an old Node without setLocalWindowSize, or the session already going: the default window stays
      }
    };
    if (session.connecting) session.once("connect", widen);
    else widen();
    if (idleTimeout > 0) session.setTimeout(idleTimeout, () => session.close());
  });
  completeHttp2Request();
  server.on("stream", (stream: ServerHttp2Stream, raw: IncomingHttpHeaders) => {
    open++;
    const authority = String(raw[":authority"] ?? raw.host ?? `${host}:0`);
    const path = String(raw[":path"] ?? "/");
    const request = new Http2Request(stream, raw, `${scheme}://${authority}${path}`);
    // "aborted" comes first when the client resets a stream we are still answering (node then ends the readable side
    // as if the request were complete, so the body alone cannot tell a reset from an end).
    stream.once("aborted", () => request.reset());
    stream.once("close", () => {
      open--;
      // A stream that closes before the answer finished was reset or lost: the handler is told.
      if (!stream.writableFinished || stream.rstCode !== constants.NGHTTP2_NO_ERROR) request.reset();
    });
    stream.on("error", () => undefined);
    if (path.charCodeAt(0) !== 47) {
      stream.respond({ ":status": 400 }, { endStream: true });
      return;
    }
    const failed = (error: unknown) => {
      if (request.clientGone || stream.destroyed) return;
      options.onError?.(error);
      if (!stream.headersSent) stream.respond({ ":status": 500, "content-type": "text/plain; charset=utf-8" }, { endStream: false });
      stream.end("internal error\n");
    };
    handler(request as unknown as Request).then((response) => writeResponse(stream, response)).catch(failed);
  });
  return listenAndHandle(server, { port: options.port ?? 0, host, scheme }, () => open, () => {
    for (const session of sessions) session.destroy();
  });
}
