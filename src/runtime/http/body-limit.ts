import { concatBytes } from "./concat-bytes.js";

/** A request body was larger than the handler allows. Servers answer 413 (or their protocol's equivalent). */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body exceeds ${limit} bytes`);
    this.name = "BodyTooLargeError";
  }
}

/** Default request body limit of generated servers: 4 MiB, like most RPC frameworks. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Read a request body into memory, refusing to buffer more than `limit` bytes. A declared Content-Length over the
 * limit fails before reading anything; otherwise the stream is counted as it arrives and cancelled as soon as it
 * passes the limit, so a client cannot make the server hold an unbounded body.
 */
export async function readBodyWithLimit(request: Request, limit: number = DEFAULT_MAX_BODY_BYTES): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError(limit);
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(limit);
    }
    chunks.push(value);
  }
  return concatBytes(chunks, total);
}
