/**
 * OpenAPI 3.0 / 3.1 parser: reads the entry file (YAML or JSON) and every file its `$ref`s reach, and lowers them
 * into one IR document. Errors are `SpecError`s located at the offending key (`file:line:col: message`).
 */
import type { IrDocument } from "../../ir/model.js";
import type { SpecHost } from "../host.js";
import type { OpenApiOptions } from "./context.js";
import { lowerOpenApi } from "./lower.js";

export type { JsonSchemaMode, OpenApiOptions } from "./context.js";

export function parseOpenApi(entryFile: string, host: SpecHost, options: OpenApiOptions = {}): IrDocument {
  return lowerOpenApi(entryFile, host, options);
}
