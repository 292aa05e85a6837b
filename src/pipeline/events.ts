/**
 * What generate, check and watch report while they run. The CLI turns these into a live display (TTY), plain
 * lines, or one JSON object per line (--json); library callers pass `onEvent`. Paths are as the user sees them:
 * specs relative to the working folder, output folders relative to the output root.
 */
export type PipelineEvent =
  | { readonly type: "start"; readonly command: "generate" | "check" | "watch"; readonly specs: number }
  /** A file a spec read (the spec itself, imports, includes), once per spec and file. */
  | { readonly type: "read"; readonly spec: string; readonly file: string; readonly bytes: number; readonly ms: number }
  /** A spec parsed and emitted in memory. */
  | { readonly type: "generated"; readonly spec: string; readonly dir: string; readonly inputs: number; readonly files: number; readonly ms: number }
  /** A spec's folder after writing: rewritten, or left alone because it was up to date. */
  | { readonly type: "written"; readonly spec: string; readonly dir: string; readonly files: number; readonly state: "wrote" | "unchanged"; readonly ms: number }
  /** check: a file that differs from what generate would write. */
  | { readonly type: "difference"; readonly path: string; readonly state: "stale" | "missing" | "extra" | "unowned" }
  /**
   * One error of a spec that failed (watch keeps running; generate and check check every spec, then stop before
   * writing anything). `message` is `file:line:col: ...`, its location also as `file`, `line`, `column`. `spec` is
   * absent only for errors of the run itself (a bad config file, an unknown option). `kept` (watch, on a failed
   * spec's last error): the output folder that still holds the spec's last good output, left as it was.
   */
  | {
      readonly type: "error";
      readonly spec?: string;
      readonly file?: string;
      readonly line?: number;
      readonly column?: number;
      readonly message: string;
      readonly kept?: string;
    }
  /**
   * Something a spec says that specforge keeps in a degraded form instead of refusing (a type widened, a check left
   * to a looser one, a binding without a client): located like an error, after the spec's `generated` event.
   * `message` is `file:line:col: warning: ...`. Under `--strict` these are reported as errors instead.
   */
  | {
      readonly type: "warning";
      readonly spec: string;
      readonly file: string;
      readonly line: number;
      readonly column: number;
      readonly message: string;
    }
  /** watch: waiting for changes to this many files. */
  | { readonly type: "watching"; readonly files: number }
  /** watch: files changed; the specs that read them are regenerated. */
  | { readonly type: "changed"; readonly files: readonly string[]; readonly specs: readonly string[] }
  /** The end of a run (for watch: of one round); also of a failed one (`ok: false`, `errors`: how many were reported). */
  | {
      readonly type: "done";
      readonly specs: number;
      readonly written: number;
      readonly differences: number;
      readonly ms: number;
      readonly ok: boolean;
      readonly errors?: number;
      /** How many warnings the run's specs reported (see the `warning` event). */
      readonly warnings?: number;
    };

export type EventSink = (event: PipelineEvent) => void;

/** Milliseconds with a tenth of precision: enough for humans, stable enough to read. */
export function elapsed(since: number): number {
  return Math.round((performance.now() - since) * 10) / 10;
}
