/**
 * Swagger 2.0 parameters and response headers -> OpenAPI 3.0 ones. In 2.0 a non-body parameter carries its schema
 * keywords (`type`, `format`, `items`, `enum`, bounds...) on itself and says how arrays are written with
 * `collectionFormat`; 3.0 moves those into `schema` and says it with `style` / `explode`.
 *
 * Body and formData parameters are not parameters in 3.0 (they become the request body, see request-body.ts); as
 * members of `#/parameters` they are still converted here, so `$ref`s to their schema resolve.
 */
import type { Loc } from "../files.js";
import { child, entries, str, type JsonObject } from "../json.js";
import { childPointer } from "../pointer.js";
import type { JsonValue } from "../read.js";
import { deepClone, newObject } from "./converted-file.js";
import type { Swagger2Converter } from "./converter.js";
import { convertSchema, finishSchema } from "./schema.js";

export type ParameterLocation = "query" | "header" | "path" | "formData" | "body";
const LOCATIONS = new Set<string>(["query", "header", "path", "formData", "body"]);

/** Keywords a 2.0 parameter, Items or Header object shares with a Schema Object. */
const SCHEMA_KEYWORDS = new Set([
  "type", "format", "default", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength",
  "pattern", "maxItems", "minItems", "uniqueItems", "enum", "multipleOf", "x-nullable",
]);

/**
 * collectionFormat -> 3.0 style. `tsv` has no 3.0 equivalent: "tabDelimited" is specforge's own style for it.
 * (A Map: a spec value such as "__proto__" or "constructor" must not find anything.)
 */
const DELIMITED: ReadonlyMap<string, string> = new Map([["ssv", "spaceDelimited"], ["pipes", "pipeDelimited"], ["tsv", "tabDelimited"]]);

/** A parameter object (or a `$ref` to one) converted in place at `at`. */
export function convertParameter(cv: Swagger2Converter, loc: Loc, at: string): JsonValue {
  if (child(loc, "$ref")) return cv.refNode(loc, "parameter");
  const name = str(loc, "name");
  if (name === undefined) return cv.fail(loc, "a parameter needs a name");
  const where = locationOf(cv, loc);
  const out = newObject();
  out["name"] = name;
  out["in"] = where;
  copy(loc, out, ["description", "required", "allowEmptyValue", "deprecated"]);
  if (where === "body") {
    out["schema"] = convertSchema(cv, bodySchemaOf(cv, loc));
  } else {
    const style = styleOf(cv, loc, where);
    if (style) {
      out["style"] = style.style;
      out["explode"] = style.explode;
      cv.mapOf(loc.file).alias(childPointer(at, "style"), childPointer(loc.pointer, "collectionFormat"));
      cv.mapOf(loc.file).alias(childPointer(at, "explode"), childPointer(loc.pointer, "collectionFormat"));
    }
    out["schema"] = parameterSchema(cv, loc, childPointer(at, "schema"), `parameter "${name}"`);
  }
  copyExtensions(loc, out);
  return out;
}

/** `in` of a 2.0 parameter, checked. */
export function locationOf(cv: Swagger2Converter, loc: Loc): ParameterLocation {
  const where = str(loc, "in");
  if (where === undefined || !LOCATIONS.has(where)) {
    return cv.fail(child(loc, "in") ?? loc, `parameter "${str(loc, "name") ?? ""}" needs "in": query, header, path, formData or body`);
  }
  return where as ParameterLocation;
}

/** The `schema` of a body parameter, which 2.0 requires. */
export function bodySchemaOf(cv: Swagger2Converter, loc: Loc): Loc {
  const schema = child(loc, "schema");
  if (!schema) return cv.fail(loc, `body parameter "${str(loc, "name") ?? ""}" needs a schema`);
  return schema;
}

/**
 * The 3.0 schema of a non-body parameter (or header), built from the keywords it carries itself; placed at `at`,
 * so positions under it map back to the parameter.
 */
export function parameterSchema(cv: Swagger2Converter, loc: Loc, at: string, what: string): JsonObject {
  cv.mapOf(loc.file).alias(at, loc.pointer);
  const type = child(loc, "type");
  if (!type) return cv.fail(loc, `${what} needs a type`);
  if (type.value === "file" && str(loc, "in") !== "formData") {
    return cv.fail(type, "type: file is only allowed for formData parameters");
  }
  return primitiveSchema(cv, loc);
}

/** A parameter / Items / Header object's schema keywords as a Schema Object. */
function primitiveSchema(cv: Swagger2Converter, loc: Loc): JsonObject {
  const out = newObject();
  for (const [key, sub] of entries(loc)) {
    if (key === "items") {
      if (child(sub, "$ref")) out[key] = convertSchema(cv, sub);
      else if (str(sub, "type") === "array") {
        return cv.fail(sub, "arrays of arrays (nested collectionFormat) are not supported in parameters and headers");
      } else {
        checkCollectionFormat(cv, sub);
        out[key] = primitiveSchema(cv, sub);
      }
    } else if (SCHEMA_KEYWORDS.has(key)) out[key] = deepClone(sub.value);
  }
  return finishSchema(out);
}

/** style / explode for an array parameter of the given location (default collectionFormat: csv). */
export function styleOf(cv: Swagger2Converter, loc: Loc, where: ParameterLocation | "header"): { style: string; explode: boolean } | undefined {
  const format = checkCollectionFormat(cv, loc) ?? "csv";
  if (str(loc, "type") !== "array") return undefined;
  if (format === "multi") {
    if (where !== "query" && where !== "formData") {
      return cv.fail(child(loc, "collectionFormat")!, `collectionFormat multi is only allowed for query and formData parameters, not ${where}`);
    }
    return { style: "form", explode: true };
  }
  const delimited = DELIMITED.get(format);
  if (delimited !== undefined) return { style: delimited, explode: false };
  return { style: where === "query" || where === "formData" ? "form" : "simple", explode: false };
}

function checkCollectionFormat(cv: Swagger2Converter, loc: Loc): string | undefined {
  const cf = child(loc, "collectionFormat");
  if (!cf) return undefined;
  if (cf.value !== "csv" && cf.value !== "multi" && (typeof cf.value !== "string" || !DELIMITED.has(cf.value))) {
    return cv.fail(cf, `unknown collectionFormat ${JSON.stringify(cf.value)}: expected csv, ssv, tsv, pipes or multi`);
  }
  return cf.value;
}

/** A 2.0 response header -> a 3.0 Header Object (its schema keywords move into `schema`). */
export function convertHeader(cv: Swagger2Converter, loc: Loc, at: string, name: string): JsonValue {
  const out = newObject();
  copy(loc, out, ["description"]);
  const style = styleOf(cv, loc, "header");
  if (style) out["style"] = style.style;
  out["schema"] = parameterSchema(cv, loc, childPointer(at, "schema"), `header "${name}"`);
  copyExtensions(loc, out);
  return out;
}

export function copy(loc: Loc, out: JsonObject, keys: readonly string[]): void {
  for (const key of keys) {
    const sub = child(loc, key);
    if (sub) out[key] = deepClone(sub.value);
  }
}

export function copyExtensions(loc: Loc, out: JsonObject): void {
  for (const [key, sub] of entries(loc)) if (key.startsWith("x-") && key !== "x-nullable") out[key] = deepClone(sub.value);
}
