import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchResult, BenchSuite } from "./harness.js";

/**
 * `npm run bench [suite...]`: runs every suite (or the named ones), prints a table and writes bench/results.json
 * (an array of { name, ours, peer, peerName, unit, ratio }, ratio > 1 meaning we are faster).
 * Each suite's figures are also kept in bench/results/<suite>.json, so `npm run bench <suite>` refreshes one suite
 * and keeps the others. Register a suite by adding its name to SUITES (bench/<name>.bench.ts exports `suite`).
 */
const SUITES: readonly string[] = ["protobuf", "rest-validators", "protojson", "rest-server", "soap", "generate", "size", "rpc"];

/** The suite of bench/<name>.bench.ts. */
async function loadSuite(name: string): Promise<BenchSuite> {
  const { suite } = (await import(`./${name}.bench.js`)) as { suite: BenchSuite };
  if (suite.name !== name) throw new Error(`bench/${name}.bench.ts names its suite ${suite.name}`);
  return suite;
}

const partsDir = path.join(import.meta.dirname, "results");
mkdirSync(partsDir, { recursive: true });
const child = process.env.BENCH_SUITE;

if (child !== undefined) {
  // One suite, in this (child) process: measure, print the table rows, keep the figures in results/<suite>.json.
  if (!SUITES.includes(child)) throw new Error(`no bench suite ${child}`);
  const own = await (await loadSuite(child)).run();
  writeFileSync(path.join(partsDir, `${child}.json`), JSON.stringify(own, null, 2) + "\n");
  for (const r of own) {
    console.log(`${r.name.padEnd(48)} ours ${String(r.ours).padStart(10)} ${r.unit}  ${r.peerName.padEnd(20)} ${String(r.peer).padStart(10)}  x${r.ratio}`);
  }
} else {
  // Every suite runs in a process of its own: in one process a suite ran on the heap and the JIT state the suites
  // before it left (the SOAP decode measured 5.5x there and 12-15x alone).
  const wanted = process.argv.slice(2);
  const results: BenchResult[] = [];
  for (const name of wanted) if (!SUITES.includes(name)) throw new Error(`no bench suite ${name} (suites: ${SUITES.join(", ")})`);
  for (const name of SUITES) {
    const part = path.join(partsDir, `${name}.json`);
    if (wanted.length === 0 || wanted.includes(name)) {
      process.stderr.write(`running ${name}...\n`);
      const run = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
        env: { ...process.env, BENCH_SUITE: name },
        stdio: "inherit",
      });
      if (run.status !== 0) throw new Error(`bench suite ${name} failed (exit ${run.status})`);
    }
    // A suite not run this time keeps its last figures, so running one suite never erases the others.
    if (existsSync(part)) results.push(...(JSON.parse(readFileSync(part, "utf8")) as BenchResult[]));
  }
  const file = path.join(import.meta.dirname, "results.json");
  writeFileSync(file, JSON.stringify(results, null, 2) + "\n");
  console.log(`wrote ${path.relative(process.cwd(), file)} (${results.length} results)`);
}
