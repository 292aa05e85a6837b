/**
 * How a client's bytes reach a server. The fetch transport runs everywhere (browsers, Deno, Bun, Node) but is
 * half-duplex: a streamed request is sent as one body once it is complete, and bidi streaming is refused. The
 * HTTP/2 transport (transport-http2.ts, Node only) streams both ways and reads HTTP/2 trailers, which gRPC needs.
 */
import type { FetchFunction } from "../http/handler.js";
import { streamSource, type ChunkSource } from "./envelope.js";
import { concatBytes } from "../http/concat-bytes.js";

export interface RpcTransportRequest {
  /** Absolute URL of the procedure. */
  readonly url: string;
  readonly headers: Headers;
  readonly body: Uint8Array | AsyncIterable<Uint8Array>;
  readonly signal: AbortSignal | undefined;
}

export interface RpcTransportResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: ChunkSource;
  /** HTTP trailers, once the body has ended (undefined when the transport cannot read them). */
  trailers(): Headers | undefined;
}

export interface RpcTransport {
  /** Whether requests stream while answers arrive (needed for bidi streaming). */
  readonly fullDuplex: boolean;
  request(request: RpcTransportRequest): Promise<RpcTransportResponse>;
  /** Release connections (HTTP/2 sessions); calls made later reconnect. */
  close?(): void;
}

const EMPTY_SOURCE: ChunkSource = { read: async () => undefined, cancel: () => undefined };

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of chunks) {
    parts.push(chunk);
    total += chunk.byteLength;
  }
  return concatBytes(parts, total);
}

/** A transport over fetch (the global one unless given). */
export function fetchTransport(fetchFunction?: FetchFunction): RpcTransport {
  return {
    fullDuplex: false,
    async request(request) {
      const body = request.body instanceof Uint8Array ? request.body : await collect(request.body);
      const doFetch = fetchFunction ?? globalThis.fetch;
      const response = await doFetch(request.url, {
        method: "POST",
        headers: request.headers,
        body: body as BodyInit,
        ...(request.signal ? { signal: request.signal } : {}),
      });
      return {
        status: response.status,
        headers: response.headers,
        body: response.body === null ? EMPTY_SOURCE : streamSource(response.body),
        trailers: () => undefined,
      };
    },
  };
}
