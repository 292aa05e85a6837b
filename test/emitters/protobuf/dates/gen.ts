/** Generates test/emitters/protobuf/dates/dates.proto with every artifact, in the given `dates` mode, into a temp folder. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { DatesMode, Int64Mode } from "../../../../src/emitters/types/context.js";
import type { IrDocument } from "../../../../src/ir/model.js";
import { nodeSpecHost } from "../../../../src/parsers/host.js";
import { generateSpec } from "../../../../src/pipeline/generate-files.js";
import { SHARED } from "../../../helpers/seeds.js";

export const DATES_PROTO = path.join(import.meta.dirname, "dates.proto");
export const CORPUS_PROTO = path.join(SHARED, "corpus/proto");

export interface DatesOutput {
  /** Output-relative path -> content (runtime imported as "specforge/runtime"). */
  readonly files: Map<string, string>;
  /** Folder of the spec's generated files, with the runtime imported from src/. */
  readonly dir: string;
  readonly doc: IrDocument;
}

export function generateDates(dates: DatesMode, int64: Int64Mode = "bigint", spec = DATES_PROTO): DatesOutput {
  const host = nodeSpecHost({ includeDirs: [CORPUS_PROTO] });
  const out = generateSpec({ file: spec, display: path.basename(spec), dates, int64 }, host);
  const files = new Map(out.files.map((f) => [f.path, f.content]));
  const runtime = path.join(import.meta.dirname, "../../../../src/runtime/index.ts");
  const live = generateSpec({ file: spec, display: path.basename(spec), dates, int64, runtimeModule: runtime }, host);
  const root = mkdtempSync(path.join(tmpdir(), "specforge-dates-"));
  for (const f of live.files) {
    const file = path.join(root, f.path);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, f.content);
  }
  return { files, dir: path.join(root, live.dir), doc: out.doc };
}
