import { serveResponses, type Entry } from "../../generated/content/index.js";
import { DEFAULT_CORS_ALLOW_HEADERS, withCors, type CorsOptions } from "../../src/runtime/http/cors.js";
import type { HttpHandler } from "../../src/runtime/http/handler.js";
import { serveNode, serveNodeHttp2, type NodeServerHandle } from "../../src/runtime/http/node.js";
import { DEFAULT_DATA_DIR, loadEntries, responseFiles } from "./entries.js";
import { requestedPage, responsePage } from "./pages.js";
import { CONTENT_FEED_SERVICE_PREFIX, contentStreamHandler } from "./stream.js";

export interface EmulatorOptions {
  readonly port?: number;
  readonly host?: string;
  /** Directory of protobuf Response files (default: the spinn3r payloads of the shared corpus). */
  readonly dataDir?: string;
  /** Entries per page (default 10). */
  readonly pageSize?: number;
  /** CORS for pages in a browser (default CONTENT_CORS: localhost origins); false leaves CORS out. */
  readonly cors?: CorsOptions | false;
  /**
   * Port of the HTTP/2 (h2c) listener that gRPC needs (0: any free one); undefined: none. It serves the same
   * handler as the HTTP/1.1 port, so Connect and gRPC-Web work there too.
   */
  readonly grpcPort?: number;
  /** Milliseconds between two entries of a ContentFeed stream (default 0; see stream.ts). */
  readonly streamIntervalMs?: number;
}

/**
 * CORS of the emulator: the runtime's defaults cover the feed client (Accept only) and the RPC clients in a page
 * (the generated one, connect-es, grpc-web: x-grpc-web, grpc-timeout, the accepted encodings). They read statuses
 * from the body (the gRPC-Web trailer message, the Connect error JSON or end-of-stream message), so nothing needs
 * exposing.
 */
export const CONTENT_CORS: CorsOptions = { allowHeaders: DEFAULT_CORS_ALLOW_HEADERS };

export interface RunningEmulator extends NodeServerHandle {
  /** The entries served, in order, across all pages. */
  readonly entries: readonly Entry[];
  readonly pageSize: number;
  /** http://host:port of the HTTP/2 listener (gRPC, and Connect / gRPC-Web over HTTP/2), when grpcPort was given. */
  readonly grpcUrl?: string;
  /** HTTP/2 streams in flight on the gRPC listener (0 without one): what a leak check watches. */
  readonly openGrpcStreams: () => number;
}

export const DEFAULT_PAGE_SIZE = 10;

/** The emulator's handler: the generated feed server over pages cut from `entries`. */
export function contentFeedHandler(entries: readonly Entry[], pageSize: number): HttpHandler {
  return serveResponses(async (request) => {
    const url = new URL(request.url);
    const page = requestedPage(url);
    return page === undefined ? undefined : responsePage(entries, pageSize, page, url.origin);
  });
}

/** The paged feed (GET /feed) and the ContentFeed service (POST /contentApi.ContentFeed/...) on one handler. */
export function contentEmulatorHandler(entries: readonly Entry[], pageSize: number, streamIntervalMs = 0): HttpHandler {
  const feed = contentFeedHandler(entries, pageSize);
  const stream = contentStreamHandler(entries, { intervalMs: streamIntervalMs });
  return (request) => (new URL(request.url).pathname.startsWith(CONTENT_FEED_SERVICE_PREFIX) ? stream(request) : feed(request));
}

/** Load the data directory and serve it; resolves when the server is listening. */
export async function startContentEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) throw new RangeError(`page size must be a positive integer, got ${pageSize}`);
  const entries = loadEntries(responseFiles(options.dataDir ?? DEFAULT_DATA_DIR));
  const handler = contentEmulatorHandler(entries, pageSize, options.streamIntervalMs ?? 0);
  const cors = options.cors ?? CONTENT_CORS;
  const served = cors === false ? handler : withCors(handler, cors);
  const onError = (error: unknown) => console.error("content emulator:", error);
  const host = options.host === undefined ? {} : { host: options.host };
  const server = await serveNode(served, { ...(options.port === undefined ? {} : { port: options.port }), ...host, onError });
  if (options.grpcPort === undefined) return { ...server, entries, pageSize, openGrpcStreams: () => 0 };
  // gRPC needs HTTP/2 with trailers, which node:http cannot speak: a second listener, the same handler.
  const grpc = await serveNodeHttp2(served, { port: options.grpcPort, ...host, onError }).catch(async (error: unknown) => {
    await server.close();
    throw error;
  });
  return {
    ...server,
    entries,
    pageSize,
    grpcUrl: grpc.url,
    openGrpcStreams: () => grpc.openStreams(),
    close: async () => {
      await Promise.all([server.close(), grpc.close()]);
    },
  };
}
