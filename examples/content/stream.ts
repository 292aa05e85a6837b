import { createContentFeedHandler, type ContentFeedImplementation, type StreamedEntry } from "../../generated/content-stream/index.js";
import type { Entry } from "../../generated/content/index.js";
import type { HttpHandler } from "../../src/runtime/http/handler.js";
import { RpcError } from "../../src/runtime/index.js";

/** The path prefix of the ContentFeed service (specs/content-stream.proto): its methods are POST <prefix><Method>. */
export const CONTENT_FEED_SERVICE_PREFIX = "/contentApi.ContentFeed/";

export interface ContentStreamOptions {
  /**
   * Milliseconds between two entries of a stream: the pace at which the emulator "produces" entries, to watch a
   * stream arrive entry by entry (default 0: every entry is ready, and the client's reading sets the pace).
   */
  readonly intervalMs?: number;
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * ContentFeed.StreamEntries over the emulator's entries: one message per entry from `start`, in feed order. An
 * async generator, so each entry is sent when it is produced and the next one is only made once the transport took
 * it (a slow reader holds the stream back instead of filling memory); a client that goes away ends it through the
 * context's signal.
 */
export function contentStreamImplementation(entries: readonly Entry[], options: ContentStreamOptions = {}): ContentFeedImplementation {
  const intervalMs = options.intervalMs ?? 0;
  return {
    async *streamEntries(request, context): AsyncGenerator<StreamedEntry> {
      const start = request.start ?? 0;
      const max = request.maxEntries ?? 0;
      if (start < 0) throw new RpcError("invalid_argument", `start must be 0 or more, got ${start}`);
      if (max < 0) throw new RpcError("invalid_argument", `max_entries must be 0 or more, got ${max}`);
      const end = max === 0 ? entries.length : Math.min(entries.length, start + max);
      for (let position = start; position < end; position++) {
        if (intervalMs > 0) await wait(intervalMs, context.signal);
        yield { position, entry: entries[position]! };
      }
    },
  };
}

/** The generated ContentFeed handler (Connect, gRPC-Web and gRPC) over the emulator's entries. */
export function contentStreamHandler(entries: readonly Entry[], options: ContentStreamOptions = {}): HttpHandler {
  return createContentFeedHandler(contentStreamImplementation(entries, options));
}
