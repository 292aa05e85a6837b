/**
 * The HTTP/2 client transport (Node): one session per transport, opened on first use and reopened after it closes,
 * h2c for http:// base URLs and TLS for https://. node:http2 is loaded with a computed specifier so that bundlers
 * of browser code that imports the runtime never try to resolve it.
 */
import type { ClientHttp2Session, ClientHttp2Stream, Http2Module, IncomingHttpHeaders, IncomingHttpStatusHeader, OutgoingHttpHeaders } from "./http2-types.js";
import { iterableSource } from "./envelope.js";
import type { RpcTransport, RpcTransportResponse } from "./transport.js";

export interface Http2TlsOptions {
  readonly ca?: string | Uint8Array | readonly (string | Uint8Array)[];
  readonly cert?: string | Uint8Array;
  readonly key?: string | Uint8Array;
  readonly rejectUnauthorized?: boolean;
  /** Server name to verify (default: the URL's host). */
  readonly servername?: string;
}


/** Flow-control windows the client grants the server (bytes). */
const CLIENT_STREAM_WINDOW = 1 << 20;
const CLIENT_CONNECTION_WINDOW = 16 << 20;

let http2Module: Promise<Http2Module> | undefined;
function loadHttp2(): Promise<Http2Module> {
  const specifier = "node:http2";
  return (http2Module ??= import(/* @vite-ignore */ specifier) as Promise<Http2Module>);
}

/** Pseudo-headers and connection-specific headers (RFC 9113 §8.2.2) never go into a request's header block. */
const FORBIDDEN = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "host", "content-length"]);

function headersOf(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const name in raw) {
    if (name.charCodeAt(0) === 58) continue;
    const value = raw[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.append(name, String(value));
  }
  return headers;
}

export function http2Transport(baseUrl: string, tls: Http2TlsOptions = {}): RpcTransport {
  const origin = new URL(baseUrl).origin;
  let session: ClientHttp2Session | undefined;
  let active = 0;

  async function connect(): Promise<ClientHttp2Session> {
    if (session !== undefined && !session.closed && !session.destroyed) return session;
    const http2 = await loadHttp2();
    if (session !== undefined && !session.closed && !session.destroyed) return session;
    // noDelay: small request/answer exchanges; Nagle's algorithm would hold the last frames of one back.
    // Flow-control windows for many concurrent streams (Node's default, 64 KiB, makes them wait for WINDOW_UPDATEs):
    // 1 MiB a stream, 16 MiB for the connection (as the server side, serveNodeHttp2).
    const settings = { initialWindowSize: CLIENT_STREAM_WINDOW };
    const opened = http2.connect(origin, (origin.startsWith("https:") ? { ...tls, noDelay: true, settings } : { noDelay: true, settings }) as never);
    opened.on("error", () => undefined); // the streams in flight report it
    opened.on("connect", () => {
      try {
        opened.setLocalWindowSize?.(CLIENT_CONNECTION_WINDOW);
      } catch {
        // the session is already going: the default window stays
      }
    });
    opened.on("close", () => {
      if (session === opened) session = undefined;
    });
    opened.on("goaway", () => {
      if (session === opened) session = undefined;
    });
    opened.unref(); // an idle client does not keep the process alive; calls in flight ref it
    session = opened;
    return opened;
  }

  function started(s: ClientHttp2Session): void {
    if (active++ === 0) s.ref();
  }
  function ended(s: ClientHttp2Session): void {
    if (--active === 0 && !s.destroyed) s.unref();
  }

  async function pump(stream: ClientHttp2Stream, body: AsyncIterable<Uint8Array>): Promise<void> {
    try {
      for await (const chunk of body) {
        if (stream.destroyed || stream.closed) return;
        if (!stream.write(chunk)) {
          await new Promise<void>((resolve) => {
            const done = () => {
              stream.off("drain", done);
              stream.off("close", done);
              resolve();
            };
            stream.on("drain", done);
            stream.on("close", done);
          });
        }
      }
      if (!stream.destroyed) stream.end();
    } catch (error) {
      stream.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  }

  return {
    fullDuplex: true,
    close() {
      session?.close();
      session = undefined;
    },
    async request(request) {
      const s = await connect();
      const url = new URL(request.url);
      const outgoing: OutgoingHttpHeaders = { ":method": "POST", ":path": url.pathname + url.search };
      request.headers.forEach((value, name) => {
        if (!FORBIDDEN.has(name)) outgoing[name] = value;
      });
      request.signal?.throwIfAborted();
      const stream = s.request(outgoing, request.signal ? { signal: request.signal } : {});
      started(s);
      stream.once("close", () => ended(s));
      let trailers: Headers | undefined;
      stream.once("trailers", (raw: IncomingHttpHeaders) => {
        trailers = headersOf(raw);
      });
      if (request.body instanceof Uint8Array) stream.end(request.body);
      else void pump(stream, request.body);
      const head = await new Promise<IncomingHttpHeaders & IncomingHttpStatusHeader>((resolve, reject) => {
        // Named listeners, all removed once one fires: "close" follows every stream, and building its error (a stack
        // trace) for streams that answered would cost more than the rest of a small call.
        const onResponse = (h: IncomingHttpHeaders & IncomingHttpStatusHeader) => {
          done();
          resolve(h);
        };
        const onError = (error: unknown) => {
          done();
          reject(error instanceof Error ? error : new Error(String(error)));
        };
        const onClose = () => {
          done();
          reject(new Error(`stream closed before the response (code ${stream.rstCode})`));
        };
        const done = () => {
          stream.off("response", onResponse);
          stream.off("error", onError);
          stream.off("close", onClose);
        };
        stream.on("response", onResponse);
        stream.on("error", onError);
        stream.on("close", onClose);
      });
      stream.on("error", () => undefined); // read errors surface through the body iterator
      const response: RpcTransportResponse = {
        status: Number(head[":status"] ?? 0),
        headers: headersOf(head),
        body: iterableSource(stream as AsyncIterable<Uint8Array>, () => {
          if (!stream.closed) stream.close(0x8); // NGHTTP2_CANCEL
        }),
        trailers: () => trailers,
      };
      return response;
    },
  };
}
