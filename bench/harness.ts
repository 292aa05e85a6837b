/**
 * The benchmark harness: every suite measures ours against peers on the same inputs in the same process run and
 * reports ratios (never absolute timings in tests: machines here are shared and noisy).
 */
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
