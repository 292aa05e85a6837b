/**
 * An inline XSD through the whole XML pipeline in memory: generated files, their strict tsc diagnostics, and the
 * generated module loaded (conformance/xsd/load-in-memory.ts) against the runtime's source.
 */
import path from "node:path";
import type { IrDocument } from "../../src/ir/model.js";
import { loadInMemory } from "../../conformance/xsd/load-in-memory.js";
import { memorySpecHost } from "../../src/parsers/host.js";
import { generateSpec } from "../../src/pipeline/generate-files.js";
import * as runtime from "../../src/runtime/index.js";
import { typecheckFiles } from "./typecheck.js";

export interface InlineXsd {
  /** The IR the files were generated from. */
  readonly doc: IrDocument;
  /** Generated .ts files by name (xml.ts, validate.ts, ...). */
  readonly files: ReadonlyMap<string, string>;
  typecheck(): string[];
  load(): Record<string, unknown>;
}

/** `others`: further files beside the schema (included, imported, redefined), by name. */
export function generateInlineXsd(schema: string, others: Readonly<Record<string, string>> = {}): InlineXsd {
  const file = "/spec/inline.xsd";
  const files = Object.fromEntries([[file, schema], ...Object.entries(others).map(([name, text]) => [`/spec/${name}`, text])]);
  const out = generateSpec({ file, display: "inline.xsd", outDir: "out" }, memorySpecHost(files));
  const ts = out.files.filter((f) => f.path.endsWith(".ts"));
  const generated = new Map(ts.map((f) => [path.posix.relative(out.dir, f.path), f.content] as const));
  return {
    doc: out.doc,
    files: generated,
    typecheck: () => typecheckFiles(generated),
    load: () => loadInMemory(ts, out.dir, "specforge/runtime", runtime),
  };
}
