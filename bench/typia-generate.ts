/**
 * typia's generator run as a project runs it (its CLI over a folder of `typia.createIs<T>()` calls), shared by the
 * suites that compare against typia. Side-effect free: importing this module runs nothing.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Write `source` as `<dir>/in/validators.ts` (after removing earlier `in/` and `out/`; the rest of `dir`, such as a
 * linked node_modules, stays), and let typia generate `<dir>/out/validators.ts`
 * from it with a tsconfig extending the repo's. Throws with typia's output if it fails.
 */
export function generateTypia(repo: string, dir: string, source: string): void {
  for (const sub of ["in", "out"]) rmSync(path.join(dir, sub), { recursive: true, force: true });
  mkdirSync(path.join(dir, "in"), { recursive: true });
  writeFileSync(path.join(dir, "in", "validators.ts"), source);
  const tsconfig = { extends: path.relative(dir, path.join(repo, "tsconfig.json")), compilerOptions: { rootDir: "in", noEmit: true }, include: ["in"] };
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig, null, 2) + "\n");
  const run = spawnSync("npx", ["--no-install", "typia", "generate", "--input", path.join(dir, "in"), "--output", path.join(dir, "out"), "--project", path.join(dir, "tsconfig.json")], {
    cwd: repo,
    encoding: "utf8",
    timeout: 120_000,
  });
  if (run.status !== 0) throw new Error(`typia generate failed (exit ${run.status}):\n${run.stdout}${run.stderr}`);
}

/** An import specifier from `<dir>/in` to a generated module under `<repo>/generated`. */
export function generatedImport(repo: string, dir: string, generatedPath: string): string {
  return path.relative(path.join(dir, "in"), path.join(repo, "generated", generatedPath)).split(path.sep).join("/");
}
