/**
 * Reading a request body under a size limit. The limit is checked against Content-Length before reading and again
 * while streaming (a client may lie or send chunked data), so an oversized body is never buffered whole.
 */
export type RestBodyRead =
  | { readonly kind: "ok"; readonly text: string }
  | { readonly kind: "too-large" }
  | { readonly kind: "bad-encoding" };

export async function restReadBody(request: Request, maxBytes: number): Promise<RestBodyRead> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) return { kind: "too-large" };
  if (request.body === null) return { kind: "ok", text: "" };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return { kind: "too-large" };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
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
