import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { UsageError } from "../errors.js";

let counter = 0;

/**
 * The default export of specforge.config.{ts,mts,mjs,js}. Node 20 cannot import .ts itself, so a TypeScript config
 * is transpiled with the `typescript` package to a temporary .mjs beside the config (so its relative and package
 * imports resolve as they would for the .ts), imported, and removed. Without typescript installed it is imported as
 * is, which works under tsx or a Node that strips types.
 */
export async function importModuleConfig(file: string): Promise<unknown> {
  if (/\.m?ts$/i.test(file)) {
    const typescript = await loadTypeScript();
    if (typescript) return importTranspiled(file, typescript);
  }
  // The mtime in the URL makes a watch loop see an edited config instead of the module cache's copy.
  try {
    return defaultExport(await import(`${pathToFileURL(file).href}?mtime=${statSync(file).mtimeMs}`), file);
  } catch (e) {
    if ((e as { code?: string }).code === "ERR_UNKNOWN_FILE_EXTENSION") {
      throw new UsageError(`${file}: a TypeScript config needs the typescript package (or run under tsx); or use specforge.config.json`);
    }
    throw configError(file, e);
  }
}

async function loadTypeScript(): Promise<typeof import("typescript") | undefined> {
  try {
    return (await import("typescript")).default;
  } catch {
    return undefined;
  }
}

/** Transpile a TypeScript config to a temporary ESM module beside it and import that. */
export async function importTranspiled(file: string, typescript: typeof import("typescript")): Promise<unknown> {
  const { outputText } = typescript.transpileModule(readFileSync(file, "utf8"), {
    fileName: file,
    compilerOptions: { module: typescript.ModuleKind.ESNext, target: typescript.ScriptTarget.ES2022 },
  });
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}-${++counter}.mjs`);
  writeFileSync(temp, outputText);
  try {
    return defaultExport(await import(pathToFileURL(temp).href), file);
  } catch (e) {
    throw configError(file, e);
  } finally {
    rmSync(temp, { force: true });
  }
}

function defaultExport(mod: { default?: unknown }, file: string): unknown {
  if (mod.default === undefined) throw new UsageError(`${file}: the config module has no default export`);
  return mod.default;
}

function configError(file: string, e: unknown): Error {
  if (e instanceof UsageError) return e;
  return new UsageError(`${file}: cannot load config: ${(e as Error)?.message ?? String(e)}`);
}
