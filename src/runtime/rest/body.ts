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
  const read = await restReadBodyBytes(request, maxBytes);
  if (read.kind === "too-large") return read;
  return restBodyText(read.bytes);
}

/** The body's bytes under the limit (multipart bodies are binary; everything else is then decoded as UTF-8). */
export async function restReadBodyBytes(
  request: Request,
  maxBytes: number,
): Promise<{ readonly kind: "ok"; readonly bytes: Uint8Array } | { readonly kind: "too-large" }> {
  try {
    return { kind: "ok", bytes: await readBodyWithLimit(request, maxBytes) };
  } catch (e) {
    if (e instanceof BodyTooLargeError) return { kind: "too-large" };
    throw e;
  }
}

/** Strict UTF-8 decoding of a body read as bytes. */
export function restBodyText(bytes: Uint8Array): Exclude<RestBodyRead, { readonly kind: "too-large" }> {
  try {
    return { kind: "ok", text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return { kind: "bad-encoding" };
  }
}

/**
 * A multipart/form-data body parsed by the platform's own parser (undici's in Node), from bytes already read
 * under the size limit. Undefined when the body is not valid multipart (e.g. no boundary).
 */
export async function restMultipartForm(bytes: Uint8Array, contentType: string): Promise<FormData | undefined> {
  try {
    return await new Response(new Uint8Array(bytes), { headers: { "content-type": contentType } }).formData();
  } catch {
    return undefined;
  }
}

/** The media type of a Content-Type header without parameters, lower-cased ("" when absent). */
export function restMediaType(contentType: string | null): string {
  if (contentType === null) return "";
  const semicolon = contentType.indexOf(";");
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}
