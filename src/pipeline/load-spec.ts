import { SpecError, UsageError } from "../errors.js";
import type { IrDocument } from "../ir/model.js";
import type { SpecHost } from "../parsers/host.js";
import { parseOpenApi, type OpenApiOptions } from "../parsers/openapi/index.js";
import { parseProto } from "../parsers/proto/index.js";
import { parseWsdl } from "../parsers/wsdl/index.js";
import { type SpecKind, specKindByExtension, specKindOfText } from "./spec-kind.js";

export type { SpecKind } from "./spec-kind.js";

/** Which parser reads a file, by its extension alone (undefined: the content decides, see specKindOfFile). */
export function specKindOf(file: string): SpecKind | undefined {
  return specKindByExtension(file);
}

/** Which parser reads a file: its extension when that names a format, else its content. Throws UsageError when neither says. */
export function specKindOfFile(absoluteFile: string, host: SpecHost): SpecKind {
  const byExtension = specKindByExtension(absoluteFile);
  let text: string;
  try {
    text = host.readFile(absoluteFile);
  } catch (e) {
    throw new UsageError(`${host.displayPath(absoluteFile)}: cannot read spec: ${(e as Error).message}`);
  }
  if (byExtension) return byExtension;
  const sniffed = specKindOfText(text);
  if (sniffed.kind) return sniffed.kind;
  throw new UsageError(
    `${host.displayPath(absoluteFile)}: unknown spec type: ${sniffed.why} (by extension: .wsdl, .xsd, .proto, .yaml, .yml or .json)`,
  );
}

/** read -> lower: one spec file (and whatever it imports) into the IR. */
export function loadSpec(absoluteFile: string, host: SpecHost, options: OpenApiOptions = {}): IrDocument {
  const kind = specKindOfFile(absoluteFile, host);
  if (kind === "wsdl") return parseWsdl(absoluteFile, host);
  if (kind === "proto") return parseProto(absoluteFile, host);
  return parseOpenApi(absoluteFile, host, options);
}

export function isSpecError(e: unknown): e is SpecError | UsageError {
  return e instanceof SpecError || e instanceof UsageError;
}
