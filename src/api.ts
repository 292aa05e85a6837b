import path from "node:path";
import { resolveRun, type RunOptions } from "./config/resolve.js";
import type { IrDocument } from "./ir/model.js";
import { nodeSpecHost } from "./parsers/host.js";
import { generateSpec, type SpecOutput } from "./pipeline/generate-files.js";
import { loadSpec } from "./pipeline/load-spec.js";
import { compareWithDisk, writeOutputs, type FileDifference } from "./pipeline/write-output.js";

export type { RunOptions } from "./config/resolve.js";
export type { FileDifference } from "./pipeline/write-output.js";

export interface GenerateResult {
  readonly outRoot: string;
  readonly outputs: readonly SpecOutput[];
  /** Output folders that were (re)written; up-to-date ones are left alone. */
  readonly written: readonly string[];
}

/** Generate every spec in memory first (a spec error stops everything before anything is written), then write. */
export function generate(options: RunOptions & { readonly dryRun?: boolean } = {}): GenerateResult {
  const run = resolveRun(options);
  const outputs = run.specs.map((s) => generateSpec(s, run.host));
  const written = options.dryRun ? [] : writeOutputs(run.outRoot, outputs);
  return { outRoot: run.outRoot, outputs, written };
}

export interface CheckResult {
  readonly outRoot: string;
  readonly differences: readonly FileDifference[];
}

/** What `generate` would change under the output root; empty when everything is up to date. */
export function check(options: RunOptions = {}): CheckResult {
  const run = resolveRun(options);
  const outputs = run.specs.map((s) => generateSpec(s, run.host));
  return { outRoot: run.outRoot, differences: compareWithDisk(run.outRoot, outputs) };
}

/** The IR of one spec. */
export function inspect(spec: string, options: { cwd?: string; protoPaths?: readonly string[] } = {}): IrDocument {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const includeDirs = (options.protoPaths ?? []).map((p) => path.resolve(cwd, p));
  return loadSpec(path.resolve(cwd, spec), nodeSpecHost({ cwd, includeDirs }));
}
