import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { BenchResult, BenchSuite } from "./harness.js";

/**
 * `npm run bench [suite...]`: runs every suite (or the named ones), prints a table and writes bench/results.json
 * (an array of { name, ours, peer, peerName, unit, ratio }, ratio > 1 meaning we are faster).
 * Each suite's figures are also kept in bench/results/<suite>.json, so `npm run bench <suite>` refreshes one suite
 * and keeps the others. Register a suite by adding its module to SUITES.
 */
const SUITES: readonly (() => Promise<{ suite: BenchSuite }>)[] = [
  () => import("./protobuf.bench.js"),
  () => import("./rest-validators.bench.js"),
  () => import("./protojson.bench.js"),
  () => import("./rest-server.bench.js"),
  () => import("./soap.bench.js"),
  () => import("./generate.bench.js"),
];

const wanted = process.argv.slice(2);
const partsDir = path.join(import.meta.dirname, "results");
mkdirSync(partsDir, { recursive: true });
const results: BenchResult[] = [];
for (const load of SUITES) {
  const { suite } = await load();
  const part = path.join(partsDir, `${suite.name}.json`);
  if (wanted.length > 0 && !wanted.includes(suite.name)) {
    // A suite not run this time keeps its last figures, so running one suite never erases the others.
    if (existsSync(part)) results.push(...(JSON.parse(readFileSync(part, "utf8")) as BenchResult[]));
    continue;
  }
  process.stderr.write(`running ${suite.name}...\n`);
  const own = await suite.run();
  writeFileSync(part, JSON.stringify(own, null, 2) + "\n");
  results.push(...own);
  for (const r of own) {
    console.log(`${r.name.padEnd(48)} ours ${String(r.ours).padStart(10)} ${r.unit}  ${r.peerName.padEnd(20)} ${String(r.peer).padStart(10)}  x${r.ratio}`);
  }
}
const file = path.join(import.meta.dirname, "results.json");
writeFileSync(file, JSON.stringify(results, null, 2) + "\n");
console.log(`wrote ${path.relative(process.cwd(), file)} (${results.length} results)`);
