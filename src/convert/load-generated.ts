import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { OutputFile } from "../pipeline/generate-files.js";

/** A generated spec's index module, as loaded: every export of every artifact. */
export type GeneratedModule = Readonly<Record<string, unknown>>;

/**
 * Turn a spec's generated TypeScript into importable JavaScript and import its index. The folder is keyed by a
 * hash of the generated text and the runtime it imports, so a second run on the same spec skips the transpiler
 * (and never even loads typescript). Folders are written under a temporary name and renamed into place: two
 * concurrent runs both succeed, one of them simply wins.
 */
export async function loadGenerated(files: readonly OutputFile[], dir: string, runtimeUrl: string, cacheRoot = defaultCacheRoot()): Promise<GeneratedModule> {
  const hash = createHash("sha256").update(runtimeUrl);
  for (const f of files) hash.update(`\0${f.path}\0${f.content}`);
  const target = path.join(cacheRoot, hash.digest("hex").slice(0, 24));
  if (!existsSync(path.join(target, "index.js"))) await writeTranspiled(files, dir, cacheRoot, target);
  return (await import(pathToFileURL(path.join(target, "index.js")).href)) as GeneratedModule;
}

async function writeTranspiled(files: readonly OutputFile[], dir: string, cacheRoot: string, target: string): Promise<void> {
  const ts = await loadTypeScript();
  mkdirSync(cacheRoot, { recursive: true });
  const work = mkdtempSync(path.join(cacheRoot, ".tmp-"));
  try {
    // The generated files are ES modules; this package.json makes Node read the .js files as such wherever the
    // cache lives.
    writeFileSync(path.join(work, "package.json"), '{ "type": "module" }\n');
    for (const f of files) {
      const rel = path.posix.relative(dir, f.path).replace(/\.ts$/, ".js");
      const out = ts.transpileModule(f.content, {
        fileName: f.path,
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false },
      });
      mkdirSync(path.dirname(path.join(work, rel)), { recursive: true });
      writeFileSync(path.join(work, rel), out.outputText);
    }
    try {
      renameSync(work, target);
    } catch (e) {
      // Another run renamed the same content into place first; its copy is as good as ours.
      if (!existsSync(path.join(target, "index.js"))) throw e;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

type TypeScriptModule = typeof import("typescript");

/** Loaded only on a cache miss: typescript takes a noticeable fraction of a second to import. */
async function loadTypeScript(): Promise<TypeScriptModule> {
  const mod = (await import("typescript")) as TypeScriptModule & { default?: TypeScriptModule };
  return mod.default ?? mod;
}

function defaultCacheRoot(): string {
  if (process.env.SPECFORGE_CACHE_DIR) return path.resolve(process.env.SPECFORGE_CACHE_DIR, "convert");
  // Per user, so that a shared /tmp never serves one user code another one wrote.
  const user = typeof process.getuid === "function" ? String(process.getuid()) : "user";
  return path.join(tmpdir(), `specforge-${user}`, "convert");
}
