import { base64Decode, base64Encode } from "./base64.js";
import { describeJson, protoJsonError } from "./errors.js";

export function boolFromJson(value: unknown, path: string, key?: string | number): boolean {
  if (typeof value !== "boolean") throw protoJsonError(path, key, `expected true or false, got ${describeJson(value)}`);
  return value;
}

/** bool map keys are the strings "true" and "false"; returned as written, which is how TypeScript maps key them. */
export function boolKeyFromJson(key: string, path: string): string {
  if (key !== "true" && key !== "false") throw protoJsonError(path, key, "map key is not true or false");
  return key;
}

/** A UTF-16 surrogate without its partner: JSON's "\ud800" escapes allow it, but it is not text (nor UTF-8). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function stringFromJson(value: unknown, path: string, key?: string | number): string {
  if (typeof value !== "string") throw protoJsonError(path, key, `expected a string, got ${describeJson(value)}`);
  if (LONE_SURROGATE.test(value)) throw protoJsonError(path, key, "string has an unpaired UTF-16 surrogate");
  return value;
}

export function bytesFromJson(value: unknown, path: string, key?: string | number): Uint8Array {
  if (typeof value !== "string") throw protoJsonError(path, key, `expected base64 text, got ${describeJson(value)}`);
  const bytes = base64Decode(value);
  if (bytes === undefined) throw protoJsonError(path, key, "invalid base64");
  return bytes;
}

export function bytesToJson(value: Uint8Array): string {
  return base64Encode(value);
}
