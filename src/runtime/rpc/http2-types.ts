/**
 * The few node:http2 client types the HTTP/2 transport uses, written out structurally: the transport is exported from
 * the runtime index, which browser projects compile without @types/node, so it must not name "node:http2" in its
 * types (node:http2 itself is only loaded at run time, by the transport).
 */

export type IncomingHttpHeaders = Record<string, string | string[] | undefined>;
export type IncomingHttpStatusHeader = { readonly ":status"?: number };
export type OutgoingHttpHeaders = Record<string, string | string[] | number | undefined>;

type Listener = (...args: any[]) => void;

export interface ClientHttp2Stream extends AsyncIterable<Uint8Array> {
  readonly closed: boolean;
  readonly destroyed: boolean;
  readonly rstCode: number | undefined;
  write(chunk: Uint8Array): boolean;
  end(chunk?: Uint8Array): void;
  close(code?: number): void;
  destroy(error?: Error): void;
  on(event: string, listener: Listener): this;
  once(event: "response", listener: (headers: IncomingHttpHeaders & IncomingHttpStatusHeader) => void): this;
  once(event: "trailers", listener: (headers: IncomingHttpHeaders) => void): this;
  once(event: string, listener: Listener): this;
  off(event: string, listener: Listener): this;
}

export interface ClientHttp2Session {
  readonly closed: boolean;
  readonly destroyed: boolean;
  request(headers: OutgoingHttpHeaders, options?: { readonly signal?: AbortSignal }): ClientHttp2Stream;
  on(event: string, listener: Listener): this;
  ref(): void;
  unref(): void;
  close(): void;
  /** Node 15.3+: the connection's flow-control window. */
  setLocalWindowSize?(size: number): void;
  once?(event: string, listener: Listener): this;
}

export interface Http2Module {
  connect(authority: string, options: object): ClientHttp2Session;
}
