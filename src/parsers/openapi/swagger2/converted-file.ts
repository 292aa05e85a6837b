/**
 * The converted value of one Swagger 2.0 file, wrapped as a `ParsedFile` so the OpenAPI 3 lowering reads it like any
 * other file: same path (type ids, scopes and error file names stay those of the original), positions looked up in
 * the original file through the pointer map.
 */
import type { JsonObject } from "../json.js";
import { segmentsOf } from "../pointer.js";
import type { JsonValue, ParsedFile } from "../read.js";
import type { PointerMap } from "./pointer-map.js";

export function convertedFile(original: ParsedFile, value: JsonValue, map: PointerMap): ParsedFile {
  return {
    path: original.path,
    value,
    locate: (pointer) => original.locate(map.toOriginal(pointer)),
    numberText: (pointer) => original.numberText(map.toOriginal(pointer)),
    sourcePointer: (pointer) => map.toOriginal(pointer),
  };
}

/** A fresh object with a null prototype, like every object `readSpecFile` produces (`__proto__` stays a plain key). */
export function newObject(): JsonObject {
  return Object.create(null) as JsonObject;
}

/** Deep copy (null-prototype objects), so placing converted nodes never mutates the parsed original. */
export function deepClone(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(deepClone);
  if (value === null || typeof value !== "object") return value;
  const out = newObject();
  for (const key of Object.keys(value)) out[key] = deepClone(value[key]!);
  return out;
}

/**
 * Put `value` at `pointer` inside `root` (which must be an object), creating missing parents as objects. Returns the
 * new root when `pointer` is the root itself.
 */
export function setAt(root: JsonValue, pointer: string, value: JsonValue): JsonValue {
  const segments = segmentsOf(pointer);
  if (segments.length === 0) return value;
  let node = root;
  for (const [i, segment] of segments.entries()) {
    const last = i === segments.length - 1;
    if (Array.isArray(node)) {
      const index = Number(segment);
      if (last) node[index] = value;
      else node = node[index]!;
    } else if (node !== null && typeof node === "object") {
      if (last) node[segment] = value;
      else {
        if (node[segment] === undefined || node[segment] === null || typeof node[segment] !== "object") node[segment] = newObject();
        node = node[segment]!;
      }
    }
  }
  return root;
}
