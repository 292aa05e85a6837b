import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { ResolvedRun } from "../config/resolve.js";
import { RunErrors, SpecError, SpecErrors, UsageError } from "../errors.js";
import type { EventSink } from "./events.js";
import type { SpecInput } from "./generate-files.js";
import { importPathOf, type SpecRun } from "./run-spec.js";
import { errorEvents, specFailure, type SpecFailure } from "./spec-failures.js";
import { strictFailure, warningEvents } from "./spec-warnings.js";
import type { SpecRequest, SpecResponse, WorkerError } from "./worker-protocol.js";

/**
 * `generate --jobs N`: the run's specs generated in N worker threads. Each worker takes the next spec as soon as it
 * is free (big and small specs mix well), but everything the caller sees is in spec order, as in a serial run: the
 * events of spec i are emitted once specs 0..i are done and the results come back in spec order. As in a serial run,
 * a spec that fails does not stop the others: its errors (rebuilt as the same SpecError/UsageError) are `error`
 * events, and once every spec is done RunErrors is thrown (after a `done` event with ok: false). Output is
 * byte-identical to a serial run because the workers run the same generateSpec on the same inputs; nothing here
 * writes files.
 */
export async function runSpecsInWorkers(run: ResolvedRun, jobs: number, onEvent?: EventSink): Promise<SpecRun[]> {
  const specs = run.specs;
  const count = Math.max(1, Math.min(jobs, specs.length));
  const results: (SpecResponse | undefined)[] = new Array(specs.length);
  const runs: SpecRun[] = [];
  const workers: Worker[] = [];
  let next = 0;
  let flushed = 0;
  const failures: SpecFailure[] = [];

  return new Promise<SpecRun[]>((resolve, reject) => {
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      // terminate() is asynchronous; the caller does not need to wait for the threads to be gone.
      for (const w of workers) void w.terminate();
      if (error) reject(error);
      else resolve(runs);
    };

    /** Emit and collect every result that is next in spec order; stop at the first error. */
    const flush = () => {
      while (flushed < specs.length && results[flushed] !== undefined) {
        const res = results[flushed]!;
        const spec = specs[flushed]!;
        for (const r of res.reads) onEvent?.({ type: "read", spec: spec.display, file: run.host.displayPath(r.file), bytes: r.bytes, ms: r.ms });
        if (!res.ok) {
          const error = rebuildError(res.error, spec);
          if (!(error instanceof SpecError || error instanceof UsageError)) return finish(error);
          const failure = specFailure(spec.display, error);
          failures.push(failure);
          for (const event of errorEvents(failure)) onEvent?.(event);
          flushed++;
          continue;
        }
        onEvent?.({ type: "generated", spec: spec.display, dir: res.dir, inputs: res.inputs.length, files: res.files.length, ms: res.ms });
        const strict = run.strict ? strictFailure(spec.display, res.warnings) : undefined;
        if (strict) {
          failures.push(strict);
          for (const event of errorEvents(strict)) onEvent?.(event);
          flushed++;
          continue;
        }
        for (const event of warningEvents(spec.display, res.warnings)) onEvent?.(event);
        runs.push({ output: { spec, dir: res.dir, doc: res.doc, files: res.files, warnings: res.warnings }, inputs: new Map(res.inputs) });
        flushed++;
      }
      if (flushed === specs.length) finish(failures.length > 0 ? new RunErrors(failures) : undefined);
    };

    const feed = (worker: Worker) => {
      if (settled || next >= specs.length) return;
      const index = next++;
      (worker as Worker & { current?: number }).current = index;
      worker.postMessage(requestFor(run, specs[index]!, index));
    };

    for (let i = 0; i < count; i++) {
      const worker = startWorker();
      workers.push(worker);
      worker.on("message", (res: SpecResponse) => {
        results[res.index] = res;
        feed(worker);
        flush();
      });
      // A worker that dies (out of memory, a crash in native code) fails the run, naming the spec it had.
      worker.on("error", (e: Error) => {
        const index = (worker as Worker & { current?: number }).current;
        const spec = index === undefined ? "a spec" : specs[index]!.display;
        finish(new Error(`worker generating ${spec} failed: ${e.message}`));
      });
      worker.on("exit", (code) => {
        if (!settled && code !== 0) finish(new Error(`a generate worker exited with code ${code}`));
      });
      feed(worker);
    }
  });
}

function requestFor(run: ResolvedRun, spec: SpecInput, index: number): SpecRequest {
  return {
    index,
    spec,
    importPath: importPathOf(run, spec),
    cwd: run.host.workingDir ?? process.cwd(),
    includeDirs: run.host.includeDirs ?? [],
    ...(run.host.catalog !== undefined ? { catalog: run.host.catalog } : {}),
    roots: run.host.roots,
    maxFileBytes: run.host.maxFileBytes,
    templates: run.templates,
    plugins: run.plugins,
  };
}

/** The same error class and message a serial run would throw for this spec. */
function rebuildError(e: WorkerError, spec: SpecInput): Error {
  if (e.kind === "specs") return new SpecErrors(e.errors.map((x) => new SpecError(x.file, x.line, x.column, x.detail)), e.truncated);
  if (e.kind === "spec") return new SpecError(e.file, e.line, e.column, e.detail);
  if (e.kind === "usage") return new UsageError(e.message);
  const error = new Error(`${e.message} (generating ${spec.display})`);
  if (e.stack) error.stack = e.stack;
  return error;
}

/**
 * The worker entry beside this module: the built spec-worker.js, or, when specforge runs from its TypeScript
 * sources (tests, tsx), spec-worker.ts loaded through tsx's loader registered inside the worker.
 */
function startWorker(): Worker {
  const here = fileURLToPath(import.meta.url);
  const js = here.replace(/worker-pool\.[cm]?[jt]s$/, "spec-worker.js");
  if (here.endsWith(".js") && existsSync(js)) return new Worker(js);
  const ts = here.replace(/worker-pool\.[cm]?[jt]s$/, "spec-worker.ts");
  // require.resolve finds tsx's CommonJS build of the API; the worker imports its ES module twin beside it.
  const tsxCjs = createRequire(import.meta.url).resolve("tsx/esm/api");
  const tsxMjs = tsxCjs.replace(/\.cjs$/, ".mjs");
  const tsxApi = pathToFileURL(existsSync(tsxMjs) ? tsxMjs : tsxCjs).href;
  const source = `import { register } from ${JSON.stringify(tsxApi)}; register(); await import(${JSON.stringify(pathToFileURL(ts).href)});`;
  return new Worker(source, { eval: true, type: "module" } as ConstructorParameters<typeof Worker>[1]);
}
