/**
 * Message compression: identity and gzip, through the web-standard CompressionStream (Node 18+, browsers, Deno), so
 * the runtime stays free of node:zlib. Decompression is bounded: a small gzip bomb stops at the message limit.
 */
import { RpcError } from "../connect/error.js";
import { concatBytes } from "../http/concat-bytes.js";

export type RpcCompression = "identity" | "gzip";

/** What we accept, for grpc-accept-encoding / connect-accept-encoding / accept-encoding. */
export const ACCEPTED_ENCODINGS = "gzip";

/** The one encoding we send with a header's value, or undefined when we cannot read it. */
export function compressionOf(value: string | null): RpcCompression | undefined {
  if (value === null) return "identity";
  const v = value.trim().toLowerCase();
  return v === "identity" || v === "" ? "identity" : v === "gzip" ? "gzip" : undefined;
}

/** Whether the peer's accept list ("gzip, identity") includes gzip. */
export function acceptsGzip(value: string | null): boolean {
  return value !== null && value.split(",").some((v) => v.trim().toLowerCase() === "gzip");
}

export async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Gunzip at most `limit` bytes of output; more is `resource_exhausted`, bad data `invalid_argument`. */
export async function gunzip(bytes: Uint8Array, limit: number): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream("gzip"));
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => undefined);
        throw new RpcError("resource_exhausted", `decompressed message is larger than the limit of ${limit} bytes`);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof RpcError) throw error;
    throw new RpcError("invalid_argument", "cannot decompress message (gzip)", { cause: error });
  }
  return concatBytes(chunks, total);
}
