/**
 * Generic JSON value helpers for generated code: the JSON kind of a value, deep equality for uniqueItems, and
 * own-property writes that cannot touch a prototype.
 */

export type JsonKind = "null" | "boolean" | "number" | "string" | "array" | "object" | "other";

/**
 * The JSON kind of an in-memory value. Values that stand for JSON scalars in the opt-in modes count as those:
 * a bigint (int64) is a number, a Date (date-time) and a Uint8Array (base64 bytes) are strings.
 */
export function jsonKindOf(value: unknown): JsonKind {
  switch (typeof value) {
    case "string":
      return "string";
    case "number":
    case "bigint":
      return "number";
    case "boolean":
      return "boolean";
    case "object":
      if (value === null) return "null";
      if (Array.isArray(value)) return "array";
      if (value instanceof Date || value instanceof Uint8Array) return "string";
      return "object";
    default:
      return "other";
  }
}

/** A canonical text for a value so that equal JSON values (key order aside) get equal texts. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") {
    return typeof value === "string" ? JSON.stringify(value) : typeof value === "bigint" ? `${value}` : String(value);
  }
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(",")}}`;
}

/**
 * The index of the first item equal (as JSON) to an earlier one, or -1 (JSON Schema uniqueItems). Linear in the
 * size of the array: items are compared by a canonical text, never pairwise.
 */
export function jsonFirstDuplicate(items: readonly unknown[]): number {
  const seen = new Set<unknown>();
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const key = typeof item === "number" ? item : typeof item === "bigint" ? bigintKey(item) : canonical(item);
    if (seen.has(key)) return i;
    seen.add(key);
  }
  return -1;
}

/** 1 and 1n are the same JSON number; strings are keyed quoted, so no number key can meet them. */
function bigintKey(n: bigint): number | string {
  const asNumber = Number(n);
  return Number.isSafeInteger(asNumber) ? asNumber : `${n}`;
}

/** Set an own data property; unlike `obj[key] = value` this never replaces a prototype for the key "__proto__". */
export function jsonSetOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * Deep JSON equality (JSON Schema `enum` and `const`): numbers by value (1 and 1.0 are one number), arrays item by
 * item, objects by their own keys whatever the order. Values of different JSON kinds are never equal.
 */
export function jsonEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    return (typeof a === "bigint" || typeof b === "bigint") && (typeof a === "number" || typeof a === "bigint") && (typeof b === "number" || typeof b === "bigint") && Number(a) === Number(b);
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEquals(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ak = Object.keys(a);
  if (ak.length !== Object.keys(b).length) return false;
  for (const k of ak) {
    if (!Object.hasOwn(b, k) || !jsonEquals((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** The number of own enumerable keys of a JSON object (minProperties/maxProperties). */
export function jsonPropertyCount(o: object): number {
  return Object.keys(o).length;
}
