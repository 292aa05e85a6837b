import { pointerJoin } from "../validation.js";

/**
 * Thrown by generated ProtoJSON code for input that does not follow the proto3 JSON mapping (fromJson) and for
 * messages the mapping cannot represent (toJson: an out-of-range Timestamp, a FieldMask path that does not
 * round-trip). `path` is a JSON pointer to the offending value ("" for the root).
 */
export class ProtoJsonError extends Error {
  constructor(
    readonly path: string,
    readonly detail: string,
  ) {
    super(`${path || "/"}: ${detail}`);
    this.name = "ProtoJsonError";
  }
}

/** The pointer of `key` under `path`; `key` undefined means `path` itself. */
export function childPath(path: string, key: string | number | undefined): string {
  return key === undefined ? path : pointerJoin(path, key);
}

/** Errors are built only on the failure path, so readers pass (path, key) instead of a ready pointer. */
export function protoJsonError(path: string, key: string | number | undefined, detail: string): ProtoJsonError {
  return new ProtoJsonError(childPath(path, key), detail);
}

/** A short description of a JSON value for error messages (never the whole value: it may be large or secret). */
export function describeJson(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  if (typeof value === "object") return "an object";
  return String(value);
}

export function unknownJsonField(path: string, key: string): ProtoJsonError {
  return protoJsonError(path, key, "unknown field (set ignoreUnknownFields to skip it)");
}

export function duplicateJsonField(path: string, key: string, other: string): ProtoJsonError {
  return protoJsonError(path, key, `the same field is also given as "${other}"`);
}

export function oneofJsonConflict(path: string, key: string, oneof: string): ProtoJsonError {
  return protoJsonError(path, key, `another field of oneof ${oneof} is already set`);
}

export function missingJsonField(path: string, field: string): ProtoJsonError {
  return protoJsonError(path, field, "required field is missing");
}
