import { pointerJoin, type ValidationIssue } from "../validation.js";
import type { RestQuery } from "./query.js";

/**
 * Parameter parsing for generated servers: path, query and header values arrive as text and are coerced to the
 * schema's scalar type here. Every failure is pushed as a ValidationIssue whose path is a JSON pointer such as
 * "/path/id" or "/query/page"; nothing throws, so one request reports all of its bad parameters at once.
 */

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

export function restParamIssue(issues: ValidationIssue[], path: string, rule: string, message: string): void {
  issues.push({ path, rule, message });
}

export function restInteger(raw: string, path: string, issues: ValidationIssue[]): number | undefined {
  if (INTEGER.test(raw)) {
    const value = Number(raw);
    if (Number.isSafeInteger(value)) return value;
    restParamIssue(issues, path, "range", `${JSON.stringify(raw)} is too large for an integer`);
    return undefined;
  }
  restParamIssue(issues, path, "type", `expected an integer, got ${JSON.stringify(raw)}`);
  return undefined;
}

export function restNumber(raw: string, path: string, issues: ValidationIssue[]): number | undefined {
  if (NUMBER.test(raw)) return Number(raw);
  restParamIssue(issues, path, "type", `expected a number, got ${JSON.stringify(raw)}`);
  return undefined;
}

export function restBoolean(raw: string, path: string, issues: ValidationIssue[]): boolean | undefined {
  if (raw === "true") return true;
  if (raw === "false") return false;
  restParamIssue(issues, path, "type", `expected true or false, got ${JSON.stringify(raw)}`);
  return undefined;
}

export function restString(raw: string): string {
  return raw;
}

/**
 * An array in style form: exploded (`tag=a&tag=b`) or comma-separated (`tag=a,b`). Absent -> undefined; an empty
 * value of a non-exploded array is the empty array.
 */
export function restFormArray(query: RestQuery, name: string, explode: boolean): string[] | undefined {
  if (explode) {
    const all = query.getAll(name);
    return all.length > 0 ? all : undefined;
  }
  const raw = query.get(name);
  if (raw === null) return undefined;
  return raw === "" ? [] : raw.split(",");
}

/** Coerce every item of a parameter array; items that fail are left out (and reported). */
export function restItems<T>(
  items: readonly string[],
  path: string,
  issues: ValidationIssue[],
  coerce: (raw: string, path: string, issues: ValidationIssue[]) => T | undefined,
): T[] {
  const out: T[] = [];
  items.forEach((raw, i) => {
    const value = coerce(raw, pointerJoin(path, i), issues);
    if (value !== undefined) out.push(value);
  });
  return out;
}

/**
 * A deepObject parameter (`filter[status]=x&filter[page]=2`) as a string map. The map has no prototype, so keys
 * such as `__proto__` are plain entries and never reach Object.prototype.
 */
export function restDeepObject(query: RestQuery, name: string): { [key: string]: string } | undefined {
  const prefix = `${name}[`;
  let out: { [key: string]: string } | undefined;
  // forEach rather than for-of: generated code is checked against the DOM lib without its iterable part.
  query.forEach((value, key) => {
    if (!key.startsWith(prefix) || !key.endsWith("]")) return;
    out ??= Object.create(null) as { [key: string]: string };
    out[key.slice(prefix.length, -1)] = value;
  });
  return out;
}

/**
 * Form fields (application/x-www-form-urlencoded bodies) arrive as text: numbers and booleans are converted when
 * they read as one, and otherwise kept as text so the body validator reports the field with its real value.
 */
export function restFormNumber(raw: string): number | string {
  return NUMBER.test(raw) ? Number(raw) : raw;
}

export function restFormBoolean(raw: string): boolean | string {
  return raw === "true" ? true : raw === "false" ? false : raw;
}
