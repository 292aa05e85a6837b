/**
 * Swagger 2.0 input: each file of the document is converted into the OpenAPI 3.0 shape the lowering reads, with a
 * pointer map so every error still names the line and column of the 2.0 file the author wrote. Converting (rather
 * than lowering 2.0 on its own) keeps one lowering for both, so 2.0 documents get every fix and check 3.x gets.
 */
import type { SpecHost } from "../../host.js";
import type { Loc } from "../files.js";
import { isObject } from "../json.js";
import type { JsonValue, ParsedFile } from "../read.js";
import { Swagger2Converter, type NodeKind } from "./converter.js";
import { convertRoot } from "./document.js";
import { convertPathItem } from "./operations.js";
import { convertParameter } from "./parameters.js";
import { convertResponse } from "./responses.js";
import { convertSchema } from "./schema.js";

/** A document that says `swagger: ...` and not `openapi: ...`. */
export function isSwagger2(value: JsonValue): boolean {
  return isObject(value) && Object.hasOwn(value, "swagger") && !Object.hasOwn(value, "openapi");
}

/** The converted files (entry first, then every file its `$ref`s reach), ready to seed the lowering's file set. */
export function convertSwagger2(entry: ParsedFile, host: SpecHost): ParsedFile[] {
  const cv = new Swagger2Converter(entry, host);
  cv.setRoot(entry, convertRoot(cv, cv.rootOf(entry)));
  const convert: Record<NodeKind, (loc: Loc, at: string) => JsonValue> = {
    schema: (loc) => convertSchema(cv, loc),
    parameter: (loc, at) => convertParameter(cv, loc, at),
    // A response reached through a `$ref` has no operation of its own: its content takes the document's `produces`.
    response: (loc, at) => convertResponse(cv, loc, at, cv.produces),
    pathItem: (loc, at) => convertPathItem(cv, loc, at),
  };
  cv.drain((loc, kind, at) => convert[kind](loc, at));
  return cv.finish();
}
