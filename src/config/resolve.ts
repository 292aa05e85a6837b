import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { UsageError } from "../errors.js";
import { nodeSpecHost, type SpecHost } from "../parsers/host.js";
import type { SpecInput } from "../pipeline/generate-files.js";
import { findConfig, readConfigFile, specsInFolder, type SpecEntry } from "./config-file.js";

/** What `generate` and `check` take: spec paths (files or folders) or, when none are given, the config file. */
export interface RunOptions {
  readonly cwd?: string;
  readonly specs?: readonly string[];
  readonly out?: string;
  readonly config?: string;
  readonly protoPaths?: readonly string[];
}

export interface ResolvedRun {
  readonly outRoot: string;
  readonly specs: readonly SpecInput[];
  readonly host: SpecHost;
}

export function resolveRun(options: RunOptions): ResolvedRun {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const useConfig = options.config !== undefined || !options.specs || options.specs.length === 0;
  const configFile = options.config ? path.resolve(cwd, options.config) : useConfig ? findConfig(cwd) : undefined;
  const config = configFile ? readConfigFile(configFile) : {};
  const base = configFile ? path.dirname(configFile) : cwd;

  const entries: SpecEntry[] =
    options.specs && options.specs.length > 0
      ? [...options.specs]
      : typeof config.specs === "string"
        ? [config.specs]
        : config.specs
          ? [...config.specs]
          : ["specs"];
  const entryBase = options.specs && options.specs.length > 0 ? cwd : base;

  const specs: SpecInput[] = [];
  for (const entry of entries) {
    const input = typeof entry === "string" ? entry : entry.input;
    const abs = path.resolve(entryBase, input);
    if (!existsSync(abs)) throw new UsageError(`${input}: no such spec file or folder`);
    const files = statSync(abs).isDirectory() ? specsInFolder(abs) : [abs];
    for (const file of files) {
      specs.push({
        file,
        display: path.relative(cwd, file).split(path.sep).join("/"),
        outDir: typeof entry === "string" ? undefined : entry.out,
        int64: typeof entry === "string" ? undefined : entry.int64,
        dates: typeof entry === "string" ? undefined : entry.dates,
      });
    }
  }
  if (specs.length === 0) throw new UsageError("no spec files found (give spec paths or a specforge.config.json)");
  const outRoot = path.resolve(options.out !== undefined ? cwd : base, options.out ?? config.out ?? "generated");
  const protoPaths = [...(options.protoPaths ?? []).map((p) => path.resolve(cwd, p)), ...(config.protoPaths ?? []).map((p) => path.resolve(base, p))];
  return { outRoot, specs, host: nodeSpecHost({ cwd, includeDirs: protoPaths }) };
}
