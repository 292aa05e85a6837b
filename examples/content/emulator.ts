import { serveResponses, type Entry } from "../../generated/content/index.js";
import { withCors, type CorsOptions } from "../../src/runtime/http/cors.js";
import type { HttpHandler } from "../../src/runtime/http/handler.js";
import { serveNode, type NodeServerHandle } from "../../src/runtime/http/node.js";
import { DEFAULT_DATA_DIR, loadEntries, responseFiles } from "./entries.js";
import { requestedPage, responsePage } from "./pages.js";

export interface EmulatorOptions {
  readonly port?: number;
  readonly host?: string;
  /** Directory of protobuf Response files (default: the spinn3r payloads of the shared corpus). */
  readonly dataDir?: string;
  /** Entries per page (default 10). */
  readonly pageSize?: number;
  /** CORS for pages in a browser (default CONTENT_CORS: localhost origins); false leaves CORS out. */
  readonly cors?: CorsOptions | false;
}

/**
 * CORS of the emulator: the feed client sends only Accept (safelisted) and reads only Content-Type, so the runtime's
 * defaults suffice.
 */
export const CONTENT_CORS: CorsOptions = {};

export interface RunningEmulator extends NodeServerHandle {
  /** The entries served, in order, across all pages. */
  readonly entries: readonly Entry[];
  readonly pageSize: number;
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

/** Load the data directory and serve it; resolves when the server is listening. */
export async function startContentEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) throw new RangeError(`page size must be a positive integer, got ${pageSize}`);
  const entries = loadEntries(responseFiles(options.dataDir ?? DEFAULT_DATA_DIR));
  const handler = contentFeedHandler(entries, pageSize);
  const cors = options.cors ?? CONTENT_CORS;
  const server = await serveNode(cors === false ? handler : withCors(handler, cors), {
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.host === undefined ? {} : { host: options.host }),
    onError: (error) => console.error("content emulator:", error),
  });
  return { ...server, entries, pageSize };
}
