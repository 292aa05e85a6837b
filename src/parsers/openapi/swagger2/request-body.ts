/**
 * The request body of a 2.0 operation, which 2.0 spells as parameters: one `in: body` parameter (its schema, sent
 * as each media type the operation `consumes`), or `in: formData` parameters (the properties of an object sent as
 * application/x-www-form-urlencoded, or multipart/form-data when the operation consumes it or a parameter is a
 * `type: file`, which becomes a binary property).
 */
import type { Loc } from "../files.js";
import { bool, str, type JsonObject } from "../json.js";
import { childPointer } from "../pointer.js";
import { newObject } from "./converted-file.js";
import type { Swagger2Converter } from "./converter.js";
import { bodySchemaOf, copy, parameterSchema, styleOf } from "./parameters.js";
import { contentOf } from "./responses.js";

const FORM = "application/x-www-form-urlencoded";
const MULTIPART = "multipart/form-data";

/** A body or formData parameter: `site` is where it is listed (maybe a `$ref`), `param` the parameter itself. */
export interface BodyParameter {
  readonly site: Loc;
  readonly param: Loc;
}

export function bodyFromParameter(cv: Swagger2Converter, body: BodyParameter, at: string, consumes: readonly string[]): JsonObject {
  const { site, param } = body;
  const out = newObject();
  cv.mapOf(site.file).alias(at, site.pointer);
  copy(param, out, ["description", "required"]);
  const schema = bodySchemaOf(cv, param);
  if (param === site) {
    out["content"] = contentOf(cv, schema, childPointer(at, "content"), consumes);
  } else {
    // A body parameter defined elsewhere: its schema is converted where it is written and referenced from here
    // (wherever it went: under the request body of the operation that lists it inline, under components...).
    cv.schedule(param, "parameter");
    const content = newObject();
    for (const mediaType of consumes) {
      const media = newObject();
      media["schema"] = cv.refTo(site, schema, "");
      content[mediaType] = media;
    }
    out["content"] = content;
  }
  return out;
}

export function bodyFromFormData(cv: Swagger2Converter, params: readonly BodyParameter[], at: string, consumes: readonly string[]): JsonObject {
  const hasFile = params.some((p) => str(p.param, "type") === "file");
  const declared = consumes.filter((m) => m === FORM || m === MULTIPART);
  // Files only travel in multipart; otherwise what the operation consumes, or the form encoding 2.0 defaults to.
  const mediaTypes = hasFile ? [MULTIPART] : declared.length > 0 ? declared : [FORM];
  const out = newObject();
  cv.mapOf(params[0]!.site.file).alias(at, params[0]!.site.pointer);
  if (params.some((p) => bool(p.param, "required") === true)) out["required"] = true;

  const content = newObject();
  let first: string | undefined;
  for (const mediaType of mediaTypes) {
    const schemaAt = childPointer(childPointer(childPointer(at, "content"), mediaType), "schema");
    const media = newObject();
    if (first === undefined) {
      first = schemaAt;
      media["schema"] = formSchema(cv, params, schemaAt);
    } else {
      media["schema"] = cv.localRef(first);
    }
    if (mediaType === FORM) {
      const encoding = formEncoding(cv, params);
      if (encoding) media["encoding"] = encoding;
    }
    content[mediaType] = media;
  }
  out["content"] = content;
  return out;
}

/** `{type: object, properties: {<name>: schema}, required}`: one property per formData parameter. */
function formSchema(cv: Swagger2Converter, params: readonly BodyParameter[], at: string): JsonObject {
  const properties = newObject();
  const required: string[] = [];
  for (const { site, param } of params) {
    const name = str(param, "name")!;
    const propertyAt = childPointer(childPointer(at, "properties"), name);
    if (param === site) {
      const schema = parameterSchema(cv, param, propertyAt, `parameter "${name}"`);
      copy(param, schema, ["description"]);
      properties[name] = schema;
    } else {
      cv.schedule(param, "parameter");
      cv.mapOf(site.file).alias(propertyAt, site.pointer);
      properties[name] = cv.refTo(site, param, "/schema");
    }
    if (bool(param, "required") === true) required.push(name);
  }
  const schema = newObject();
  schema["type"] = "object";
  schema["properties"] = properties;
  if (required.length > 0) schema["required"] = required;
  return schema;
}

/** How array fields are written in a url-encoded form (3.0 `encoding`), from their collectionFormat. */
function formEncoding(cv: Swagger2Converter, params: readonly BodyParameter[]): JsonObject | undefined {
  const encoding = newObject();
  for (const { param } of params) {
    const style = styleOf(cv, param, "formData");
    if (!style) continue;
    const entry = newObject();
    entry["style"] = style.style;
    entry["explode"] = style.explode;
    encoding[str(param, "name")!] = entry;
  }
  return Object.keys(encoding).length > 0 ? encoding : undefined;
}
