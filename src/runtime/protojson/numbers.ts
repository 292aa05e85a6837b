import { describeJson, protoJsonError } from "./errors.js";
import type { ProtoJsonValue } from "./types.js";

/**
 * Numbers in the proto3 JSON mapping. Readers take the parent's pointer and the key separately so that the pointer
 * is only built when something is wrong. Integers may come as JSON numbers or as strings; 64-bit integers are
 * written as strings (JavaScript numbers cannot hold them), floats may be "NaN", "Infinity" or "-Infinity".
 */

/** A JSON number written as a string: no spaces, no "+", no hex, no leading zeros. */
const NUMBER_TEXT = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
const INTEGER_TEXT = /^-?(?:0|[1-9][0-9]*)$/;

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const UINT32_MAX = 4294967295;
// Literals rather than powers: bigint arithmetic can throw, so bundlers would keep it as a module side effect.
const INT64_MIN = -9223372036854775808n; // -(2^63)
const INT64_MAX = 9223372036854775807n; // 2^63 - 1
const UINT64_MAX = 18446744073709551615n; // 2^64 - 1

/** A finite number from a JSON number or a numeric string; the caller checks range and integrality. */
function numberOf(value: unknown, path: string, key: string | number | undefined, what: string): number {
  // The text reader gives integers beyond 2^53 as bigints; as a double they round like any JSON number would.
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "number") {
    // JSON.parse turns 1e999 into Infinity: a JSON number can never mean infinity.
    if (!Number.isFinite(value)) throw protoJsonError(path, key, `${what} out of range`);
    return value;
  }
  if (typeof value === "string" && NUMBER_TEXT.test(value)) {
    const n = Number(value);
    if (!Number.isFinite(n)) throw protoJsonError(path, key, `${what} out of range`);
    return n;
  }
  throw protoJsonError(path, key, `expected ${what}, got ${describeJson(value)}`);
}

function integerIn(value: unknown, path: string, key: string | number | undefined, what: string, min: number, max: number): number {
  const n = numberOf(value, path, key, what);
  if (!Number.isInteger(n)) throw protoJsonError(path, key, `expected ${what}, got a fraction`);
  if (n < min || n > max) throw protoJsonError(path, key, `${what} out of range`);
  // -0 is 0 for an integer field.
  return n + 0;
}

/** int32, sint32, sfixed32. */
export function int32FromJson(value: unknown, path: string, key?: string | number): number {
  return integerIn(value, path, key, "an int32", INT32_MIN, INT32_MAX);
}

/** uint32, fixed32. */
export function uint32FromJson(value: unknown, path: string, key?: string | number): number {
  return integerIn(value, path, key, "a uint32", 0, UINT32_MAX);
}

function bigIntegerIn(value: unknown, path: string, key: string | number | undefined, what: string, min: bigint, max: bigint): bigint {
  let n: bigint;
  if (typeof value === "string" && INTEGER_TEXT.test(value)) n = BigInt(value);
  else if (typeof value === "bigint") n = value;
  else {
    const d = numberOf(value, path, key, what);
    if (!Number.isInteger(d)) throw protoJsonError(path, key, `expected ${what}, got a fraction`);
    n = BigInt(d);
  }
  if (n < min || n > max) throw protoJsonError(path, key, `${what} out of range`);
  return n;
}

/** int64, sint64, sfixed64. */
export function int64FromJson(value: unknown, path: string, key?: string | number): bigint {
  return bigIntegerIn(value, path, key, "an int64", INT64_MIN, INT64_MAX);
}

/** uint64, fixed64. */
export function uint64FromJson(value: unknown, path: string, key?: string | number): bigint {
  return bigIntegerIn(value, path, key, "a uint64", 0n, UINT64_MAX);
}

/** 64-bit integers are strings in JSON whatever the TypeScript representation (bigint, string or number). */
export function int64ToJson(value: bigint | string | number): string {
  return typeof value === "number" ? BigInt(value).toString() : value.toString();
}

function specialFloat(value: unknown): number | undefined {
  if (value === "NaN") return NaN;
  if (value === "Infinity") return Infinity;
  if (value === "-Infinity") return -Infinity;
  return undefined;
}

export function doubleFromJson(value: unknown, path: string, key?: string | number): number {
  return specialFloat(value) ?? numberOf(value, path, key, "a double");
}

/** A float: values beyond the float32 range are errors, the rest are rounded to float32. */
export function floatFromJson(value: unknown, path: string, key?: string | number): number {
  const special = specialFloat(value);
  if (special !== undefined) return special;
  const n = numberOf(value, path, key, "a float");
  // Out of range means rounding to float32 overflows; 3.4028235e38 (FLT_MAX written short) is still in range.
  const f = Math.fround(n);
  if (!Number.isFinite(f)) throw protoJsonError(path, key, "a float out of range");
  return f;
}

export function doubleToJson(value: number): ProtoJsonValue {
  if (Number.isFinite(value)) return value;
  return Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
}

/**
 * A float as the shortest decimal that reads back as the same float32 (1.1, not 1.100000023841858), like protoc's
 * JSON printer; float32 values need at most 9 significant digits.
 */
export function floatToJson(value: number): ProtoJsonValue {
  if (!Number.isFinite(value)) return doubleToJson(value);
  const f = Math.fround(value);
  // 0 and -0 need no search (and the search would turn -0 into 0).
  if (f === 0) return f;
  for (let digits = 1; digits < 9; digits++) {
    const shorter = Number(f.toPrecision(digits));
    if (Math.fround(shorter) === f) return shorter;
  }
  return Number(f.toPrecision(9));
}

/** Map keys are JSON object keys, so always strings; they must spell an integer of the key type. */
export function int32KeyFromJson(key: string, path: string): number {
  if (!INTEGER_TEXT.test(key)) throw protoJsonError(path, key, "map key is not an int32");
  return int32FromJson(key, path, key);
}

export function uint32KeyFromJson(key: string, path: string): number {
  if (!INTEGER_TEXT.test(key)) throw protoJsonError(path, key, "map key is not a uint32");
  return uint32FromJson(key, path, key);
}

/** 64-bit keys stay strings in TypeScript maps; the canonical decimal form is returned. */
export function int64KeyFromJson(key: string, path: string): string {
  if (!INTEGER_TEXT.test(key)) throw protoJsonError(path, key, "map key is not an int64");
  return int64FromJson(key, path, key).toString();
}

export function uint64KeyFromJson(key: string, path: string): string {
  if (!INTEGER_TEXT.test(key)) throw protoJsonError(path, key, "map key is not a uint64");
  return uint64FromJson(key, path, key).toString();
}
