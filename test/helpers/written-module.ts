/**
 * Generated files written to a temporary folder for one describe block and imported from there (node runs the
 * TypeScript through vitest; the runtime import resolves by the project's alias), removed after the block.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";

/** Call inside a describe: writes `files` before its tests and imports `entry` (a path among them). */
export function importWrittenModule<M = Record<string, unknown>>(files: ReadonlyMap<string, string>, entry: string): () => M {
  let dir: string | undefined;
  let module: M | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(import.meta.dirname, ".tmp-"));
    for (const [p, content] of files) {
      mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
      writeFileSync(path.join(dir, p), content);
    }
    module = (await import(path.join(dir, entry))) as M;
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    if (module === undefined) throw new Error(`${entry} is not imported yet (use the module inside a test)`);
    return module;
  };
}
