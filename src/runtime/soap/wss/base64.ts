import { decodeBase64, encodeBase64 } from "../../xml/base64.js";

export const bytesToBase64 = (bytes: Uint8Array): string => encodeBase64(bytes);

/** Decode base64 (whitespace allowed); throws TypeError when malformed. */
export function base64ToBytes(text: string): Uint8Array {
  const bytes = decodeBase64(text);
  if (bytes === undefined) throw new TypeError("malformed base64");
  return bytes;
}
