/**
 * A Swagger 2.0 Schema Object -> an OpenAPI 3.0 one. The two dialects are nearly the same; what differs:
 *  - `$ref`s point at `#/definitions/...` (rewritten to wherever the target was converted to);
 *  - `type: file` (a response that is a file) is `type: string, format: binary`;
 *  - `discriminator` is the property name itself, not an object;
 *  - `x-nullable: true` (a widespread extension) is what 3.0 calls `nullable: true`.
 * Keys keep their names, so every node below keeps its original position with no extra pointer mapping.
 */
import type { Loc } from "../files.js";
import { entries, isObject, items, type JsonObject } from "../json.js";
import type { JsonValue } from "../read.js";
import { deepClone, newObject } from "./converted-file.js";
import type { Swagger2Converter } from "./converter.js";

export function convertSchema(cv: Swagger2Converter, loc: Loc): JsonValue {
  if (!isObject(loc.value)) return deepClone(loc.value);
  if (Object.hasOwn(loc.value, "$ref")) return cv.refNode(loc, "schema");
  const out = newObject();
  for (const [key, sub] of entries(loc)) {
    switch (key) {
      case "properties":
        out[key] = isObject(sub.value) ? schemaMap(cv, sub) : deepClone(sub.value);
        break;
      case "allOf":
      case "anyOf":
      case "oneOf":
        out[key] = Array.isArray(sub.value) ? items(sub).map((s) => convertSchema(cv, s)) : deepClone(sub.value);
        break;
      case "items":
        out[key] = Array.isArray(sub.value) ? items(sub).map((s) => convertSchema(cv, s)) : convertSchema(cv, sub);
        break;
      case "additionalProperties":
      case "not":
        out[key] = convertSchema(cv, sub);
        break;
      case "discriminator":
        out[key] = typeof sub.value === "string" ? discriminator(sub.value) : deepClone(sub.value);
        break;
      default:
        out[key] = deepClone(sub.value);
    }
  }
  return finishSchema(out);
}

/**
 * The 2.0-only keywords of a converted schema (or of a parameter's schema) in 3.0 terms: `type: file` and
 * `x-nullable`. Applied after copying, so a `format` written beside `type: file` cannot undo the binary format.
 */
export function finishSchema(out: JsonObject): JsonObject {
  if (out["type"] === "file") {
    out["type"] = "string";
    out["format"] = "binary";
  }
  if (out["x-nullable"] === true) out["nullable"] = true;
  return out;
}

function schemaMap(cv: Swagger2Converter, loc: Loc): JsonObject {
  const out = newObject();
  for (const [name, s] of entries(loc)) out[name] = convertSchema(cv, s);
  return out;
}

function discriminator(propertyName: string): JsonObject {
  const out = newObject();
  out["propertyName"] = propertyName;
  return out;
}
