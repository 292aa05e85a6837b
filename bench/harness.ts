/**
 * The benchmark harness: every suite measures ours against peers on the same inputs in the same process run and
 * reports ratios (never absolute timings in tests: machines here are shared and noisy).
 */

import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

export interface BenchResult {
  readonly name: string;
  /** Operations per second, ours. */
  readonly ours: number;
  /** Operations per second of the fastest peer. */
  readonly peer: number;
  readonly peerName: string;
  readonly unit: string;
  /** ours / peer: > 1 means we are faster (the median over `runs` runs when there were several). */
  readonly ratio: number;
  /** How many full runs the figures fold (absent: one). */
  readonly runs?: number;
  /** Lowest and highest ratio over those runs: the spread a table should show beside the median. */
  readonly ratioMin?: number;
  readonly ratioMax?: number;
  /** Operations per second of every peer, by name (from `compare`; a suite may turn them into one row each). */
  readonly peers?: Readonly<Record<string, number>> | undefined;
}

export interface BenchSuite {
  readonly name: string;
  run(): Promise<BenchResult[]> | BenchResult[];
}

/** A full GC (`--expose-gc` turned on at run time, `gc` taken from a fresh context). */
const collectGarbage: () => void = (() => {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
})();

/** CPU milliseconds of this process (user + system): unlike wall time, it leaves out time other processes on a
 * shared machine took from us. */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * A loop calling `fn` `n` times, compiled separately for each side (as benchmark.js does): one shared loop would
 * see every side's function at its call site, call them all through the slow megamorphic path, and add the same
 * few nanoseconds to every side, which flattens the ratio of two fast functions toward 1.
 */
function ownLoop(fn: () => unknown): (n: number) => void {
  return new Function("fn", "return function run(n) { for (let i = 0; i < n; i++) fn(); };")(fn) as (n: number) => void;
}

/** Calls per batch so that one batch takes about a millisecond: the clock is read once per batch, so its own cost
 * (which would flatten the ratio of two fast functions toward 1) stays under a percent. */
function batchSize(fn: () => unknown): number {
  let n = 16;
  for (;;) {
    const start = performance.now();
    for (let i = 0; i < n; i++) fn();
    if (performance.now() - start >= 1 || n >= 1 << 24) return n;
    n *= 2;
  }
}

/** Which clock a comparison reads: wall time (what a caller waits), or this process's CPU time (which leaves out
 * time other processes took from us, but counts the garbage collector's helper threads). */
export type BenchClock = "wall" | "cpu";

export interface CompareOptions {
  /** Rounds per side (default 12). */
  readonly rounds?: number;
  /** Length of one round in ms of the chosen clock (default 60). */
  /** Untimed run of a side after the GC that starts its round (default half a round). */
  readonly warmMs?: number;
  readonly roundMs?: number;
  readonly clock?: BenchClock;
  readonly unit?: string;
}

/**
 * The one comparison every suite uses: ours against each peer on the same inputs, in the same process. Rounds of
 * ours and of every peer alternate, so a busy spell on this shared machine (its speed changes by up to 2x from
 * one second to the next) hits all sides alike, and their order changes every round. Each round starts with a
 * full GC (so no side pays for another's garbage) and then an untimed warm-up of the side: straight after gc() the
 * young generation is small and sweeping still runs on helper threads, and a round timed from there measured the
 * collector more than the code (several times over on the CPU clock). The clock is read once per ~1 ms batch;
 * each side's figure is its best round (the least disturbed one), and the ratio is against the fastest peer.
 */
export function compare(name: string, ours: () => unknown, peers: Readonly<Record<string, () => unknown>>, options: CompareOptions = {}): BenchResult {
  const rounds = options.rounds ?? 12;
  const roundMs = options.roundMs ?? 60;
  const warmMs = options.warmMs ?? roundMs / 2;
  const clock = options.clock === "cpu" ? cpuMs : () => performance.now();
  const all = Object.entries({ ours, ...peers }).map(([label, fn]) => ({ label, run: ownLoop(fn), batch: batchSize(fn), best: 0 }));
  // The order of the sides changes every round, going through every permutation: a side that runs right after an
  // allocation-heavy one (zod) inherits the collector work that one left behind, and with a fixed order the same
  // side would always be the one that follows it.
  const orders = permutations(all);
  for (let r = 0; r < rounds; r++) {
    for (const side of orders[r % orders.length]!) {
      // Start every round from a clean heap in steady state: a full GC removes what the previous side left, then
      // the side runs untimed for a while, so the young generation the GC shrank has grown back and the sweeping
      // it started has finished before the clock starts.
      collectGarbage();
      const warmUntil = clock() + warmMs;
      while (clock() < warmUntil) side.run(side.batch);
      let n = 0;
      const start = clock();
      let elapsed = 0;
      while (elapsed < roundMs) {
        side.run(side.batch);
        n += side.batch;
        elapsed = clock() - start;
      }
      side.best = Math.max(side.best, (n * 1000) / elapsed);
    }
  }
  const o = all[0]!.best;
  let peerName = "";
  let peer = 0;
  const each: Record<string, number> = {};
  for (const side of all.slice(1)) {
    each[side.label] = Math.round(side.best);
    if (side.best > peer) {
      peer = side.best;
      peerName = side.label;
    }
  }
  const unit = options.unit ?? (options.clock === "cpu" ? "ops/cpu-s" : "ops/s");
  return { name, ours: Math.round(o), peer: Math.round(peer), peerName, unit, ratio: Number((o / peer).toFixed(2)), peers: each };
}

/** Every ordering of `items` (there are few sides, so few orderings). */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  const out: T[][] = [];
  items.forEach((first, i) => {
    for (const rest of permutations([...items.slice(0, i), ...items.slice(i + 1)])) out.push([first, ...rest]);
  });
  return out;
}

/**
 * This process's Node flags for a child, and when profiling (`npm run bench:profile`) a profile file named after
 * what the child measures, so the one profile of interest is found among the parents' by its name.
 */
export function profileArgs(label: string): string[] {
  const args = process.execArgv.filter((a) => !a.startsWith("--cpu-prof-name"));
  if (!args.includes("--cpu-prof")) return args;
  return [...args, `--cpu-prof-name=${label.replace(/[^A-Za-z0-9_.-]+/g, "_")}.cpuprofile`];
}

/** The environment variable that tells a suite's module it runs in a child process for one case. */
const CASE_VARIABLE = "BENCH_CASE";

/**
 * Run every case in a child process of its own (the suite's module, `moduleUrl`, run again with the case's name in
 * BENCH_CASE; see `isolatedCase`) and collect the results. In one process a case runs against code whose type
 * feedback the cases before it shaped, and that moves measurements by more than the differences we look for
 * (protobuf vector_tile decode read 0.6x-2.3x by what ran before it; validating an invalid Webhook 2.0x after the
 * valid one, 2.4x alone, while ajv did not move).
 */
export function runCasesIsolated(moduleUrl: string, names: readonly string[]): BenchResult[] {
  const results: BenchResult[] = [];
  // BENCH_ONLY narrows a (profiling) run to the cases whose name contains it.
  const only = process.env.BENCH_ONLY;
  for (const name of names.filter((n) => only === undefined || n.includes(only))) {
    const child = spawnSync(process.execPath, [...profileArgs(name), fileURLToPath(moduleUrl)], {
      env: { ...process.env, [CASE_VARIABLE]: name },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      maxBuffer: 1 << 20,
    });
    if (child.status !== 0) throw new Error(`bench case ${name} failed (exit ${child.status})`);
    results.push(...(JSON.parse(child.stdout) as BenchResult[]));
  }
  return results;
}

/**
 * In the child process runCasesIsolated started for a case of the module `moduleUrl`: run that case (looked up by
 * name with `run`) and write its results for the parent. Does nothing in any other process.
 */
export async function runIsolatedCaseIfChild(moduleUrl: string, run: (name: string) => Promise<BenchResult[]>): Promise<void> {
  const name = process.env[CASE_VARIABLE];
  if (name === undefined || process.argv[1] !== fileURLToPath(moduleUrl)) return;
  process.stdout.write(JSON.stringify(await run(name)));
}

/**
 * Median operations per CPU-second of each side over alternating rounds of `run(side)`, which does `count`
 * operations (requests, messages) asynchronously: for loopback comparisons where client and server both run in this
 * process, so the CPU time is the total work per operation. No GC between rounds (see rest-server.bench.ts).
 */
export async function interleaved<K extends string>(sides: readonly K[], count: number, rounds: number, run: (side: K) => Promise<void>): Promise<Record<K, number>> {
  for (const side of sides) await run(side); // warm-up
  const rates = new Map<K, number[]>(sides.map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    // Alternate which side goes first, so neither always runs right after the other.
    for (const side of r % 2 === 0 ? sides : [...sides].reverse()) {
      const start = cpuMs();
      await run(side);
      rates.get(side)!.push((count * 1000) / (cpuMs() - start));
    }
  }
  return Object.fromEntries(sides.map((k) => [k, median(rates.get(k)!)])) as Record<K, number>;
}
