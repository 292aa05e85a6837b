import { XmlValueTypeError } from "./value-type-error.js";
import { xopSinkMarker } from "./xop.js";

/** base64Binary and hexBinary without Node's Buffer (the runtime runs in browsers and workers too). */

const BEFORE_ELEMENT = { inElement: false } as const;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const DECODE = /* @__PURE__ */ (() => {
  const table = new Int16Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) table[ALPHABET.charCodeAt(i)] = i;
  return table;
})();

export function encodeBase64(bytes: Uint8Array): string {
  // A string here (from a cast or JSON) would otherwise index to undefined and encode zeros without a word.
  if (!(bytes instanceof Uint8Array)) throw new XmlValueTypeError("Uint8Array", bytes, BEFORE_ELEMENT);
  // Writing an MTOM message: large values go as attachments (xop.ts).
  const marker = xopSinkMarker(bytes);
  if (marker !== undefined) return marker;
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += `${ALPHABET[n >> 18]!}${ALPHABET[(n >> 12) & 63]!}==`;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += `${ALPHABET[n >> 18]!}${ALPHABET[(n >> 12) & 63]!}${ALPHABET[(n >> 6) & 63]!}=`;
  }
  return out;
}

/** Decode base64Binary (whitespace allowed anywhere, as XSD's lexical space allows); undefined when malformed. */
export function decodeBase64(text: string): Uint8Array | undefined {
  const clean = /[\s]/.test(text) ? text.replace(/[ \t\n\r]+/g, "") : text;
  if (clean.length % 4 !== 0) return undefined;
  let pad = 0;
  if (clean.endsWith("==")) pad = 2;
  else if (clean.endsWith("=")) pad = 1;
  const out = new Uint8Array((clean.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < clean.length; i += 4) {
    const last = i + 4 === clean.length;
    const a = sextet(clean, i);
    const b = sextet(clean, i + 1);
    const c = last && pad === 2 ? 0 : sextet(clean, i + 2);
    const d = last && pad >= 1 ? 0 : sextet(clean, i + 3);
    if (a < 0 || b < 0 || c < 0 || d < 0) return undefined;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >> 16;
    if (o < out.length) out[o++] = (n >> 8) & 255;
    if (o < out.length) out[o++] = n & 255;
  }
  return out;
}

function sextet(s: string, i: number): number {
  const c = s.charCodeAt(i);
  return c < 128 ? DECODE[c]! : -1;
}

export function encodeHex(bytes: Uint8Array): string {
  if (!(bytes instanceof Uint8Array)) throw new XmlValueTypeError("Uint8Array", bytes, BEFORE_ELEMENT);
  // Writing an MTOM message: large values go as attachments (xop.ts).
  const marker = xopSinkMarker(bytes);
  if (marker !== undefined) return marker;
  let out = "";
  for (let i = 0; i < bytes.length; i++) out += (bytes[i]! < 16 ? "0" : "") + bytes[i]!.toString(16).toUpperCase();
  return out;
}

export function decodeHex(text: string): Uint8Array | undefined {
  const clean = text.trim();
  if (clean.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(clean)) return undefined;
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return out;
}
