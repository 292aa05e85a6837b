import path from "node:path";
import { SpecError, UsageError } from "../errors.js";
import type { IrDocument } from "../ir/model.js";
import type { SpecHost } from "../parsers/host.js";
import { parseOpenApi } from "../parsers/openapi/index.js";
import { parseProto } from "../parsers/proto/index.js";
import { parseWsdl } from "../parsers/wsdl/index.js";

export type SpecKind = "wsdl" | "proto" | "openapi";

/** Which parser reads a file, by its extension. */
export function specKindOf(file: string): SpecKind | undefined {
  const ext = path.extname(file).toLowerCase();
  if (ext === ".wsdl" || ext === ".xsd") return "wsdl";
  if (ext === ".proto") return "proto";
  if (ext === ".yaml" || ext === ".yml" || ext === ".json") return "openapi";
  return undefined;
}

/** read -> lower: one spec file (and whatever it imports) into the IR. */
export function loadSpec(absoluteFile: string, host: SpecHost): IrDocument {
  const kind = specKindOf(absoluteFile);
  if (!kind) {
    throw new UsageError(`${host.displayPath(absoluteFile)}: unknown spec type (expected .wsdl, .xsd, .proto, .yaml, .yml or .json)`);
  }
  try {
    host.readFile(absoluteFile);
  } catch (e) {
    throw new UsageError(`${host.displayPath(absoluteFile)}: cannot read spec: ${(e as Error).message}`);
  }
  if (kind === "wsdl") return parseWsdl(absoluteFile, host);
  if (kind === "proto") return parseProto(absoluteFile, host);
  return parseOpenApi(absoluteFile, host);
}

export function isSpecError(e: unknown): e is SpecError | UsageError {
  return e instanceof SpecError || e instanceof UsageError;
}
