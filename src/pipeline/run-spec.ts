import { createHash } from "node:crypto";
import path from "node:path";
import type { ResolvedRun } from "../config/resolve.js";
import type { SpecHost } from "../parsers/host.js";
import { elapsed, type EventSink } from "./events.js";
import { generateSpec, type SpecInput, type SpecOutput } from "./generate-files.js";
import { outputDirFor } from "./output-dir.js";
import { warningEvents } from "./spec-warnings.js";
import { Templates } from "./templates.js";
import { loadPlugins } from "./user-plugins.js";

/** A spec generated in memory, with every file it read (absolute path -> content hash; null: tried, missing). */
export interface SpecRun {
  readonly output: SpecOutput;
  readonly inputs: ReadonlyMap<string, string | null>;
}

/**
 * A host that remembers what a spec read. Watch hashes exactly these files (the spec, its imports and includes,
 * and imports it looked for but did not find, so creating one triggers a rebuild), and progress reports them.
 */
export function recordingHost(inner: SpecHost, onRead?: (file: string, bytes: number, ms: number) => void): SpecHost & { readonly inputs: Map<string, string | null> } {
  const inputs = new Map<string, string | null>();
  return {
    inputs,
    displayPath: (p) => inner.displayPath(p),
    includeDirs: inner.includeDirs,
    workingDir: inner.workingDir,
    ...(inner.catalog !== undefined ? { catalog: inner.catalog } : {}),
    roots: inner.roots,
    maxFileBytes: inner.maxFileBytes,
    readFile(p) {
      const started = performance.now();
      let text: string;
      try {
        text = inner.readFile(p);
      } catch (e) {
        if (!inputs.has(p)) inputs.set(p, null);
        throw e;
      }
      if (!inputs.get(p)) {
        inputs.set(p, contentHash(text));
        onRead?.(p, Buffer.byteLength(text), elapsed(started));
      }
      return text;
    },
  };
}

export function contentHash(text: string | null): string {
  return text === null ? "missing" : createHash("sha256").update(text).digest("hex");
}

/** Generate one spec of a resolved run, with the package README and the run's templates. Throws on spec errors. */
export function runSpec(run: ResolvedRun, spec: SpecInput, onEvent?: EventSink, templates = new Templates(run.templates)): SpecRun {
  const started = performance.now();
  const host = recordingHost(run.host, (file, bytes, ms) => onEvent?.({ type: "read", spec: spec.display, file: run.host.displayPath(file), bytes, ms }));
  const output = generateSpec(spec, host, { templates, readme: { importPath: importPathOf(run, spec) }, manifest: true, plugins: loadPlugins(run.plugins) });
  onEvent?.({ type: "generated", spec: spec.display, dir: output.dir, inputs: host.inputs.size, files: output.files.length, ms: elapsed(started) });
  if (!run.strict) for (const event of warningEvents(spec.display, output.warnings)) onEvent?.(event);
  return { output, inputs: host.inputs };
}

/** How a spec's README shows importing its index: relative to the project folder (ResolvedRun.project), e.g. ./generated/x/index.js. */
export function importPathOf(run: ResolvedRun, spec: SpecInput): string {
  const target = path.join(run.outRoot, spec.outDir ?? outputDirFor(spec.file), "index.js");
  const rel = path.relative(run.project, target).split(path.sep).join("/");
  return rel.startsWith("../") ? rel : `./${rel}`;
}
