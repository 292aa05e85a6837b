/**
 * A raw HTTP/2 client for requests no well-behaved RPC library sends: truncated or bogus envelopes, wrong content
 * types, unknown methods, a stream reset after the first answer. Byte-level, so the status a server gives to each
 * is checked as it is on the wire (HTTP status, headers, trailers).
 */
import http2 from "node:http2";

export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly trailers: Record<string, string>;
  readonly body: Buffer;
  /** grpc-status from the trailers, or from the headers of a trailers-only answer; undefined when absent. */
  readonly grpcStatus: number | undefined;
  readonly grpcMessage: string | undefined;
}

export interface RawRequest {
  readonly path: string;
  readonly headers?: Record<string, string>;
  /** Request body chunks; the stream ends after the last (unless `keepOpen`). */
  readonly body?: readonly Uint8Array[];
  readonly keepOpen?: boolean;
}

function plain(headers: http2.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : String(v);
  return out;
}

/** One gRPC-style envelope: flags byte, big-endian length, then the bytes (the length can lie, for tests). */
export function envelope(bytes: Uint8Array, flags = 0, claimedLength = bytes.length): Uint8Array {
  const out = new Uint8Array(5 + bytes.length);
  out[0] = flags;
  new DataView(out.buffer).setUint32(1, claimedLength);
  out.set(bytes, 5);
  return out;
}

/** A session to `url` (h2c); close it when done. */
export function rawSession(url: string): http2.ClientHttp2Session {
  const session = http2.connect(url);
  session.on("error", () => undefined); // a reset connection ends the requests on it; they report it
  return session;
}

/** Send one request on `session` and read the whole answer. */
export function rawRequest(session: http2.ClientHttp2Session, request: RawRequest): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const stream = session.request({
      ":method": "POST",
      ":path": request.path,
      "content-type": "application/grpc",
      te: "trailers",
      ...request.headers,
    });
    let status = 0;
    let headers: Record<string, string> = {};
    let trailers: Record<string, string> = {};
    const chunks: Buffer[] = [];
    stream.on("response", (h) => {
      status = Number(h[":status"]);
      headers = plain(h);
    });
    stream.on("trailers", (t) => (trailers = plain(t)));
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("error", reject);
    // Done when the answer has ended ("end"), or the stream closed without one: a server may answer before the
    // request ended (and then reset the request side).
    const done = () => {
      const grpcStatus = trailers["grpc-status"] ?? headers["grpc-status"];
      const grpcMessage = trailers["grpc-message"] ?? headers["grpc-message"];
      resolve({
        status, headers, trailers, body: Buffer.concat(chunks),
        grpcStatus: grpcStatus === undefined ? undefined : Number(grpcStatus),
        grpcMessage: grpcMessage === undefined ? undefined : decodeURIComponent(grpcMessage),
      });
    };
    stream.on("end", done);
    stream.on("close", done);
    for (const chunk of request.body ?? []) stream.write(chunk);
    if (!request.keepOpen) stream.end();
  });
}

/**
 * Start a streaming call and, once the first answer bytes arrive, reset the stream (RST_STREAM CANCEL) or close
 * the whole connection. Resolves with the number of bytes that arrived (0 if the call ended before any did).
 */
export function cutStream(url: string, request: RawRequest, how: "reset" | "close-session"): Promise<number> {
  const session = rawSession(url);
  return new Promise((resolve) => {
    const stream = session.request({ ":method": "POST", ":path": request.path, "content-type": "application/grpc", te: "trailers", ...request.headers });
    let received = 0;
    stream.on("error", () => undefined);
    stream.on("data", (chunk: Buffer) => {
      if (received > 0) return;
      received = chunk.length;
      if (how === "reset") stream.close(http2.constants.NGHTTP2_CANCEL);
      else session.destroy();
      resolve(received);
    });
    stream.on("close", () => {
      if (!session.destroyed) session.close();
      resolve(received);
    });
    for (const chunk of request.body ?? []) stream.write(chunk);
    stream.end();
  });
}
