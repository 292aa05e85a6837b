/** Entry point for a standalone XML Schema file. */
import type { IrDocument } from "../../ir/model.js";
import { Diagnostics } from "../diagnostics.js";
import { type SpecHost, originPath } from "../host.js";
import { specError } from "../xml/dom.js";
import { XSD_NS } from "./builtins.js";
import { lowerSchemas } from "./lower.js";
import { identityConstraints } from "./identity.js";
import { SchemaSet } from "./resolve.js";

export { SchemaSet } from "./resolve.js";
export { lowerSchemas } from "./lower.js";

/** Reading errors end the parse; errors in declarations are collected and thrown together (SpecErrors). */
export function parseXsd(entryFile: string, host: SpecHost): IrDocument {
  const diagnostics = new Diagnostics();
  return diagnostics.document(() => parseWith(entryFile, host, diagnostics));
}

function parseWith(entryFile: string, host: SpecHost, diagnostics: Diagnostics): IrDocument {
  const set = new SchemaSet(host, diagnostics);
  const root = set.readFile(entryFile, undefined, "schema", entryFile);
  if (root.name.ns !== XSD_NS || root.name.local !== "schema") {
    throw specError(root, `expected xsd:schema, found <${root.name.local}> (${root.name.ns || "no namespace"})`);
  }
  set.addSchema(root);
  set.drain();
  const lowered = lowerSchemas(set, entryFile);
  const identity = identityConstraints(lowered.ctx);
  return {
    format: "xsd",
    entry: originPath(entryFile, entryFile),
    files: set.files.map((f) => originPath(entryFile, f)),
    info: { namespaces: lowered.namespaces },
    types: lowered.types,
    elements: lowered.elements,
    ...(identity.length > 0 ? { identityConstraints: identity } : {}),
    extensions: [],
    services: [],
  };
}
