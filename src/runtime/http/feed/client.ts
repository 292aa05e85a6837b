import { callSignal } from "../deadline.js";
import type { FetchFunction } from "../handler.js";
import { mediaTypeEssence } from "../media-type.js";
import { readJsonMessage, type MessageReader } from "../message-codec.js";
import { HttpStatusError, HttpTimeoutError } from "../status-error.js";
import { FeedPageError } from "./errors.js";
import { isJsonMediaType, isProtobufMediaType, JSON_MEDIA_TYPE, PROTOBUF_MEDIA_TYPE } from "./media.js";

export type FeedFormat = "binary" | "json";

export interface FeedClientOptions {
  /** The fetch to use (default: the global one). */
  readonly fetch?: FetchFunction;
  /** Ask for protobuf binary (default) or ProtoJSON. */
  readonly format?: FeedFormat;
  readonly signal?: AbortSignal;
  /** Per request: a page that takes longer fails with HttpTimeoutError. */
  readonly timeoutMs?: number;
  readonly headers?: HeadersInit;
}

/**
 * GET one page and decode it. The body is read in the format the response's Content-Type names when it is one of
 * ours (a server may ignore Accept), else in the format asked for.
 * Throws HttpStatusError (non-2xx), HttpTimeoutError, FeedPageError (undecodable body) or the caller's abort reason.
 */
export async function fetchFeedPage<P>(url: string | URL, reader: MessageReader<P>, options: FeedClientOptions = {}): Promise<P> {
  const target = String(url);
  const format = options.format ?? "binary";
  const headers = new Headers(options.headers);
  headers.set("accept", format === "json" ? JSON_MEDIA_TYPE : PROTOBUF_MEDIA_TYPE);
  const call = callSignal(options.signal, options.timeoutMs);
  const doFetch = options.fetch ?? globalThis.fetch;
  let bytes: Uint8Array;
  let essence: string;
  try {
    const response = await doFetch(target, { method: "GET", headers, ...(call.signal ? { signal: call.signal } : {}) });
    if (!response.ok) throw await HttpStatusError.fromResponse(target, response);
    essence = mediaTypeEssence(response.headers.get("content-type"));
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    if (call.timedOut()) throw new HttpTimeoutError(target, options.timeoutMs!);
    throw error;
  }
  const json = isJsonMediaType(essence) || (!isProtobufMediaType(essence) && format === "json");
  try {
    return json ? readJsonMessage(reader, bytes) : reader.decode(bytes);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new FeedPageError(target, `invalid ${json ? "JSON" : "protobuf"} page: ${reason}`, { cause: error });
  }
}
