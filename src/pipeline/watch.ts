import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, watch as fsWatch, writeFileSync, type FSWatcher } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadRunConfig, resolveRun, type ResolvedRun, type RunOptions } from "../config/resolve.js";
import { elapsed, type EventSink } from "./events.js";
import { generateSpec, type SpecInput, type SpecOutput } from "./generate-files.js";
import { isSpecError } from "./load-spec.js";
import { outputDirFor } from "./output-dir.js";
import { SpecErrors, type SpecError } from "../errors.js";
import { errorEvents, specFailure } from "./spec-failures.js";
import { strictFailure, warningEvents } from "./spec-warnings.js";
import { contentHash, importPathOf, recordingHost } from "./run-spec.js";
import { TEMPLATE_NAMES, Templates } from "./templates.js";
import { loadPlugins } from "./user-plugins.js";
import { listFiles, writeOutputs } from "./write-output.js";

export interface WatchOptions extends RunOptions {
  /** Quiet time after the last change before regenerating; editors save in bursts. Default 100 ms. */
  readonly debounceMs?: number;
}

export interface WatchHandle {
  /** Settles after the first round (rejects when the config or the spec list cannot be read at all). */
  readonly ready: Promise<void>;
  /** Stop watching; resolves once a round in progress has finished. */
  stop(): Promise<void>;
}

/** What watch remembers per spec: the files it read and the hash over them and the options, when it last ran. */
interface SpecState {
  hash: string;
  inputs: string[];
  /** Output file path (relative to the output root) -> content hash, of the last good output. */
  outputs: Record<string, string>;
  /** Whether the last run succeeded; a failed spec is retried on restart so its error shows again. */
  ok: boolean;
}

const CACHE_DIR = ".specforge-cache";
const CACHE_FILE = "watch.json";
const PACKAGE_JSON = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../package.json");

/**
 * `generate --watch`: one round at start, then a round after every burst of changes to a file any spec read, the
 * config file or a template. A round regenerates only the specs whose inputs hash differently than last time
 * (content hash over every file the spec read, its options, the templates and the specforge version), and writes
 * only their folders. A spec error is reported and the spec's last good output stays. Hashes are kept in memory and
 * in .specforge-cache/watch.json beside the config, so a restarted watch skips specs whose output is current.
 */
export function watch(options: WatchOptions, hooks: { readonly onEvent?: EventSink } = {}): WatchHandle {
  const emit: EventSink = (e) => hooks.onEvent?.(e);
  const debounceMs = options.debounceMs ?? 100;
  const states = new Map<string, SpecState>();
  const watchers = new Map<string, FSWatcher>();
  let watched = new Set<string>();
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let run: ResolvedRun | undefined;
  let configFile: string | undefined;
  let chain: Promise<void> = Promise.resolve();

  const cachePath = () => path.join(run!.base, CACHE_DIR, CACHE_FILE);

  const resolve = async () => {
    // Always from the file: a config passed in preloaded would be stale after an edit.
    const loaded = await loadRunConfig({ ...options, loadedConfig: undefined });
    run = resolveRun(loaded);
    configFile = run.configFile;
  };

  const round = async (changed: readonly string[], first: boolean) => {
    const started = performance.now();
    if (!first && configFile !== undefined && changed.includes(configFile)) {
      try {
        await resolve();
      } catch (e) {
        if (!isSpecError(e)) throw e;
        emit({ type: "error", message: (e as Error).message });
        return;
      }
    }
    const current = run!;
    const templates = new Templates(current.templates);
    const fingerprint = optionsFingerprint(templates);
    const due = current.specs.filter((s) => states.get(keyOf(s))?.hash !== inputsHash(states.get(keyOf(s))?.inputs ?? [s.file], s, fingerprint));
    if (first) emit({ type: "start", command: "watch", specs: current.specs.length });
    else emit({ type: "changed", files: changed.map((f) => current.host.displayPath(f)), specs: due.map((s) => s.display) });
    const outputs: SpecOutput[] = [];
    let ok = true;
    let errors = 0;
    let warnings = 0;
    for (const spec of due) {
      const key = keyOf(spec);
      const specStarted = performance.now();
      const host = recordingHost(current.host, (file, bytes, ms) => emit({ type: "read", spec: spec.display, file: current.host.displayPath(file), bytes, ms }));
      try {
        const output = generateSpec(spec, host, { templates, readme: { importPath: importPathOf(current, spec) }, manifest: true, plugins: loadPlugins(current.plugins) });
        emit({ type: "generated", spec: spec.display, dir: output.dir, inputs: host.inputs.size, files: output.files.length, ms: elapsed(specStarted) });
        const strict = current.strict ? strictFailure(spec.display, output.warnings) : undefined;
        if (strict) throw new SpecErrors(strict.errors as SpecError[]);
        for (const event of warningEvents(spec.display, output.warnings)) emit(event);
        warnings += output.warnings.length;
        outputs.push(output);
        const inputs = [...host.inputs.keys()];
        states.set(key, { hash: inputsHash(inputs, spec, fingerprint), inputs, outputs: Object.fromEntries(output.files.map((f) => [f.path, contentHash(f.content)])), ok: true });
      } catch (e) {
        if (!isSpecError(e)) throw e;
        ok = false;
        // Keep watching what it read before and now, so that fixing any of those files triggers a retry.
        const previous = states.get(key);
        const kept = keptFolder(spec, previous);
        // One event per error; the last one says where the last good output is kept.
        const events = errorEvents(specFailure(spec.display, e));
        errors += events.length;
        events.forEach((event, i) => emit(i === events.length - 1 && kept !== undefined && event.type === "error" ? { ...event, kept } : event));
        const inputs = [...new Set([...(previous?.inputs ?? []), ...host.inputs.keys()])];
        states.set(key, { hash: inputsHash(inputs, spec, fingerprint), inputs, outputs: previous?.outputs ?? {}, ok: false });
      }
    }
    const writeStarted = performance.now();
    const written = writeOutputs(current.outRoot, outputs, { force: options.force, display: (f) => current.host.displayPath(f) });
    const writeMs = elapsed(writeStarted);
    for (const o of outputs) {
      const state = written.includes(o.dir) ? "wrote" : "unchanged";
      emit({ type: "written", spec: o.spec.display, dir: o.dir, files: o.files.length, state, ms: state === "wrote" ? writeMs : 0 });
    }
    saveCache(cachePath(), states);
    watchFiles(current, templates);
    emit({ type: "done", specs: due.length, written: written.length, differences: 0, ms: elapsed(started), ok, errors, warnings });
    if (first) emit({ type: "watching", files: watched.size });
  };

  /** Adopt cached states whose output on disk is still exactly what was written, so the first round skips them. */
  const adoptCache = () => {
    const cached = readCache(cachePath());
    for (const [key, state] of Object.entries(cached)) {
      const dirs = new Set(Object.keys(state.outputs).map((p) => p.split("/")[0]!));
      const onDisk = [...dirs].flatMap((d) => listFiles(path.join(run!.outRoot, d)).map((p) => `${d}/${p}`));
      const intact =
        onDisk.length === Object.keys(state.outputs).length &&
        onDisk.every((p) => state.outputs[p] !== undefined && contentHash(readOrNull(path.join(run!.outRoot, p))) === state.outputs[p]);
      if (intact && state.ok) states.set(key, state);
    }
  };

  const watchFiles = (current: ResolvedRun, templates: Templates) => {
    const files = new Set<string>();
    for (const s of current.specs) for (const f of states.get(keyOf(s))?.inputs ?? [s.file]) files.add(f);
    if (current.configFile) files.add(current.configFile);
    // The override paths themselves too, so that adding an override (where the built-in shell was used) counts.
    if (current.templates) for (const t of [...templates.files(), ...TEMPLATE_NAMES.map((n) => path.join(current.templates!, `${n}.hbs`))]) files.add(t);
    watched = files;
    // Folders, not files: editors save by writing a new file and renaming it over the old one.
    const dirs = new Set([...files].map((f) => path.dirname(f)).filter((d) => existsSync(d)));
    for (const [dir, w] of watchers) {
      if (!dirs.has(dir)) {
        w.close();
        watchers.delete(dir);
      }
    }
    for (const dir of dirs) {
      if (watchers.has(dir)) continue;
      const w = fsWatch(dir, (_event, name) => {
        if (name === null) return;
        const file = path.join(dir, name.toString());
        if (watched.has(file)) schedule(file);
      });
      w.on("error", () => undefined);
      watchers.set(dir, w);
    }
  };

  const schedule = (file: string) => {
    if (stopped) return;
    pending.add(file);
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      const changed = [...pending].sort();
      pending.clear();
      chain = chain.then(() => round(changed, false)).catch((e: unknown) => emit({ type: "error", message: (e as Error)?.message ?? String(e) }));
    }, debounceMs);
  };

  const ready = (async () => {
    await resolve();
    adoptCache();
    await round([], true);
  })();
  chain = ready.catch(() => undefined);

  return {
    ready,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
      await chain;
    },
  };
}

/** The output folder holding a spec's last good output (nothing is written for a failing spec), if it has one. */
function keptFolder(spec: SpecInput, state: SpecState | undefined): string | undefined {
  return Object.keys(state?.outputs ?? {}).length > 0 ? (spec.outDir ?? outputDirFor(spec.file)) : undefined;
}

const keyOf = (s: SpecInput) => `${s.file}\u0000${s.outDir ?? ""}`;

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/** The specforge version and the template shells: a change to either changes every spec's output. */
function optionsFingerprint(templates: Templates): string {
  const h = createHash("sha256").update(readOrNull(PACKAGE_JSON) ?? "");
  for (const t of templates.files()) h.update(t).update("\u0000").update(readOrNull(t) ?? "");
  return h.digest("hex");
}

function inputsHash(inputs: readonly string[], spec: SpecInput, fingerprint: string): string {
  const h = createHash("sha256").update(fingerprint);
  h.update(JSON.stringify([spec.outDir, spec.int64, spec.dates, spec.formats, spec.jsonSchema, spec.artifacts]));
  for (const f of [...inputs].sort()) h.update(f).update("\u0000").update(contentHash(readOrNull(f)));
  return h.digest("hex");
}

function readCache(file: string): Record<string, SpecState> {
  try {
    const raw = JSON.parse(readFileSync(file, "utf8")) as { version?: number; specs?: Record<string, SpecState> };
    return raw.version === 1 && raw.specs ? raw.specs : {};
  } catch {
    return {};
  }
}

function saveCache(file: string, states: ReadonlyMap<string, SpecState>): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ version: 1, specs: Object.fromEntries(states) }));
  } catch {
    // The cache only saves work on the next start; failing to write it must not stop watching.
  }
}
