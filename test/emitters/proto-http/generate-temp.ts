import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { nodeSpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";
import { SHARED } from "../../helpers/seeds.js";

export interface TempOutput {
  /** Absolute folder of the spec's generated files (import `${dir}/connect.ts` etc.). */
  readonly dir: string;
  /** Every generated file, path relative to the output root -> text (for type-checking). */
  readonly files: ReadonlyMap<string, string>;
  remove(): void;
}

/**
 * Run the whole pipeline for a proto spec (every registered artifact: types, binary codec, ProtoJSON, feed,
 * Connect) into a fresh temporary folder, so tests can import and run the generated code.
 */
export function generateToTemp(specFile: string): TempOutput {
  const out = generateSpec(
    { file: specFile, display: path.basename(specFile) },
    nodeSpecHost({ includeDirs: [path.join(SHARED, "corpus/proto")] }),
  );
  const root = mkdtempSync(path.join(tmpdir(), "specforge-proto-http-"));
  for (const file of out.files) {
    const target = path.join(root, file.path);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, file.content);
  }
  return {
    dir: path.join(root, out.dir),
    files: new Map(out.files.map((f) => [f.path, f.content])),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
