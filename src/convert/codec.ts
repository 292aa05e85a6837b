/** One wire form of a payload: bytes in, the generated value out, and back. */
export interface Codec {
  decode(input: Uint8Array): unknown;
  encode(value: unknown): Uint8Array;
}

export function utf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw Object.assign(new Error("the input is not UTF-8 text"), { name: "TextDecodeError" });
  }
}

export function text(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}
