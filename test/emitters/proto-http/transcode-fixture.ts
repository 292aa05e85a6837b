/** Generating the transcoding fixtures (fixtures/transcode, with the google/api declarations beside them). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { nodeSpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";
import { REPO, SHARED } from "../../helpers/seeds.js";

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures/transcode");

/** Generate a fixture (with the google/api declarations beside it) and import its index. */
export async function generateFixture(entry: string): Promise<{ gen: Record<string, any>; files: Map<string, string>; warnings: string[]; remove: () => void }> {
  const out = generateSpec(
    { file: path.join(FIXTURES, entry), display: entry, runtimeModule: path.join(REPO, "src/runtime/index.ts") },
    nodeSpecHost({ includeDirs: [FIXTURES, path.join(SHARED, "corpus/proto")] }),
  );
  const root = mkdtempSync(path.join(tmpdir(), "specforge-transcode-"));
  for (const f of out.files) {
    const file = path.join(root, f.path);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, f.content);
  }
  const gen = (await import(path.join(root, out.dir, "index.ts"))) as Record<string, any>;
  return {
    gen,
    files: new Map(out.files.map((f) => [f.path, f.content])),
    warnings: out.warnings.map((w) => `${w.file}:${w.line}:${w.column}: ${w.detail}`),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
