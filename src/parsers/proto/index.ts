/**
 * .proto (proto2 / proto3) front end: load the entry file and its imports, parse, resolve and lower to the IR.
 */
import type { IrDocument } from "../../ir/model.js";
import { Diagnostics } from "../diagnostics.js";
import { originPath, type SpecHost } from "../host.js";
import { loadProtoFiles } from "./load.js";
import { lowerProtoFiles } from "./lower.js";

export { parseProtoFile } from "./parser.js";
export { tokenize } from "./tokenizer.js";
export type { ProtoFile } from "./ast.js";

/**
 * Syntax errors and unreadable imports end the parse; semantic errors (unknown types, duplicate names and numbers,
 * bad options) are collected per declaration, and all of them are thrown together (SpecErrors).
 */
export function parseProto(entryFile: string, host: SpecHost): IrDocument {
  const diagnostics = new Diagnostics();
  return diagnostics.document(() => parseWith(entryFile, host, diagnostics));
}

function parseWith(entryFile: string, host: SpecHost, diagnostics: Diagnostics): IrDocument {
  const files = loadProtoFiles(entryFile, host);
  const originOf = (abs: string): string => originPath(entryFile, abs);
  const { types, extensions, services } = lowerProtoFiles(files, originOf, diagnostics);
  const namespaces: string[] = [];
  for (const f of files) if (f.ast.package !== "" && !namespaces.includes(f.ast.package)) namespaces.push(f.ast.package);
  return {
    format: "proto",
    entry: originOf(entryFile),
    files: files.map((f) => originOf(f.ast.path)),
    info: { namespaces, syntax: files[0]!.ast.syntax },
    types,
    elements: [],
    extensions,
    services,
  };
}
