/**
 * The benchmark harness: every suite measures ours against peers on the same inputs in the same process run and
 * reports ratios (never absolute timings in tests: machines here are shared and noisy).
 */
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
  /** ours / peer: > 1 means we are faster. */
  readonly ratio: number;
}

export interface BenchSuite {
  readonly name: string;
  run(): Promise<BenchResult[]> | BenchResult[];
}

/** Operations per second of `fn`, best of several rounds after a warm-up (the best round is the least disturbed). */
export function opsPerSecond(fn: () => unknown, options: { rounds?: number; roundMs?: number } = {}): number {
  const rounds = options.rounds ?? 5;
  const roundMs = options.roundMs ?? 200;
  for (let i = 0; i < 50; i++) fn();
  let best = 0;
  for (let r = 0; r < rounds; r++) {
    let n = 0;
    const start = performance.now();
    let elapsed = 0;
    while (elapsed < roundMs) {
      for (let i = 0; i < 10; i++) fn();
      n += 10;
      elapsed = performance.now() - start;
    }
    best = Math.max(best, (n * 1000) / elapsed);
  }
  return best;
}

/** Measure ours and every peer, interleaved, and compare against the fastest peer. */
export function compare(
  name: string,
  ours: () => unknown,
  peers: Readonly<Record<string, () => unknown>>,
  unit = "ops/s",
): BenchResult {
  const oursOps = opsPerSecond(ours);
  let peerName = "";
  let peer = 0;
  for (const [n, fn] of Object.entries(peers)) {
    const ops = opsPerSecond(fn);
    if (ops > peer) {
      peer = ops;
      peerName = n;
    }
  }
  return { name, ours: Math.round(oursOps), peer: Math.round(peer), peerName, unit, ratio: Number((oursOps / peer).toFixed(2)) };
}

/**
 * A full garbage collection, run between measured rounds (never inside one): CPU time counts the collector's
 * threads too, so without it one side's garbage (zod allocates a lot) would be collected, and charged, during the
 * next side's round. `--expose-gc` turned on at run time, then `gc` taken from a fresh context.
 */
const collectGarbage: () => void = (() => {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
})();

/** CPU milliseconds of this process (user + system): unlike wall time, it leaves out time other processes on a
 * shared machine took from us. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
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

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * `compare` for noisy machines: rounds of ours and every peer alternate (so a busy spell hits all of them), time
 * is CPU time, the clock is read once per ~1 ms batch, and each side's figure is the median of its rounds.
 */
export function compareInterleaved(
  name: string,
  ours: () => unknown,
  peers: Readonly<Record<string, () => unknown>>,
  options: { rounds?: number; roundMs?: number; unit?: string } = {},
): BenchResult {
  const rounds = options.rounds ?? 15;
  const roundMs = options.roundMs ?? 40;
  const all = Object.entries({ ours, ...peers }).map(([label, fn]) => ({ label, fn, batch: batchSize(fn), ops: [] as number[] }));
  for (let r = 0; r < rounds; r++) {
    for (const side of all) {
      if (!process.env.NOGC) collectGarbage();
      let n = 0;
      const start = cpuMs();
      let elapsed = 0;
      while (elapsed < roundMs) {
        for (let i = 0; i < side.batch; i++) side.fn();
        n += side.batch;
        elapsed = cpuMs() - start;
      }
      side.ops.push((n * 1000) / elapsed);
    }
  }
  const o = median(all[0]!.ops);
  let peerName = "";
  let peer = 0;
  for (const side of all.slice(1)) {
    const m = median(side.ops);
    if (m > peer) {
      peer = m;
      peerName = side.label;
    }
  }
  return { name, ours: Math.round(o), peer: Math.round(peer), peerName, unit: options.unit ?? "ops/cpu-s", ratio: Number((o / peer).toFixed(2)) };
}
