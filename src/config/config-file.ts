import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { UsageError } from "../errors.js";
import type { DatesMode, Int64Mode } from "../emitters/types/context.js";
import { specKindOf } from "../pipeline/load-spec.js";

export const CONFIG_FILE = "specforge.config.json";

/** One spec entry of the config file: a path, or an object with per-spec options. */
export type SpecEntry = string | { readonly input: string; readonly out?: string; readonly int64?: Int64Mode; readonly dates?: DatesMode };

/** The config file, as written by the user (paths relative to the config file's folder). */
export interface ConfigFile {
  /** Output root folder. Default "generated". */
  readonly out?: string;
  /** Spec files, or folders to scan for spec files. Default ["specs"]. */
  readonly specs?: string | readonly SpecEntry[];
  /** Extra folders searched for proto imports (like protoc -I). */
  readonly protoPaths?: readonly string[];
}

const INT64_MODES: readonly Int64Mode[] = ["bigint", "string", "number"];
const DATES_MODES: readonly DatesMode[] = ["string", "Date"];

export function readConfigFile(file: string): ConfigFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new UsageError(`${file}: cannot read config: ${(e as Error).message}`);
  }
  return validateConfig(raw, file);
}

function validateConfig(raw: unknown, file: string): ConfigFile {
  const fail = (msg: string): never => {
    throw new UsageError(`${file}: ${msg}`);
  };
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) fail("the config must be a JSON object");
  const obj = raw as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!["$schema", "out", "specs", "protoPaths"].includes(key)) fail(`unknown option "${key}"`);
  }
  if (obj.out !== undefined && typeof obj.out !== "string") fail(`"out" must be a string`);
  const specs = obj.specs;
  if (specs !== undefined && typeof specs !== "string") {
    if (!Array.isArray(specs)) fail(`"specs" must be a folder or a list of specs`);
    (specs as unknown[]).forEach((s, i) => {
      if (typeof s === "string") return;
      if (typeof s !== "object" || s === null) fail(`"specs[${i}]" must be a path or an object`);
      const e = s as Record<string, unknown>;
      if (typeof e.input !== "string") fail(`"specs[${i}].input" must be a path`);
      if (e.out !== undefined && typeof e.out !== "string") fail(`"specs[${i}].out" must be a string`);
      if (e.int64 !== undefined && !INT64_MODES.includes(e.int64 as Int64Mode)) {
        fail(`"specs[${i}].int64" must be one of ${INT64_MODES.join(", ")}`);
      }
      if (e.dates !== undefined && !DATES_MODES.includes(e.dates as DatesMode)) {
        fail(`"specs[${i}].dates" must be one of ${DATES_MODES.join(", ")}`);
      }
      for (const key of Object.keys(e)) if (!["input", "out", "int64", "dates"].includes(key)) fail(`unknown option "specs[${i}].${key}"`);
    });
  }
  if (obj.protoPaths !== undefined && (!Array.isArray(obj.protoPaths) || obj.protoPaths.some((p) => typeof p !== "string"))) {
    fail(`"protoPaths" must be a list of folders`);
  }
  return obj as ConfigFile;
}

/** Spec files in a folder (not recursive), sorted so output order never depends on the file system. */
export function specsInFolder(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => specKindOf(name) !== undefined && statSync(path.join(dir, name)).isFile())
    .sort()
    .map((name) => path.join(dir, name));
}

export function findConfig(cwd: string): string | undefined {
  const file = path.join(cwd, CONFIG_FILE);
  return existsSync(file) ? file : undefined;
}
