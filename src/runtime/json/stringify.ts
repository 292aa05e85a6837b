import { jsonBase64Encode } from "./base64.js";
import { JsonEncodeError } from "./errors.js";

/** Values nested deeper than this are taken for a cycle. */
const MAX_WRITE_DEPTH = 1000;
const INT64_TEXT = /^-?(?:0|[1-9][0-9]*)$/;

/** A finite number as JSON text (JSON has no NaN or Infinity; JSON.stringify would quietly write null). */
export function jsonNumber(n: number): string {
  if (!Number.isFinite(n)) throw new JsonEncodeError(`${n} is not a JSON number`);
  return String(n);
}

/** An int64 held as a decimal string (int64 mode "string") written as a JSON number; anything else is refused. */
export function jsonInt64Text(s: string): string {
  if (!INT64_TEXT.test(s)) throw new JsonEncodeError(`${JSON.stringify(s)} is not a decimal integer`);
  return s;
}

/**
 * Any value as JSON text, for schema-less (`{}`) parts of a type: own enumerable properties only, undefined
 * properties left out, bigint written as digits, Date as its ISO string, Uint8Array as base64. Non-finite numbers,
 * functions, symbols and cycles are refused with JsonEncodeError instead of being dropped or looping.
 */
export function jsonStringify(value: unknown): string {
  return write(value, 0);
}

function write(value: unknown, depth: number): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return jsonNumber(value);
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return `${value}`;
    case "object": {
      if (value === null) return "null";
      if (depth >= MAX_WRITE_DEPTH) throw new JsonEncodeError("value is nested too deeply (or contains a cycle)");
      if (value instanceof Date) return JSON.stringify(value.toISOString());
      if (value instanceof Uint8Array) return `"${jsonBase64Encode(value)}"`;
      if (Array.isArray(value)) {
        let out = "[";
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ",";
          const item: unknown = value[i];
          out += item === undefined ? "null" : write(item, depth + 1);
        }
        return out + "]";
      }
      let out = "{";
      for (const key of Object.keys(value)) {
        const item = (value as Record<string, unknown>)[key];
        if (item === undefined) continue;
        if (out.length > 1) out += ",";
        out += `${JSON.stringify(key)}:${write(item, depth + 1)}`;
      }
      return out + "}";
    }
    default:
      throw new JsonEncodeError(`a ${typeof value} is not a JSON value`);
  }
}
