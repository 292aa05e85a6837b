/**
 * Why a suite case cannot be written as a component of one OpenAPI document, decided from its schema. The rules are
 * the one list of reasons; not-applicable.ts lists the cases they exclude (the test checks the two agree, so a case
 * never drops out of the run unnoticed).
 */
import type { Draft } from "./suite.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Keywords whose value is a map of names to schemas, and keywords whose value is data, not a schema. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"]);
const DATA = new Set(["enum", "const", "default", "examples", "example", "$comment", "description", "title"]);

/** OpenAPI 3.0's Schema Object keywords (draft4 cases using others are not applicable as 3.0 documents). */
const OPENAPI_30 = new Set([
  "title", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern",
  "maxItems", "minItems", "uniqueItems", "maxProperties", "minProperties", "required", "enum", "type", "allOf", "oneOf",
  "anyOf", "not", "items", "properties", "additionalProperties", "description", "format", "default", "nullable",
  "discriminator", "readOnly", "writeOnly", "xml", "externalDocs", "example", "deprecated", "$ref",
  // Not a Schema Object keyword, but a place `$ref`s point into (any location of the document is a valid target).
  "definitions",
]);

/** Every keyword (with its value) of every subschema. */
function* keywords(schema: Json, root = true): Generator<[string, Json, boolean]> {
  if (Array.isArray(schema)) {
    for (const s of schema) yield* keywords(s, false);
    return;
  }
  if (schema === null || typeof schema !== "object") return;
  for (const [k, v] of Object.entries(schema)) {
    yield [k, v, root];
    if (DATA.has(k)) continue;
    if (SCHEMA_MAPS.has(k) && v !== null && typeof v === "object" && !Array.isArray(v)) {
      for (const sub of Object.values(v)) yield* keywords(sub, false);
    } else yield* keywords(v, false);
  }
}

export function notApplicableReason(draft: Draft, schema: unknown): string | undefined {
  for (const [k, v, root] of keywords(schema as Json)) {
    if (k === "$id" || (draft === "draft4" && k === "id" && typeof v === "string")) {
      return "base-URI resolution by $id: OpenAPI resolves $ref against the document's own URI";
    }
    if (k === "$anchor" || k === "$dynamicAnchor") return "$anchor/$dynamicAnchor targets: plain-name fragments that OpenAPI references do not resolve";
    if ((k === "$ref" || k === "$dynamicRef") && typeof v === "string" && !v.startsWith("#")) {
      return /^https?:/.test(v) ? "remote $ref by URL (a network fetch, or a metaschema)" : "relative $ref resolved against a $id";
    }
    if (k === "$vocabulary") return "$vocabulary: metaschema vocabularies, not a schema inside a document";
    if (k === "$schema" && !root) return "$schema in a subschema (a change of dialect inside one document)";
    if (draft === "draft4") {
      if (!OPENAPI_30.has(k) && !k.startsWith("$") && k !== "id") return `"${k}" is not an OpenAPI 3.0 Schema Object keyword`;
      if (k === "type" && (Array.isArray(v) || v === "null")) return "OpenAPI 3.0 has no type arrays and no \"null\" type (it has nullable)";
      if (k === "items" && Array.isArray(v)) return "OpenAPI 3.0 items is a single schema (no tuples)";
    }
  }
  return undefined;
}
