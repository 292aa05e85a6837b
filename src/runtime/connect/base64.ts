/** Standard base64 (RFC 4648 §4) for Connect error details; module-private, kept small and dependency-free. */
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const VALUE_OF = /* @__PURE__ */ (() => new Map([...ALPHABET].map((c, i) => [c, i])))();

/** Encode without padding, as the Connect protocol writes detail values. */
export function base64Encode(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let k = 0; k < chars; k++) out += ALPHABET[(n >> (18 - 6 * k)) & 63];
  }
  return out;
}

/** Decode with or without padding (also the URL-safe alphabet, which some peers use); undefined when invalid. */
export function base64Decode(text: string): Uint8Array | undefined {
  const clean = text.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/");
  if (clean.length % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((clean.length * 6) / 8));
  let bits = 0;
  let buffer = 0;
  let o = 0;
  for (const c of clean) {
    const v = VALUE_OF.get(c);
    if (v === undefined) return undefined;
    buffer = (buffer << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (buffer >> bits) & 0xff;
    }
  }
  return out;
}
