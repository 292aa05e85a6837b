import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { catalogFile, resolveRun, type ResolvedRun, type RunOptions } from "./config/resolve.js";
import type { IrDocument } from "./ir/model.js";
import { nodeSpecHost } from "./parsers/host.js";
import { unifiedDiff } from "./pipeline/diff.js";
import { elapsed, type EventSink } from "./pipeline/events.js";
import type { SpecOutput } from "./pipeline/generate-files.js";
import { RunErrors } from "./errors.js";
import { isSpecError, loadSpec } from "./pipeline/load-spec.js";
import { errorEvents, specFailure, type SpecFailure } from "./pipeline/spec-failures.js";
import { runSpec } from "./pipeline/run-spec.js";
import { strictFailure } from "./pipeline/spec-warnings.js";
import { Templates } from "./pipeline/templates.js";
import { runSpecsInWorkers } from "./pipeline/worker-pool.js";
import { compareWithDisk, writeOutputs, type FileDifference } from "./pipeline/write-output.js";

export type { RunOptions } from "./config/resolve.js";
export type { FileDifference } from "./pipeline/write-output.js";
export type { PipelineEvent, EventSink } from "./pipeline/events.js";

export interface GenerateResult {
  readonly outRoot: string;
  readonly outputs: readonly SpecOutput[];
  /** Output folders that were (re)written; up-to-date ones are left alone. */
  readonly written: readonly string[];
}

/** Progress for library callers: every PipelineEvent of the run (see src/pipeline/events.ts). */
export interface RunHooks {
  readonly onEvent?: EventSink;
}

/**
 * Every spec in memory first (one run's templates and README), timing each. A spec that fails does not stop the
 * others: each of its errors becomes an `error` event, and once every spec has been checked the run ends with a
 * `done` event (`ok: false`) and throws RunErrors, before anything is written.
 */
function generateAll(run: ResolvedRun, onEvent: EventSink | undefined, started: number): SpecOutput[] {
  const templates = new Templates(run.templates);
  const outputs: SpecOutput[] = [];
  const failures: SpecFailure[] = [];
  for (const spec of run.specs) {
    try {
      const { output } = runSpec(run, spec, onEvent, templates);
      const strict = run.strict ? strictFailure(spec.display, output.warnings) : undefined;
      if (strict) {
        failures.push(strict);
        for (const event of errorEvents(strict)) onEvent?.(event);
        continue;
      }
      outputs.push(output);
    } catch (e) {
      if (!isSpecError(e)) throw e;
      const failure = specFailure(spec.display, e);
      failures.push(failure);
      for (const event of errorEvents(failure)) onEvent?.(event);
    }
  }
  if (failures.length === 0) return outputs;
  const error = new RunErrors(failures);
  onEvent?.({ type: "done", specs: run.specs.length, written: 0, differences: 0, ms: elapsed(started), ok: false, errors: error.errorCount });
  throw error;
}

/**
 * Generate every spec in memory first, then write. When a spec has errors, every spec is still checked, nothing is
 * written, and RunErrors (every error of every spec) is thrown.
 */
export function generate(options: RunOptions & RunHooks & { readonly dryRun?: boolean } = {}): GenerateResult {
  const started = performance.now();
  const run = resolveRun(options);
  options.onEvent?.({ type: "start", command: "generate", specs: run.specs.length });
  return writeGenerated(run, generateAll(run, options.onEvent, started), options, started);
}

/**
 * generate with the specs spread over `jobs` worker threads (jobs 1: the serial generate). Same events in the same
 * order, same output bytes, same first error; nothing is written unless every spec succeeded.
 */
export async function generateInWorkers(options: RunOptions & RunHooks & { readonly dryRun?: boolean; readonly jobs?: number } = {}): Promise<GenerateResult> {
  if ((options.jobs ?? 1) <= 1) return generate(options);
  const started = performance.now();
  const run = resolveRun(options);
  options.onEvent?.({ type: "start", command: "generate", specs: run.specs.length });
  let runs: Awaited<ReturnType<typeof runSpecsInWorkers>>;
  try {
    runs = await runSpecsInWorkers(run, options.jobs!, options.onEvent);
  } catch (e) {
    // The pool has reported each error as an event; the run ends as a serial one does.
    if (e instanceof RunErrors) options.onEvent?.({ type: "done", specs: run.specs.length, written: 0, differences: 0, ms: elapsed(started), ok: false, errors: e.errorCount });
    throw e;
  }
  return writeGenerated(run, runs.map((r) => r.output), options, started);
}

/** The write half of generate: swap in the changed folders (unless dryRun), then `written` and `done` events. */
function writeGenerated(run: ResolvedRun, outputs: SpecOutput[], options: RunOptions & RunHooks & { readonly dryRun?: boolean }, started: number): GenerateResult {
  const onEvent = options.onEvent;
  const writeStarted = performance.now();
  const written = options.dryRun ? [] : writeOutputs(run.outRoot, outputs, { force: options.force, display: (f) => run.host.displayPath(f) });
  const writeMs = elapsed(writeStarted);
  for (const o of outputs) {
    const state = written.includes(o.dir) ? "wrote" : "unchanged";
    onEvent?.({ type: "written", spec: o.spec.display, dir: o.dir, files: o.files.length, state, ms: state === "wrote" ? writeMs : 0 });
  }
  onEvent?.({ type: "done", specs: outputs.length, written: written.length, differences: 0, ms: elapsed(started), ok: true, errors: 0, warnings: warningCount(outputs) });
  return { outRoot: run.outRoot, outputs, written };
}

function warningCount(outputs: readonly SpecOutput[]): number {
  return outputs.reduce((n, o) => n + o.warnings.length, 0);
}

/** A difference between disk and what generate would write; stale files carry a unified diff (disk -> generated). */
export interface CheckDifference extends FileDifference {
  readonly diff?: string;
}

export interface CheckResult {
  readonly outRoot: string;
  readonly differences: readonly CheckDifference[];
}

/**
 * What `generate` would change under the output root; empty when everything is up to date. Diff headers name the
 * files as `a/<out>/<path>` and `b/<out>/<path>`, `<out>` being the output root relative to the working folder.
 */
export function check(options: RunOptions & RunHooks = {}): CheckResult {
  const started = performance.now();
  const run = resolveRun(options);
  const onEvent = options.onEvent;
  onEvent?.({ type: "start", command: "check", specs: run.specs.length });
  const outputs = generateAll(run, onEvent, started);
  const wanted = new Map(outputs.flatMap((o) => o.files.map((f) => [f.path, f.content] as const)));
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const shown = path.relative(cwd, run.outRoot).split(path.sep).join("/");
  const name = (p: string) => (shown === "" ? p : `${shown}/${p}`);
  const differences = compareWithDisk(run.outRoot, outputs, { display: (f) => run.host.displayPath(f) }).map((d): CheckDifference => {
    onEvent?.({ type: "difference", path: d.path, state: d.state });
    if (d.state !== "stale" && !(d.state === "unowned" && wanted.has(d.path) && isFile(path.join(run.outRoot, d.path)))) return d;
    const disk = readFileSync(path.join(run.outRoot, d.path), "utf8");
    return { ...d, diff: unifiedDiff(disk, wanted.get(d.path)!, `a/${name(d.path)}`, `b/${name(d.path)}`) };
  });
  const ok = differences.length === 0;
  onEvent?.({ type: "done", specs: outputs.length, written: 0, differences: differences.length, ms: elapsed(started), ok, errors: 0, warnings: warningCount(outputs) });
  return { outRoot: run.outRoot, differences };
}

/** The IR of one spec. */
export function inspect(spec: string, options: { cwd?: string; protoPaths?: readonly string[]; catalog?: string } = {}): IrDocument {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const includeDirs = (options.protoPaths ?? []).map((p) => path.resolve(cwd, p));
  const catalog = catalogFile(options.catalog !== undefined ? path.resolve(cwd, options.catalog) : undefined);
  return loadSpec(path.resolve(cwd, spec), nodeSpecHost({ cwd, includeDirs, catalog }));
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}
