/**
 * Base64 for ProtoJSON bytes: written in the standard alphabet with padding; read in either the standard or the
 * URL-safe alphabet, padded or not (the proto3 JSON mapping accepts both). Built on the web-standard btoa/atob
 * (Node, browsers, Deno, Bun), which are native and many times faster than a JavaScript loop on large payloads.
 * Not exported from the runtime index: generated code uses bytesToJson / bytesFromJson.
 */

/** btoa takes a "binary string"; converting in chunks keeps fromCharCode's argument list short. */
const CHUNK = 8192;

export function base64Encode(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]);
  }
  return btoa(binary);
}

/** Both alphabets, then at most two "=". atob itself would also skip whitespace, which base64 in JSON may not have. */
const BASE64_TEXT = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** The bytes, or undefined when the text is not base64 (a bad character, a lone trailing character, bad padding). */
export function base64Decode(text: string): Uint8Array | undefined {
  if (!BASE64_TEXT.test(text)) return undefined;
  const padded = text.endsWith("=");
  if (padded && text.length % 4 !== 0) return undefined;
  let standard = text.replace(/-/g, "+").replace(/_/g, "/");
  if (!padded) standard += "===".slice(0, (4 - (standard.length % 4)) % 4);
  let binary: string;
  try {
    binary = atob(standard);
  } catch {
    return undefined;
  }
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
