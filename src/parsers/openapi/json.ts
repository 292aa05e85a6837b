/** Small typed accessors over spec data, so lowering code reads `child(loc, "properties")` instead of casts. */
import type { Loc } from "./files.js";
import { childPointer } from "./pointer.js";
import type { JsonValue } from "./read.js";

export type JsonObject = { [key: string]: JsonValue };

export function isObject(v: JsonValue | undefined): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The child node `key` of an object or array location, or undefined when absent. */
export function child(loc: Loc, key: string | number): Loc | undefined {
  const v = loc.value;
  let value: JsonValue | undefined;
  if (Array.isArray(v) && typeof key === "number") value = v[key];
  else if (isObject(v) && typeof key === "string" && Object.hasOwn(v, key)) value = v[key];
  if (value === undefined) return undefined;
  return { file: loc.file, pointer: childPointer(loc.pointer, key), value };
}

/** Entries of an object location in document order (extension keys `x-...` included; callers skip them). */
export function entries(loc: Loc | undefined): [string, Loc][] {
  if (!loc || !isObject(loc.value)) return [];
  return Object.keys(loc.value).map((k) => [k, child(loc, k)!]);
}

/** Items of an array location. */
export function items(loc: Loc | undefined): Loc[] {
  if (!loc || !Array.isArray(loc.value)) return [];
  return loc.value.map((_, i) => child(loc, i)!);
}

export function str(loc: Loc, key: string): string | undefined {
  const v = isObject(loc.value) ? loc.value[key] : undefined;
  return typeof v === "string" ? v : undefined;
}

export function bool(loc: Loc, key: string): boolean | undefined {
  const v = isObject(loc.value) ? loc.value[key] : undefined;
  return typeof v === "boolean" ? v : undefined;
}

export function has(loc: Loc, key: string): boolean {
  return isObject(loc.value) && Object.hasOwn(loc.value, key);
}
