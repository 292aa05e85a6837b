import path from "node:path";
import ts from "typescript";
import type { OutputFile } from "../../src/pipeline/generate-files.js";

/**
 * Load generated TypeScript without touching the disk: each file is transpiled to CommonJS and evaluated with a
 * `require` that resolves the files' relative imports among themselves and `runtimeSpecifier` to an already loaded
 * runtime object. Nothing is registered in Node's module cache, so thousands of generated specs can be loaded in one
 * process and collected once dropped (src/convert/load-generated.ts, which caches on disk for the CLI, keeps every
 * loaded module alive for the life of the process).
 */
export function loadInMemory(files: readonly OutputFile[], dir: string, runtimeSpecifier: string, runtime: object): Record<string, unknown> {
  const sources = new Map<string, string>();
  for (const f of files) {
    if (!f.path.endsWith(".ts")) continue;
    sources.set(path.posix.relative(dir, f.path).replace(/\.ts$/, ".js"), f.content);
  }
  const loaded = new Map<string, { exports: Record<string, unknown> }>();
  const load = (rel: string): Record<string, unknown> => {
    const done = loaded.get(rel);
    if (done) return done.exports;
    const text = sources.get(rel);
    if (text === undefined) throw new Error(`generated code imports ${rel}, which was not generated`);
    const js = ts.transpileModule(text, {
      fileName: rel.replace(/\.js$/, ".ts"),
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, sourceMap: false, esModuleInterop: false },
    }).outputText;
    const module = { exports: {} as Record<string, unknown> };
    loaded.set(rel, module);
    const require = (spec: string): unknown => {
      // The everything-entry, or one of its areas ("specforge/runtime/xml"): each a part of `runtime`.
      if (spec === runtimeSpecifier || spec.startsWith(`${runtimeSpecifier}/`)) return runtime;
      if (spec.startsWith("./") || spec.startsWith("../")) return load(path.posix.normalize(path.posix.join(path.posix.dirname(rel), spec)));
      throw new Error(`generated code imports ${spec}`);
    };
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the code is our own generator's output
    new Function("exports", "require", "module", js)(module.exports, require, module);
    return module.exports;
  };
  return load("index.js");
}
