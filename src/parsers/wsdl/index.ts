/** Entry point for WSDL 1.1 (and standalone XML Schema) specs. */
import type { IrDocument } from "../../ir/model.js";
import { Diagnostics } from "../diagnostics.js";
import { type SpecHost, originPath } from "../host.js";
import { attr } from "../xml/dom.js";
import { XSD_NS } from "../xsd/builtins.js";
import { parseXsd } from "../xsd/index.js";
import { identityConstraints } from "../xsd/identity.js";
import { lowerSchemas } from "../xsd/lower.js";
import { SchemaSet } from "../xsd/resolve.js";
import { WsdlSet, checkDefinitions } from "./load.js";
import { WsdlLowering, wsdlDoc } from "./lower.js";

/**
 * Parses a .wsdl (format "wsdl") or a standalone .xsd (format "xsd", no services) and everything it imports.
 * Throws SpecError ("file:line:col: message") for malformed, unsupported or inconsistent specs.
 */
export function parseWsdl(entryFile: string, host: SpecHost): IrDocument {
  const diagnostics = new Diagnostics();
  return diagnostics.document(() => parseWith(entryFile, host, diagnostics));
}

/** Reading errors end the parse; errors in declarations, messages, operations and bindings are collected. */
function parseWith(entryFile: string, host: SpecHost, diagnostics: Diagnostics): IrDocument {
  const schemas = new SchemaSet(host, diagnostics);
  const root = schemas.readFile(entryFile, undefined, "spec", entryFile);
  if (root.name.ns === XSD_NS && root.name.local === "schema") return parseXsd(entryFile, host);
  checkDefinitions(root);
  const set = new WsdlSet(schemas);
  set.load(root);
  schemas.drain();
  const lowered = lowerSchemas(schemas, entryFile);
  const services = new WsdlLowering(set, lowered.ctx, entryFile).services();
  // The embedded and imported schemas' xs:unique / xs:key / xs:keyref, checked on decode as for a plain .xsd.
  const identity = identityConstraints(lowered.ctx);
  const title = attr(root, "name");
  const doc = wsdlDoc(root);
  return {
    format: "wsdl",
    entry: originPath(entryFile, entryFile),
    files: schemas.files.map((f) => originPath(entryFile, f)),
    info: {
      ...(title !== undefined ? { title } : {}),
      ...(doc !== undefined ? { doc } : {}),
      namespaces: lowered.namespaces,
    },
    types: lowered.types,
    elements: lowered.elements,
    ...(identity.length > 0 ? { identityConstraints: identity } : {}),
    extensions: [],
    services,
  };
}
