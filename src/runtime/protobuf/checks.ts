/**
 * Value checks for generated proto validators: each appends issues for one value of one scalar type. They accept
 * `unknown` because validators exist for data that did not come from a type-checked source.
 */
import type { ValidationIssue } from "../validation.js";

type Issues = ValidationIssue[];

function issue(issues: Issues, path: string, rule: string, message: string): void {
  issues.push({ path, rule, message });
}

function checkIntRange(v: unknown, path: string, issues: Issues, what: string, min: number, max: number): void {
  if (typeof v !== "number" || !Number.isInteger(v)) issue(issues, path, "type", `expected an integer (${what})`);
  else if (v < min || v > max) issue(issues, path, "range", `${v} is out of range for ${what} (${min} to ${max})`);
}

export function pbCheckInt32(v: unknown, path: string, issues: Issues): void {
  checkIntRange(v, path, issues, "int32", -0x80000000, 0x7fffffff);
}

export function pbCheckUint32(v: unknown, path: string, issues: Issues): void {
  checkIntRange(v, path, issues, "uint32", 0, 0xffffffff);
}

// Literals rather than shifts: bigint arithmetic can throw, so bundlers would keep it as a module side effect.
const INT64_MIN = -9223372036854775808n; // -(2^63)
const INT64_MAX = 9223372036854775807n; // 2^63 - 1
const UINT64_MAX = 18446744073709551615n; // 2^64 - 1

/** 64-bit integers in the representation the code was generated for: bigint, decimal string or number. */
export function pbCheckInt64(v: unknown, path: string, issues: Issues, mode: "bigint" | "string" | "number", unsigned: boolean): void {
  const what = unsigned ? "uint64" : "int64";
  let big: bigint;
  if (mode === "bigint") {
    if (typeof v !== "bigint") return issue(issues, path, "type", `expected a bigint (${what})`);
    big = v;
  } else if (mode === "string") {
    if (typeof v !== "string" || !/^-?\d+$/.test(v)) return issue(issues, path, "type", `expected a decimal integer string (${what})`);
    big = BigInt(v);
  } else {
    if (typeof v !== "number" || !Number.isInteger(v)) return issue(issues, path, "type", `expected an integer (${what})`);
    big = BigInt(v);
  }
  const [min, max] = unsigned ? [0n, UINT64_MAX] : [INT64_MIN, INT64_MAX];
  if (big < min || big > max) issue(issues, path, "range", `${big} is out of range for ${what} (${min} to ${max})`);
}

const FLOAT_MAX = 3.4028234663852886e38;

/** A float must be a number; finite values beyond float32's range would turn into infinity on the wire. */
export function pbCheckFloat(v: unknown, path: string, issues: Issues): void {
  if (typeof v !== "number") issue(issues, path, "type", "expected a number (float)");
  else if (Number.isFinite(v) && Math.abs(v) > FLOAT_MAX) issue(issues, path, "range", `${v} is out of range for float`);
}

export function pbCheckDouble(v: unknown, path: string, issues: Issues): void {
  if (typeof v !== "number") issue(issues, path, "type", "expected a number (double)");
}

export function pbCheckBool(v: unknown, path: string, issues: Issues): void {
  if (typeof v !== "boolean") issue(issues, path, "type", "expected a boolean");
}

export function pbCheckString(v: unknown, path: string, issues: Issues): void {
  if (typeof v !== "string") issue(issues, path, "type", "expected a string");
}

export function pbCheckBytes(v: unknown, path: string, issues: Issues): void {
  if (!(v instanceof Uint8Array)) issue(issues, path, "type", "expected a Uint8Array (bytes)");
}

/** Open (proto3) enums also accept numbers the schema does not list, within int32. */
export function pbIsEnumNumber(v: unknown): boolean {
  return typeof v === "number" && Number.isInteger(v) && v >= -0x80000000 && v <= 0x7fffffff;
}

/** A map's keys must be readable as its key type (object keys are always strings). */
export function pbCheckMapKey(key: string, path: string, issues: Issues, keyType: "int32" | "uint32" | "int64" | "uint64" | "bool" | "string"): void {
  switch (keyType) {
    case "string":
      return;
    case "bool":
      if (key !== "true" && key !== "false") issue(issues, path, "mapKey", `map key "${key}" is not "true" or "false"`);
      return;
    case "int32":
    case "uint32":
      if (!/^-?\d+$/.test(key)) return issue(issues, path, "mapKey", `map key "${key}" is not an integer`);
      return checkIntRange(Number(key), path, issues, keyType, keyType === "int32" ? -0x80000000 : 0, keyType === "int32" ? 0x7fffffff : 0xffffffff);
    default:
      if (!/^-?\d+$/.test(key)) return issue(issues, path, "mapKey", `map key "${key}" is not an integer`);
      return pbCheckInt64(key, path, issues, "string", keyType === "uint64");
  }
}

/** A google.protobuf.Timestamp held as a Date (`dates: "Date"`): a Date with a valid time value. */
export function pbCheckDate(v: unknown, path: string, issues: Issues): void {
  if (!(v instanceof Date)) return issue(issues, path, "type", "expected a Date (google.protobuf.Timestamp)");
  if (Number.isNaN(v.getTime())) return issue(issues, path, "type", "expected a valid Date, got an invalid one");
}
