import { describeJson, protoJsonError } from "./errors.js";
import type { ProtoJsonObject } from "./types.js";

/** The value as a JSON object (not null, not an array), or a ProtoJsonError at path/key. */
export function jsonObjectAt(value: unknown, path: string, key?: string | number): ProtoJsonObject {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw protoJsonError(path, key, `expected an object, got ${describeJson(value)}`);
  }
  return value as ProtoJsonObject;
}

export function jsonArrayAt(value: unknown, path: string, key?: string | number): readonly unknown[] {
  if (!Array.isArray(value)) throw protoJsonError(path, key, `expected an array, got ${describeJson(value)}`);
  return value;
}

/** Own properties only: a key such as "constructor" must never find Object.prototype's. */
export function hasOwnJson(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/**
 * Set a key taken from data (a map key, a Struct key) on an object. "__proto__" becomes an ordinary own property
 * instead of replacing the object's prototype.
 */
export function jsonSet<V>(target: { [key: string]: V }, key: string, value: V): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
