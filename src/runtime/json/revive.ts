import { jsonBase64Decode } from "./base64.js";
import { jsonIsDateTime } from "./formats.js";

/**
 * Leaf conversions decoders apply between parsing and validating, for the opt-in representations. Each converts a
 * wire value it recognises and returns anything else unchanged, so the validator afterwards reports it.
 */

/** date-time string -> Date (dates mode "Date"). */
export function jsonReviveDate(value: unknown): unknown {
  if (typeof value !== "string" || !jsonIsDateTime(value)) return value;
  const date = new Date(value.toUpperCase());
  // A leap second (23:59:60) is valid RFC 3339 but has no Date; it stays a string and fails validation.
  return Number.isNaN(date.getTime()) ? value : date;
}

/** Integral JSON number -> bigint (int64 mode "bigint"). The parser already gave big ones as bigint. */
export function jsonReviveBigInt(value: unknown): unknown {
  return typeof value === "number" && Number.isInteger(value) ? BigInt(value) : value;
}

/** Integral JSON number -> decimal string (int64 mode "string"). */
export function jsonReviveInt64String(value: unknown): unknown {
  if (typeof value === "bigint") return `${value}`;
  return typeof value === "number" && Number.isInteger(value) ? BigInt(value).toString() : value;
}

/** A big integer the parser kept as bigint, where the schema wants an ordinary number. */
export function jsonReviveNumber(value: unknown): unknown {
  return typeof value === "bigint" ? Number(value) : value;
}

/** base64 string -> Uint8Array (`format: byte`). */
export function jsonReviveBytes(value: unknown): unknown {
  return typeof value === "string" ? (jsonBase64Decode(value) ?? value) : value;
}
