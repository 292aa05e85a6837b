/** Connect streaming's end-of-stream message: `{"error"?: {...}, "metadata"?: {name: [values]}}` as JSON. */
import { connectErrorFromJson, connectErrorToJson } from "../connect/error-json.js";
import { RpcError } from "../connect/error.js";

export function encodeEndStream(error: RpcError | undefined, trailers: Headers | undefined): Uint8Array {
  const json: Record<string, unknown> = {};
  if (error !== undefined) json.error = connectErrorToJson(error);
  const metadata: Record<string, string[]> = {};
  let any = false;
  const add = (value: string, name: string) => {
    (metadata[name] ??= []).push(value);
    any = true;
  };
  trailers?.forEach(add);
  error?.metadata.forEach(add);
  if (any) json.metadata = metadata;
  return new TextEncoder().encode(JSON.stringify(json));
}

/** The error (if any) and trailers an end-of-stream message carries; a malformed one is an `internal` error. */
export function decodeEndStream(bytes: Uint8Array, headers: Headers): { error: RpcError | undefined; trailers: Headers } {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return { error: new RpcError("internal", "protocol error: end-of-stream message is not JSON"), trailers: new Headers() };
  }
  const trailers = new Headers();
  const { error, metadata } = (typeof json === "object" && json !== null ? json : {}) as Record<string, unknown>;
  if (typeof metadata === "object" && metadata !== null) {
    for (const [name, values] of Object.entries(metadata)) {
      if (!Array.isArray(values)) continue;
      for (const v of values) {
        try {
          if (typeof v === "string") trailers.append(name, v);
        } catch {
          // not a valid header: dropped
        }
      }
    }
  }
  if (error === undefined || error === null) return { error: undefined, trailers };
  const metadataOut = new Headers(headers);
  trailers.forEach((v, k) => metadataOut.append(k, v));
  const parsed = connectErrorFromJson(JSON.stringify(error), metadataOut);
  return { error: parsed ?? new RpcError("unknown", "end-of-stream error without a valid code", { metadata: metadataOut }), trailers };
}
