import { writeFileSync } from "node:fs";
import path from "node:path";
import type { BenchResult, BenchSuite } from "./harness.js";

/**
 * `npm run bench [suite...]`: runs every suite (or the named ones), prints a table and writes bench/results.json
 * (an array of { name, ours, peer, peerName, unit, ratio }, ratio > 1 meaning we are faster).
 * Register a suite by adding its module to SUITES.
 */
const SUITES: readonly (() => Promise<{ suite: BenchSuite }>)[] = [];

const wanted = process.argv.slice(2);
const results: BenchResult[] = [];
for (const load of SUITES) {
  const { suite } = await load();
  if (wanted.length > 0 && !wanted.includes(suite.name)) continue;
  process.stderr.write(`running ${suite.name}...\n`);
  results.push(...(await suite.run()));
}
for (const r of results) {
  console.log(`${r.name.padEnd(48)} ours ${String(r.ours).padStart(10)} ${r.unit}  ${r.peerName.padEnd(20)} ${String(r.peer).padStart(10)}  x${r.ratio}`);
}
const file = path.join(import.meta.dirname, "results.json");
writeFileSync(file, JSON.stringify(results, null, 2) + "\n");
console.log(`wrote ${path.relative(process.cwd(), file)} (${results.length} results)`);
