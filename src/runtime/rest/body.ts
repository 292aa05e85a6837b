import { BodyTooLargeError, readBodyWithLimit } from "../http/body-limit.js";

/**
 * Reading a request body under a size limit. The limit is checked against Content-Length before reading and again
 * while streaming (a client may lie or send chunked data), so an oversized body is never buffered whole.
 */
export type RestBodyRead =
  | { readonly kind: "ok"; readonly text: string }
  | { readonly kind: "too-large" }
  | { readonly kind: "bad-encoding" };

export async function restReadBody(request: Request, maxBytes: number): Promise<RestBodyRead> {
  let bytes: Uint8Array;
  try {
    bytes = await readBodyWithLimit(request, maxBytes);
  } catch (e) {
    if (e instanceof BodyTooLargeError) return { kind: "too-large" };
    throw e;
  }
  try {
    return { kind: "ok", text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return { kind: "bad-encoding" };
  }
}

/** The media type of a Content-Type header without parameters, lower-cased ("" when absent). */
export function restMediaType(contentType: string | null): string {
  if (contentType === null) return "";
  const semicolon = contentType.indexOf(";");
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}
