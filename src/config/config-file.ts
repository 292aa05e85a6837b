import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { UsageError } from "../errors.js";
import { specKindOf } from "../pipeline/load-spec.js";
import { specKindOnDisk, worthSniffing } from "../pipeline/spec-kind.js";
import { importModuleConfig } from "./load-module-config.js";
import type { ConfigFile } from "./options.js";
import { configProblem } from "./validate-config.js";

export type { ConfigFile, SpecEntry } from "./options.js";

export const CONFIG_FILE = "specforge.config.json";
/** Config file names looked for in the working folder, in this order; at most one may exist. */
export const CONFIG_FILES = [CONFIG_FILE, "specforge.config.ts", "specforge.config.mts", "specforge.config.mjs", "specforge.config.js"];

/** A config file read and validated. */
export interface LoadedConfig {
  readonly file: string;
  readonly config: ConfigFile;
}

const isJson = (file: string) => path.extname(file).toLowerCase() === ".json";

/** Read and validate a JSON config. A module config (.ts/.js) needs importing: use loadConfigFile. */
export function readConfigFile(file: string): ConfigFile {
  if (!isJson(file)) {
    throw new UsageError(`${file}: a module config loads asynchronously: pass it to the CLI, or load it with loadConfigFile() first`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new UsageError(`${file}: cannot read config: ${(e as Error).message}`);
  }
  return validated(raw, file);
}

/** Read any config file: JSON directly, .ts/.mts/.mjs/.js by importing its default export. */
export async function loadConfigFile(file: string): Promise<LoadedConfig> {
  if (isJson(file)) return { file, config: readConfigFile(file) };
  if (!existsSync(file)) throw new UsageError(`${file}: cannot read config: no such file`);
  return { file, config: validated(await importModuleConfig(file), file) };
}

function validated(raw: unknown, file: string): ConfigFile {
  const problem = configProblem(raw);
  if (problem) throw new UsageError(`${file}: ${problem}`);
  return raw as ConfigFile;
}

/**
 * Spec files in a folder (not recursive), sorted so output order never depends on the file system: files whose
 * extension names a format, and .xml files whose root element is a WSDL or a schema.
 */
export function specsInFolder(dir: string): string[] {
  const isSpec = (name: string): boolean => {
    const full = path.join(dir, name);
    if (!statSync(full).isFile()) return false;
    return specKindOf(name) !== undefined || (worthSniffing(name) && specKindOnDisk(full) !== undefined);
  };
  return readdirSync(dir)
    .filter(isSpec)
    .sort()
    .map((name) => path.join(dir, name));
}

/** The config file in a folder, if any; two candidates at once is an error rather than a silent pick. */
export function findConfig(cwd: string): string | undefined {
  const found = CONFIG_FILES.map((name) => path.join(cwd, name)).filter((f) => existsSync(f));
  if (found.length > 1) {
    throw new UsageError(`${found.map((f) => path.basename(f)).join(" and ")} both exist in ${cwd}: keep one`);
  }
  return found[0];
}
