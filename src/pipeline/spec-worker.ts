/**
 * The worker-thread side of `generate --jobs N` (see worker-pool.ts): it receives one spec at a time, generates it
 * with exactly the code a serial run uses (runSpec's recording host, the run's templates, the README import path)
 * and posts back the files, what the spec read and, on failure, the error's parts so that the main thread can raise
 * the same error a serial run would.
 */
import { parentPort } from "node:worker_threads";
import { SpecError, SpecErrors, UsageError } from "../errors.js";
import { nodeSpecHost } from "../parsers/host.js";
import { generateSpec } from "./generate-files.js";
import { recordingHost } from "./run-spec.js";
import { Templates } from "./templates.js";
import { loadPlugins } from "./user-plugins.js";
import type { SpecRequest, SpecResponse, WorkerError } from "./worker-protocol.js";

const templatesByDir = new Map<string, Templates>();

function templatesFor(dir: string | undefined): Templates {
  const key = dir ?? "";
  let t = templatesByDir.get(key);
  if (!t) templatesByDir.set(key, (t = new Templates(dir)));
  return t;
}

function describeError(e: unknown): WorkerError {
  if (e instanceof SpecErrors) {
    return { kind: "specs", errors: e.errors.map((x) => ({ file: x.file, line: x.line, column: x.column, detail: x.detail })), truncated: e.truncated };
  }
  if (e instanceof SpecError) return { kind: "spec", message: e.message, file: e.file, line: e.line, column: e.column, detail: e.detail };
  if (e instanceof UsageError) return { kind: "usage", message: e.message };
  const err = e instanceof Error ? e : new Error(String(e));
  return { kind: "internal", message: err.message, stack: err.stack };
}

function handle(req: SpecRequest): SpecResponse {
  const started = performance.now();
  const reads: { file: string; bytes: number; ms: number }[] = [];
  const host = recordingHost(nodeSpecHost({ cwd: req.cwd, includeDirs: req.includeDirs, roots: req.roots, maxFileBytes: req.maxFileBytes, catalog: req.catalog }), (file, bytes, ms) => reads.push({ file, bytes, ms }));
  try {
    const output = generateSpec(req.spec, host, { templates: templatesFor(req.templates), readme: { importPath: req.importPath }, manifest: true, plugins: loadPlugins(req.plugins) });
    return {
      index: req.index,
      ok: true,
      dir: output.dir,
      files: output.files,
      doc: output.doc,
      warnings: output.warnings,
      inputs: [...host.inputs],
      reads,
      ms: Math.round((performance.now() - started) * 10) / 10,
    };
  } catch (e) {
    return { index: req.index, ok: false, error: describeError(e), reads };
  }
}

parentPort?.on("message", (req: SpecRequest) => parentPort!.postMessage(handle(req)));
