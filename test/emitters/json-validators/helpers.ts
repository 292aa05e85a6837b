/** Generate types/validate/json for an inline OpenAPI spec into a temporary folder, type-check and import them. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { DatesMode, Int64Mode } from "../../../src/emitters/types/context.js";
import { memorySpecHost, nodeSpecHost } from "../../../src/parsers/host.js";
import { generateSpec, type OutputFile } from "../../../src/pipeline/generate-files.js";
import { REPO } from "../../helpers/seeds.js";
import { typecheckFiles } from "../../helpers/typecheck.js";
import { pointRuntimeAt } from "../../helpers/source-runtime.js";

export type Module = Record<string, (...args: never[]) => unknown>;

export interface Generated {
  readonly files: ReadonlyMap<string, string>;
  readonly validate: Module;
  readonly json: Module;
}

const RUNTIME = path.join(REPO, "src/runtime/index.ts");
let counter = 0;

/** Only our artifacts' files (and types.ts they import), so other emitters' work in progress cannot break these tests. */
function ours(files: readonly OutputFile[]): OutputFile[] {
  return files.filter((f) => /\/(types|validate|json)\.ts$/.test(f.path));
}

async function load(files: readonly OutputFile[], runtimeModule: string, dir: string): Promise<Generated> {
  for (const f of files) {
    const file = path.join(dir, f.path);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, runtimeModule === "specforge/runtime" ? pointRuntimeAt(f.content, RUNTIME) : f.content.replaceAll(JSON.stringify(runtimeModule), JSON.stringify(RUNTIME)));
  }
  const sub = path.dirname(files[0]!.path);
  return {
    files: new Map(files.map((f) => [f.path, f.content])),
    validate: (await import(pathToFileURL(path.join(dir, sub, "validate.ts")).href)) as Module,
    json: (await import(pathToFileURL(path.join(dir, sub, "json.ts")).href)) as Module,
  };
}

export interface Modes {
  readonly int64?: Int64Mode;
  readonly dates?: DatesMode;
  readonly formats?: "assert" | "annotate";
  readonly jsonSchema?: "openapi" | "exact";
}

export async function generateInline(yaml: string, modes: Modes = {}): Promise<Generated> {
  const spec = { file: "/spec/api.yaml", display: "api.yaml", outDir: `api${++counter}`, ...modes };
  const out = generateSpec(spec, memorySpecHost({ "/spec/api.yaml": yaml }));
  return load(ours(out.files), "specforge/runtime", mkdtempSync(path.join(os.tmpdir(), "specforge-json-")));
}

export async function generateRepoSpec(spec: string): Promise<Generated> {
  const out = generateSpec({ file: path.join(REPO, spec), display: spec }, nodeSpecHost({ cwd: REPO }));
  return load(ours(out.files), "specforge/runtime", mkdtempSync(path.join(os.tmpdir(), "specforge-json-")));
}

/** Strict type-check diagnostics of the generated files. */
export function diagnostics(g: Generated): string[] {
  return typecheckFiles(g.files);
}

export function v31(body: string): string {
  return `openapi: 3.1.0\ninfo: {title: T, version: "1"}\n${body}`;
}

export function fn<T extends (...args: never[]) => unknown>(m: Module, name: string): T {
  const f = m[name];
  if (typeof f !== "function") throw new Error(`no generated function ${name}; have ${Object.keys(m).join(", ")}`);
  return f as unknown as T;
}
