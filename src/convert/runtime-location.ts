import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { UsageError } from "../errors.js";

/**
 * The file URL of the compiled runtime that code generated for `convert` imports: this package's own
 * dist/runtime/index.js. Built or installed, this module sits in dist/convert/, next to dist/runtime/. Run from
 * src/ (tsx, vitest) it walks up to the package root and uses its dist/, which `npm run build` produces.
 */
export function runtimeModuleUrl(from: string = import.meta.url): string {
  const here = path.dirname(fileURLToPath(from));
  const sibling = path.join(here, "..", "runtime", "index.js");
  if (existsSync(sibling)) return pathToFileURL(sibling).href;
  for (let dir = here; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest) && isSpecforge(manifest)) {
      const built = path.join(dir, "dist", "runtime", "index.js");
      if (existsSync(built)) return pathToFileURL(built).href;
      throw new UsageError(`specforge convert needs the built runtime (${built}): run 'npm run build'`);
    }
    if (path.dirname(dir) === dir) throw new UsageError("specforge convert: cannot find the specforge runtime");
  }
}

function isSpecforge(manifest: string): boolean {
  try {
    return (JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === "specforge";
  } catch {
    return false;
  }
}
