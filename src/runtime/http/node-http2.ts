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
import type { AddressInfo } from "node:net";
import { RpcError } from "../connect/error.js";
import type { HttpHandler } from "./handler.js";
import { knownBody } from "./known-body.js";
import { answerTheRestFromReal } from "./stand-in.js";

/** The same registered symbol src/runtime/rpc/server.ts attaches trailers under. */
const RPC_TRAILERS = Symbol.for("specforge.rpc.trailers");

export interface ServeNodeHttp2Options {
  /** Port to listen on; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Interface to bind; default "127.0.0.1". */
  readonly host?: string;
  /** Serve TLS (HTTP/2 over TLS, ALPN h2) with this key and certificate; without it, cleartext h2c. */
  readonly tls?: { readonly key: string | Uint8Array; readonly cert: string | Uint8Array; readonly ca?: string | Uint8Array };
  /** Called when the handler throws (the client gets a bare 500) or a response cannot be written. */
  readonly onError?: (error: unknown) => void;
}

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
  #abort: AbortController;
  #body: ReadableStream<Uint8Array> | null | undefined;
  #real: Request | undefined;

  constructor(stream: ServerHttp2Stream, raw: IncomingHttpHeaders, url: string, abort: AbortController) {
    this.method = String(raw[":method"] ?? "GET");
    this.url = url;
    this.#raw = raw;
    this.#stream = stream;
    this.#abort = abort;
  }
  get headers(): Headers {
    return (this.#headers ??= headersOf(this.#raw));
  }
  get signal(): AbortSignal {
    return this.#abort.signal;
  }
  get body(): ReadableStream<Uint8Array> | null {
    if (this.#body === undefined) this.#body = this.method === "GET" || this.method === "HEAD" ? null : bodyOf(this.#stream);
    return this.#body;
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
answerTheRestFromReal(Http2Request.prototype, Request.prototype, ["method", "url"]);

function headerRecord(status: number, headers: Headers): OutgoingHttpHeaders {
  const record: OutgoingHttpHeaders = { ":status": status };
  headers.forEach((value, name) => {
    if (name === "connection" || name === "keep-alive" || name === "transfer-encoding") return;
    const previous = record[name];
    record[name] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [String(previous), value];
  });
  return record;
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
  const headers = headerRecord(response.status, response.headers);
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
export function serveNodeHttp2(handler: HttpHandler, options: ServeNodeHttp2Options = {}): Promise<NodeHttp2ServerHandle> {
  const host = options.host ?? "127.0.0.1";
  const tls = options.tls;
  const server = tls === undefined ? createServer() : createSecureServer({ key: tls.key as never, cert: tls.cert as never, ...(tls.ca ? { ca: tls.ca as never } : {}) });
  const scheme = tls === undefined ? "http" : "https";
  const sessions = new Set<ServerHttp2Session>();
  let open = 0;
  server.on("session", (session: ServerHttp2Session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
    session.on("error", () => undefined); // a broken connection: its streams close and are counted down
  });
  server.on("stream", (stream: ServerHttp2Stream, raw: IncomingHttpHeaders) => {
    open++;
    const abort = new AbortController();
    const reset = () => {
      if (!abort.signal.aborted) abort.abort(new RpcError("canceled", "the client reset the stream"));
    };
    // "aborted" comes first when the client resets a stream we are still answering (node then ends the readable side
    // as if the request were complete, so the body alone cannot tell a reset from an end).
    stream.once("aborted", reset);
    stream.once("close", () => {
      open--;
      // A stream that closes before the answer finished was reset or lost: the handler is told.
      if (!stream.writableFinished || stream.rstCode !== constants.NGHTTP2_NO_ERROR) reset();
    });
    stream.on("error", () => undefined);
    const authority = String(raw[":authority"] ?? raw.host ?? `${host}:0`);
    const path = String(raw[":path"] ?? "/");
    if (path.charCodeAt(0) !== 47) {
      stream.respond({ ":status": 400 }, { endStream: true });
      return;
    }
    const request = new Http2Request(stream, raw, `${scheme}://${authority}${path}`, abort);
    const failed = (error: unknown) => {
      if (abort.signal.aborted || stream.destroyed) return;
      options.onError?.(error);
      if (!stream.headersSent) stream.respond({ ":status": 500, "content-type": "text/plain; charset=utf-8" }, { endStream: false });
      stream.end("internal error\n");
    };
    handler(request as unknown as Request).then((response) => writeResponse(stream, response)).catch(failed);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      const port = (server.address() as AddressInfo).port;
      const urlHost = host.includes(":") ? `[${host}]` : host;
      resolve({
        server,
        host,
        port,
        url: `${scheme}://${urlHost}:${port}`,
        openStreams: () => open,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            for (const session of sessions) session.destroy();
          }),
      });
    });
  });
}
