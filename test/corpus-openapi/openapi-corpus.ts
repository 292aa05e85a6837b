/**
 * The real-world OpenAPI documents of ../shared/corpus/openapi, and the check every one of them must pass: generate
 * every artifact, type-check the output under strict with 0 errors, and import every generated module in node.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect } from "vitest";
import { parse } from "yaml";
import { nodeSpecHost } from "../../src/parsers/host.js";
import { generateSpec } from "../../src/pipeline/generate-files.js";
import { REPO, SHARED } from "../helpers/seeds.js";
import { typecheckFiles } from "../helpers/typecheck.js";
import { pointRuntimeAt } from "../helpers/source-runtime.js";

export const OPENAPI_CORPUS = path.join(SHARED, "corpus", "openapi");
const RUNTIME = path.join(REPO, "src/runtime/index.ts");

/** Documents too large to share a worker with the rest of the suite: run in the "large" vitest project. */
export const LARGE_DOCUMENTS = ["stripe/spec3.json", "digitalocean/DigitalOcean-public.v2.yaml"];

/** Entry documents: files that declare `openapi:` or `swagger:` at the top level (the rest are fragments they $ref). */
export function corpusEntries(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ya?ml|json)$/.test(name) && isEntry(p)) out.push(path.relative(OPENAPI_CORPUS, p).split(path.sep).join("/"));
    }
  };
  walk(OPENAPI_CORPUS);
  return out;
}

function isEntry(file: string): boolean {
  const text = readFileSync(file, "utf8");
  const value: unknown = file.endsWith(".json") ? JSON.parse(text) : parse(text);
  return typeof value === "object" && value !== null && ("openapi" in value || "swagger" in value);
}

/** Generate `rel` with every artifact, type-check strict (0 errors) and import every generated module. */
export async function generateCompileAndImport(rel: string): Promise<void> {
  const file = path.join(OPENAPI_CORPUS, rel);
  const out = generateSpec({ file, display: rel, outDir: "out" }, nodeSpecHost({ cwd: OPENAPI_CORPUS }));
  expect(out.files.length).toBeGreaterThan(0);
  const files = new Map(out.files.map((f) => [f.path, f.content]));
  // The first errors are enough to say what broke; all of them can be thousands of lines.
  expect(typecheckFiles(files).slice(0, 20)).toEqual([]);

  const root = mkdtempSync(path.join(tmpdir(), "specforge-corpus-"));
  try {
    for (const [name, content] of files) {
      mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
      writeFileSync(path.join(root, name), pointRuntimeAt(content, RUNTIME));
    }
    for (const name of files.keys()) {
      if (!name.endsWith(".ts")) continue;
      const module = (await import(pathToFileURL(path.join(root, name)).href)) as Record<string, unknown>;
      expect(module, name).toBeTypeOf("object");
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
