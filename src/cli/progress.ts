import { RunErrors } from "../errors.js";
import { elapsed, type PipelineEvent } from "../pipeline/events.js";
import type { CliIo } from "./io.js";

export type ReportMode = "tty" | "plain" | "json" | "quiet";

/** --json wins, then --quiet; a terminal on stderr gets the live display, anything else plain lines. */
export function reportMode(opts: { json?: boolean; quiet?: boolean }, io: CliIo): ReportMode {
  if (opts.json) return "json";
  if (opts.quiet) return "quiet";
  return io.tty ? "tty" : "plain";
}

export interface Reporter {
  onEvent(event: PipelineEvent): void;
  /**
   * A run that failed (the CLI prints the message on stderr regardless). JSON mode reports it as events too: an
   * `error` unless the pipeline already reported its errors (RunErrors), then `done` with `ok: false` unless the
   * pipeline already ended with one, so the event stream always ends with `done`.
   */
  fail(error: unknown): void;
}

const SPINNER = "|/-\\";
/** How many warnings of one spec are printed; the rest are counted (every one is an event under --json). */
const WARNINGS_SHOWN = 3;
const ms = (n: number) => `${n < 10 ? n.toFixed(1) : Math.round(n)} ms`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * Turns pipeline events into output. Results (one line per spec, the summary) go to stdout in tty and plain mode
 * alike; the tty mode adds a status line on stderr, rewritten in place, showing the file being read or the spec
 * being generated with running counts and timings. JSON mode prints every event as one object per line on stdout.
 */
export function reporter(io: CliIo, mode: ReportMode, command: "generate" | "check" | "watch"): Reporter {
  if (mode === "json") return jsonReporter(io);
  if (mode === "quiet") {
    // Errors only. generate and check throw theirs (the CLI prints them); watch keeps running, so it prints its own.
    const onEvent = (e: PipelineEvent) => {
      if (command !== "watch" || e.type !== "error") return;
      io.err(`${e.message}
`);
      if (e.kept !== undefined) io.err(`${e.spec}: kept the last good output in ${e.kept}/
`);
    };
    return { onEvent, fail: () => undefined };
  }

  const tty = mode === "tty";
  let statusShown = false;
  let tick = 0;
  let total = 0;
  let done = 0;
  const perSpec = new Map<string, { reads: number; readMs: number; genMs: number }>();
  const status = (text: string) => {
    if (!tty) return;
    io.err(`\r\x1b[2K${SPINNER[tick++ % SPINNER.length]} ${text}`);
    statusShown = true;
  };
  const clear = () => {
    if (statusShown) io.err("\r\x1b[2K");
    statusShown = false;
  };
  const line = (text: string) => {
    clear();
    io.out(text + "\n");
  };
  // Warnings: the first few of each spec on stderr as they come, a count of the rest when the spec is written.
  const warnings = new Map<string, number>();
  const warningSummary = (spec: string) => {
    const n = warnings.get(spec) ?? 0;
    if (n > WARNINGS_SHOWN) {
      clear();
      io.err(`${spec}: ${plural(n, "warning")} (${WARNINGS_SHOWN} shown; --json lists every one)\n`);
    }
    warnings.delete(spec);
  };
  const stats = (spec: string) => perSpec.get(spec) ?? (perSpec.set(spec, { reads: 0, readMs: 0, genMs: 0 }), perSpec.get(spec)!);

  return {
    fail: () => clear(),
    onEvent(e) {
      switch (e.type) {
        case "start":
          total = e.specs;
          done = 0;
          perSpec.clear();
          status(`${e.command}: ${plural(e.specs, "spec")}`);
          break;
        case "read": {
          const s = stats(e.spec);
          s.reads++;
          s.readMs += e.ms;
          status(`[${done + 1}/${total}] ${e.spec}: read ${plural(s.reads, "file")} (${e.file}, ${ms(e.ms)})`);
          break;
        }
        case "generated":
          stats(e.spec).genMs = e.ms;
          done++;
          status(`[${done}/${total}] ${e.spec}: generated ${plural(e.files, "file")} in ${ms(e.ms)}`);
          break;
        case "written": {
          const s = stats(e.spec);
          const timing = `read ${plural(s.reads, "file")} in ${ms(s.readMs)}, generated in ${ms(s.genMs)}${e.state === "wrote" ? `, written in ${ms(e.ms)}` : ""}`;
          const warned = warnings.get(e.spec) ?? 0;
          line(`${e.spec} -> ${e.dir}/ (${plural(e.files, "file")}, ${e.state}${warned > 0 ? `, ${plural(warned, "warning")}` : ""}; ${timing})`);
          warningSummary(e.spec);
          break;
        }
        case "difference":
          break;
        case "warning": {
          const n = (warnings.get(e.spec) ?? 0) + 1;
          warnings.set(e.spec, n);
          if (n <= WARNINGS_SHOWN) {
            clear();
            io.err(`${e.message}\n`);
          }
          break;
        }
        case "error":
          // generate and check fail with every error listed and counted (printed by the CLI); watch goes on.
          if (command !== "watch") break;
          clear();
          io.err(`${e.message}\n`);
          if (e.kept !== undefined) io.err(`${e.spec}: kept the last good output in ${e.kept}/\n`);
          break;
        case "watching":
          line(`watching ${plural(e.files, "file")} for changes (Ctrl-C to stop)`);
          break;
        case "changed":
          // A watch round: counts start over.
          total = e.specs.length;
          done = 0;
          perSpec.clear();
          line(`changed: ${e.files.join(", ")} -> ${e.specs.length > 0 ? `regenerating ${e.specs.join(", ")}` : "no spec's inputs changed"}`);
          break;
        case "done":
          for (const spec of [...warnings.keys()]) warningSummary(spec);
          clear();
          // check prints its verdict itself; a watch round that hit an error has said so already.
          if (command === "check" || !e.ok) break;
          if (e.specs > 0) line(`generated ${plural(e.specs, "spec")} in ${ms(e.ms)}`);
          else if (total > 0) line(`${plural(total, "spec")} up to date (.specforge-cache)`);
          break;
      }
    },
  };
}

/** One JSON object per line on stdout; a failed run still ends with a `done` line. */
function jsonReporter(io: CliIo): Reporter {
  const started = performance.now();
  let specs = 0;
  let ended = false;
  const print = (e: PipelineEvent) => io.out(JSON.stringify(e) + "\n");
  return {
    onEvent(e) {
      if (e.type === "start") specs = e.specs;
      ended = e.type === "done";
      print(e);
    },
    fail(error) {
      if (!(error instanceof RunErrors)) print({ type: "error", message: error instanceof Error ? error.message : String(error) });
      if (!ended) print({ type: "done", specs, written: 0, differences: 0, ms: elapsed(started), ok: false, errors: error instanceof RunErrors ? error.errorCount : 1 });
      ended = true;
    },
  };
}
