import { negotiateMediaType } from "../accept.js";
import type { HttpHandler } from "../handler.js";
import { bodyOf, writeJsonMessage, type MessageWriter } from "../message-codec.js";
import { FEED_MEDIA_TYPES, isJsonMediaType } from "./media.js";

export interface FeedServerOptions {
  /** Called with errors thrown by `getPage` or the encoder; the client only sees "500 internal error". */
  readonly onError?: (error: unknown, request: Request) => void;
}

function textResponse(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(`${text}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers } });
}

/**
 * A web-standard handler serving feed pages: GET/HEAD only (405), protobuf binary or JSON by the Accept header (406
 * when neither is acceptable; binary when Accept is absent), 404 when `getPage` has no page for the request, 500
 * without details when it throws.
 */
export function serveFeedPages<P>(
  getPage: (request: Request) => Promise<P | undefined>,
  writer: MessageWriter<P>,
  options: FeedServerOptions = {},
): HttpHandler {
  return async (request) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      return textResponse(405, "method not allowed", { allow: "GET, HEAD" });
    }
    const mediaType = negotiateMediaType(request.headers.get("accept"), FEED_MEDIA_TYPES);
    if (mediaType === undefined) return textResponse(406, `not acceptable; available: ${FEED_MEDIA_TYPES.join(", ")}`);
    let body: Uint8Array;
    try {
      const page = await getPage(request);
      if (page === undefined) return textResponse(404, "no such page", { vary: "Accept" });
      body = isJsonMediaType(mediaType) ? writeJsonMessage(writer, page) : writer.encode(page);
    } catch (error) {
      options.onError?.(error, request);
      return textResponse(500, "internal error");
    }
    return new Response(request.method === "HEAD" ? null : bodyOf(body), {
      status: 200,
      headers: { "content-type": mediaType, "content-length": String(body.byteLength), vary: "Accept" },
    });
  };
}
