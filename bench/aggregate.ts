import type { BenchResult } from "./harness.js";
import { median } from "./harness.js";

/**
 * Several full runs of a suite folded into one row per case: the median of each figure, and the lowest and highest
 * ratio seen, so a table can say how far apart the runs were. A case missing from some runs (a suite changed
 * between them) is folded over the runs that have it.
 */
export function aggregateRuns(runs: readonly (readonly BenchResult[])[]): BenchResult[] {
  if (runs.length === 1) return [...runs[0]!];
  const byName = new Map<string, BenchResult[]>();
  for (const run of runs) {
    for (const r of run) {
      const list = byName.get(r.name);
      if (list) list.push(r);
      else byName.set(r.name, [r]);
    }
  }
  return [...byName.values()].map((results) => {
    const ratios = results.map((r) => r.ratio);
    // The peer named is the one fastest in most runs (the fastest peer can change between runs of close peers).
    const peerName = mostCommon(results.map((r) => r.peerName));
    return {
      name: results[0]!.name,
      ours: Math.round(median(results.map((r) => r.ours))),
      peer: Math.round(median(results.map((r) => r.peer))),
      peerName,
      unit: results[0]!.unit,
      ratio: Number(median(ratios).toFixed(2)),
      runs: results.length,
      ratioMin: Math.min(...ratios),
      ratioMax: Math.max(...ratios),
    };
  });
}

function mostCommon(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
}
