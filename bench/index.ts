import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { aggregateRuns } from "./aggregate.js";
import { profileArgs, type BenchResult, type BenchSuite } from "./harness.js";

/**
 * `npm run bench [--runs N] [suite...]`: runs every suite (or the named ones) N times (default 1), prints a table and
 * writes bench/results.json (an array of { name, ours, peer, peerName, unit, ratio, runs?, ratioMin?, ratioMax? },
 * ratio > 1 meaning we are faster; with several runs the figures are medians and ratioMin/ratioMax the spread).
 * Each suite's figures are also kept in bench/results/<suite>.json, so `npm run bench <suite>` refreshes one suite
 * and keeps the others. Register a suite by adding its name to SUITES (bench/<name>.bench.ts exports `suite`).
 *
 * `npm run bench:profile [suite...]` runs the same under `--cpu-prof` (every suite process and every isolated case
 * process writes a .cpuprofile into bench/profiles/; BENCH_ONLY=<text> keeps only the isolated cases whose name
 * contains it). A profiled run's figures are slowed by the profiler and are not written to the results.
 */
const SUITES: readonly string[] = ["protobuf", "rest-validators", "protojson", "rest-server", "soap", "generate", "size", "bundle", "rpc", "protovalidate"];

/** The suite of bench/<name>.bench.ts. */
async function loadSuite(name: string): Promise<BenchSuite> {
  const { suite } = (await import(`./${name}.bench.js`)) as { suite: BenchSuite };
  if (suite.name !== name) throw new Error(`bench/${name}.bench.ts names its suite ${suite.name}`);
  return suite;
}

function printRows(rows: readonly BenchResult[]): void {
  for (const r of rows) {
    const spread = r.runs !== undefined && r.runs > 1 ? `  (x${r.ratioMin}-x${r.ratioMax}, ${r.runs} runs)` : "";
    console.log(`${r.name.padEnd(48)} ours ${String(r.ours).padStart(10)} ${r.unit}  ${r.peerName.padEnd(20)} ${String(r.peer).padStart(10)}  x${r.ratio}${spread}`);
  }
}

const partsDir = path.join(import.meta.dirname, "results");
mkdirSync(partsDir, { recursive: true });
const child = process.env.BENCH_SUITE;
const profiling = process.execArgv.some((a) => a.startsWith("--cpu-prof"));

if (child !== undefined) {
  // One suite, in this (child) process: measure, print the table rows, hand the figures to the parent (BENCH_OUT).
  if (!SUITES.includes(child)) throw new Error(`no bench suite ${child}`);
  const own = await (await loadSuite(child)).run();
  writeFileSync(process.env.BENCH_OUT!, JSON.stringify(own));
  printRows(own);
} else {
  // Every suite runs in a process of its own: in one process a suite ran on the heap and the JIT state the suites
  // before it left (the SOAP decode measured 5.5x there and 12-15x alone).
  const { values, positionals } = parseArgs({ options: { runs: { type: "string", default: "1" } }, allowPositionals: true });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1 || runs > 20) throw new Error(`--runs must be an integer from 1 to 20, got ${values.runs}`);
  for (const name of positionals) if (!SUITES.includes(name)) throw new Error(`no bench suite ${name} (suites: ${SUITES.join(", ")})`);
  const wanted = SUITES.filter((name) => positionals.length === 0 || positionals.includes(name));
  const scratch = mkdtempSync(path.join(tmpdir(), "specforge-bench-"));
  const perSuite = new Map<string, BenchResult[][]>(wanted.map((name) => [name, []]));
  // Runs go round the suites (run 1 of every suite, then run 2 ...), so a busy spell on the machine lands on
  // different suites in different runs instead of on every run of one suite.
  for (let run = 1; run <= runs; run++) {
    for (const name of wanted) {
      process.stderr.write(`running ${name}${runs > 1 ? ` (run ${run} of ${runs})` : ""}...\n`);
      const out = path.join(scratch, `${name}.${run}.json`);
      const spawned = spawnSync(process.execPath, [...profileArgs(`suite-${name}`), fileURLToPath(import.meta.url)], {
        env: { ...process.env, BENCH_SUITE: name, BENCH_OUT: out },
        stdio: "inherit",
      });
      if (spawned.status !== 0) throw new Error(`bench suite ${name} failed (exit ${spawned.status})`);
      perSuite.get(name)!.push(JSON.parse(readFileSync(out, "utf8")) as BenchResult[]);
    }
  }
  rmSync(scratch, { recursive: true, force: true });
  if (profiling) {
    console.log(`profiles in ${path.relative(process.cwd(), path.join(import.meta.dirname, "profiles"))}/ (figures not kept: the profiler slows every side)`);
  } else {
    if (runs > 1) {
      console.log(`\nmedians of ${runs} runs:`);
      for (const name of wanted) printRows(aggregateRuns(perSuite.get(name)!));
    }
    for (const name of wanted) {
      writeFileSync(path.join(partsDir, `${name}.json`), JSON.stringify(aggregateRuns(perSuite.get(name)!), null, 2) + "\n");
    }
    // A suite not run this time keeps its last figures, so running one suite never erases the others.
    const results: BenchResult[] = [];
    for (const name of SUITES) {
      const part = path.join(partsDir, `${name}.json`);
      if (existsSync(part)) results.push(...(JSON.parse(readFileSync(part, "utf8")) as BenchResult[]));
    }
    const file = path.join(import.meta.dirname, "results.json");
    writeFileSync(file, JSON.stringify(results, null, 2) + "\n");
    console.log(`wrote ${path.relative(process.cwd(), file)} (${results.length} results)`);
  }
}
