/**
 * Base64 for gRPC-Web text bodies, which arrive in chunks of any size and may hold several padded segments one after
 * another (each sender chunk is encoded on its own). Decoding works on whole 4-character groups and keeps the rest.
 */
import type { ChunkSource } from "./envelope.js";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const VALUE = /* @__PURE__ */ (() => {
  const table = new Int16Array(128).fill(-1);
  for (let i = 0; i < 64; i++) table[ALPHABET.charCodeAt(i)] = i;
  table[45] = 62; // "-" (URL-safe)
  table[95] = 63; // "_"
  return table;
})();

/** Padded base64 of bytes (one segment): the standard encoding, shared with the JSON codecs. */
export { jsonBase64Encode as base64Padded } from "../json/base64.js";

/** Decode the whole 4-character groups of `text` (padding allowed in any group); returns bytes and the leftover. */
export function decodeBase64Groups(text: string): { bytes: Uint8Array; rest: string } {
  const clean = text.replace(/[\s]/g, "");
  const whole = clean.length - (clean.length % 4);
  const out = new Uint8Array((whole / 4) * 3);
  let o = 0;
  for (let i = 0; i < whole; i += 4) {
    let n = 0;
    let pad = 0;
    for (let k = 0; k < 4; k++) {
      const c = clean.charCodeAt(i + k);
      if (c === 61) {
        pad++;
        n <<= 6;
        continue;
      }
      const v = c < 128 ? VALUE[c]! : -1;
      if (v < 0 || pad > 0) throw new TypeError("invalid base64 in gRPC-Web text body");
      n = (n << 6) | v;
    }
    if (pad > 2) throw new TypeError("invalid base64 padding in gRPC-Web text body");
    out[o++] = n >> 16;
    if (pad < 2) out[o++] = (n >> 8) & 0xff;
    if (pad < 1) out[o++] = n & 0xff;
  }
  return { bytes: out.subarray(0, o), rest: clean.slice(whole) };
}

/** A chunk source of base64 text as a source of the bytes it encodes. */
export function base64Source(source: ChunkSource): ChunkSource {
  const decoder = new TextDecoder();
  let rest = "";
  return {
    read: async () => {
      for (;;) {
        const chunk = await source.read();
        if (chunk === undefined) {
          if (rest.length > 0) throw new TypeError("gRPC-Web text body ends inside a base64 group");
          return undefined;
        }
        const decoded = decodeBase64Groups(rest + decoder.decode(chunk, { stream: true }));
        rest = decoded.rest;
        if (decoded.bytes.byteLength > 0) return decoded.bytes;
      }
    },
    cancel: (reason) => source.cancel(reason),
  };
}
