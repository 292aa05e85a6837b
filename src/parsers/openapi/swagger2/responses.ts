/**
 * Swagger 2.0 responses -> OpenAPI 3.0 ones: the single `schema` becomes one `content` entry per media type the
 * operation `produces`, `examples` (keyed by media type) become those entries' `example`, and headers get a `schema`.
 */
import type { Loc } from "../files.js";
import { child, entries, isObject, type JsonObject } from "../json.js";
import { childPointer } from "../pointer.js";
import type { JsonValue } from "../read.js";
import { deepClone, newObject } from "./converted-file.js";
import type { Swagger2Converter } from "./converter.js";
import { convertHeader, copy, copyExtensions } from "./parameters.js";
import { convertSchema } from "./schema.js";

/** The `responses` map of an operation. */
export function convertResponses(cv: Swagger2Converter, loc: Loc, at: string, produces: readonly string[]): JsonValue {
  if (!isObject(loc.value)) return cv.fail(loc, "responses must be an object keyed by status code");
  const out = newObject();
  for (const [status, r] of entries(loc)) {
    out[status] = status.startsWith("x-") ? deepClone(r.value) : convertResponse(cv, r, childPointer(at, status), produces);
  }
  return out;
}

/** One Response object (or a `$ref` to one), converted in place at `at`. */
export function convertResponse(cv: Swagger2Converter, loc: Loc, at: string, produces: readonly string[]): JsonValue {
  if (child(loc, "$ref")) return cv.refNode(loc, "response");
  if (!isObject(loc.value)) return cv.fail(loc, "a response must be an object");
  const out = newObject();
  copy(loc, out, ["description"]);
  const headers = child(loc, "headers");
  if (headers) {
    const converted = newObject();
    for (const [name, h] of entries(headers)) converted[name] = convertHeader(cv, h, childPointer(childPointer(at, "headers"), name), name);
    out["headers"] = converted;
  }
  const schema = child(loc, "schema");
  // No schema: "no content is returned" (2.0). Examples without a schema describe nothing the types could say.
  if (schema) out["content"] = contentOf(cv, schema, childPointer(at, "content"), produces, child(loc, "examples"));
  copyExtensions(loc, out);
  return out;
}

/**
 * `{<media type>: {schema}}` for one schema and several media types. The schema is converted once, under the first
 * media type; the others refer to it, so an inline object becomes one declared type, not one per media type.
 */
export function contentOf(cv: Swagger2Converter, schema: Loc, at: string, mediaTypes: readonly string[], examples?: Loc): JsonObject {
  const content = newObject();
  let first: string | undefined;
  for (const mediaType of mediaTypes) {
    const schemaAt = childPointer(childPointer(at, mediaType), "schema");
    const media = newObject();
    if (first === undefined) {
      first = schemaAt;
      cv.mapOf(schema.file).relocate(schema.pointer, schemaAt);
      media["schema"] = convertSchema(cv, schema);
    } else {
      cv.mapOf(schema.file).alias(schemaAt, schema.pointer);
      media["schema"] = cv.localRef(first);
    }
    const example = examples && child(examples, mediaType);
    if (example) {
      cv.mapOf(schema.file).alias(childPointer(childPointer(at, mediaType), "example"), example.pointer);
      media["example"] = deepClone(example.value);
    }
    content[mediaType] = media;
  }
  return content;
}
