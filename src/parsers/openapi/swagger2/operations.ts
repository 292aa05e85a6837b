/**
 * Swagger 2.0 path items and operations -> OpenAPI 3.0 ones. Parameters are split by what they are in 3.0: query,
 * header and path parameters stay parameters; body and formData parameters (path-level ones inherited, overridden
 * by an operation's own with the same name and location) become the request body. `consumes` / `produces` of the
 * operation, else of the document, give the media types of the body and of the responses.
 */
import type { Loc } from "../files.js";
import { child, entries, isObject, items, str, type JsonObject } from "../json.js";
import { childPointer } from "../pointer.js";
import type { JsonValue } from "../read.js";
import { deepClone, newObject } from "./converted-file.js";
import type { Swagger2Converter } from "./converter.js";
import { convertParameter, locationOf } from "./parameters.js";
import { bodyFromFormData, bodyFromParameter, type BodyParameter } from "./request-body.js";
import { convertResponses } from "./responses.js";

const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch"]);
/** Operation fields that mean the same in 3.0 and are copied as they are. */
const COPIED = ["tags", "summary", "description", "externalDocs", "operationId", "deprecated", "security"];

/** A path item (or a `$ref` to one, as 2.0 allows) converted in place at `at`. */
export function convertPathItem(cv: Swagger2Converter, loc: Loc, at: string): JsonValue {
  if (child(loc, "$ref")) return cv.refNode(loc, "pathItem");
  if (!isObject(loc.value)) return cv.fail(loc, "a path item must be an object");
  const out = newObject();
  const shared = splitParameters(cv, child(loc, "parameters"), at);
  setParameters(out, shared);
  for (const [key, sub] of entries(loc)) {
    if (METHODS.has(key)) out[key] = convertOperation(cv, sub, childPointer(at, key), shared.body);
    else if (key.startsWith("x-")) out[key] = deepClone(sub.value);
  }
  return out;
}

function convertOperation(cv: Swagger2Converter, loc: Loc, at: string, inherited: readonly BodyParameter[]): JsonObject {
  if (!isObject(loc.value)) return cv.fail(loc, "an operation must be an object");
  const out = newObject();
  for (const key of COPIED) {
    const sub = child(loc, key);
    if (sub) out[key] = deepClone(sub.value);
  }
  const own = splitParameters(cv, child(loc, "parameters"), at);
  setParameters(out, own);

  const body = mergeBodyParameters(inherited, own.body);
  const bodies = body.filter((b) => str(b.param, "in") === "body");
  const formData = body.filter((b) => str(b.param, "in") === "formData");
  if (bodies.length > 1) cv.fail(bodies[1]!.site, "an operation can have only one body parameter");
  if (bodies.length > 0 && formData.length > 0) cv.fail(formData[0]!.site, "an operation cannot have both a body parameter and formData parameters");
  const consumes = cv.mediaTypes(child(loc, "consumes")) ?? cv.consumes;
  const bodyAt = childPointer(at, "requestBody");
  if (bodies[0]) out["requestBody"] = bodyFromParameter(cv, bodies[0], bodyAt, consumes);
  else if (formData.length > 0) out["requestBody"] = bodyFromFormData(cv, formData, bodyAt, consumes);

  const responses = child(loc, "responses");
  if (responses) {
    const produces = cv.mediaTypes(child(loc, "produces")) ?? cv.produces;
    out["responses"] = convertResponses(cv, responses, childPointer(at, "responses"), produces);
  }
  for (const [key, sub] of entries(loc)) if (key.startsWith("x-")) out[key] = deepClone(sub.value);
  return out;
}

/**
 * Where the body and formData parameters written in an operation (or path item) are kept, converted, in the 3.0
 * document: not parameters there, but a `$ref` elsewhere may still point at one (the lowering ignores `x-` keys).
 */
const MOVED_BODY_PARAMETERS = "x-specforge-swagger2-body-parameters";

interface SplitParameters {
  readonly parameters: JsonValue[];
  /** Converted inline body / formData parameters, kept under MOVED_BODY_PARAMETERS. */
  readonly moved: JsonValue[];
  readonly body: BodyParameter[];
}

/**
 * The `parameters` list of the operation or path item converted at `at`, split into 3.0 parameters (converted, or
 * `$ref`s to converted ones, at their new index) and the body / formData parameters (followed through `$ref`s to
 * see what they are).
 */
function splitParameters(cv: Swagger2Converter, list: Loc | undefined, at: string): SplitParameters {
  const split: SplitParameters = { parameters: [], moved: [], body: [] };
  if (list && !Array.isArray(list.value)) return cv.fail(list, "parameters must be a list");
  for (const site of items(list)) {
    const param = cv.deref(site);
    if (!isObject(param.value)) return cv.fail(param, "a parameter must be an object");
    const where = locationOf(cv, param);
    const isBody = where === "body" || where === "formData";
    if (isBody && str(param, "name") === undefined) cv.fail(param, "a parameter needs a name");
    if (isBody) split.body.push({ site, param });
    if (isBody && site !== param) continue;
    const list = isBody ? split.moved : split.parameters;
    const converted = childPointer(childPointer(at, isBody ? MOVED_BODY_PARAMETERS : "parameters"), list.length);
    // Indices shift (body parameters leave the list): `$ref`s to a parameter of this list follow it to its new place.
    cv.mapOf(site.file).relocate(site.pointer, converted);
    list.push(convertParameter(cv, site, converted));
  }
  return split;
}

function setParameters(out: JsonObject, split: SplitParameters): void {
  if (split.parameters.length > 0) out["parameters"] = split.parameters;
  if (split.moved.length > 0) out[MOVED_BODY_PARAMETERS] = split.moved;
}

/** Path-level body parameters, replaced by the operation's own with the same name and location. */
function mergeBodyParameters(inherited: readonly BodyParameter[], own: readonly BodyParameter[]): BodyParameter[] {
  const key = (b: BodyParameter) => `${str(b.param, "in")}:${str(b.param, "name")}`;
  const overridden = new Set(own.map(key));
  return [...inherited.filter((b) => !overridden.has(key(b))), ...own];
}
