/**
 * `npm run fuzz [-- --seconds N] [--seed S]`: the codec fuzz properties of test/fuzz/properties.ts, run with fresh
 * seeds, round-robin over the properties, until the time budget (default 60 s) is spent. Prints the runs per
 * property and, for a failure, the property, the seed and the counterexample (replay with --seed and the test's
 * `fc.assert(property, { seed, path })`). Exit code 1 when anything failed.
 */
import fc from "fast-check";
import { parseArgs } from "node:util";
import { fuzzProperties } from "../test/fuzz/properties.js";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "60" }, seed: { type: "string" } } });
const seconds = Number(values.seconds);
if (!Number.isFinite(seconds) || seconds <= 0) {
  console.error(`--seconds must be a positive number, got ${JSON.stringify(values.seconds)}`);
  process.exit(2);
}
const firstSeed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);

const properties = fuzzProperties();
const runs = new Map(properties.map((p) => [p.name, 0]));
const failures: { name: string; seed: number; path?: string; counterexample: string; error: string }[] = [];
const deadline = Date.now() + seconds * 1000;
let seed = firstSeed;
console.log(`fuzzing ${properties.length} properties for ${seconds} s, first seed ${firstSeed}`);

while (Date.now() < deadline) {
  for (const p of properties) {
    if (Date.now() >= deadline) break;
    if (failures.some((f) => f.name === p.name)) continue; // one counterexample per property is enough
    const numRuns = Math.max(10, Math.ceil(p.numRuns / 2));
    const details = fc.check(p.property, { seed, numRuns });
    runs.set(p.name, runs.get(p.name)! + details.numRuns);
    if (details.failed) {
      failures.push({
        name: p.name,
        seed,
        ...(details.counterexamplePath ? { path: details.counterexamplePath } : {}),
        counterexample: fc.stringify(details.counterexample).slice(0, 500),
        error: String((details.errorInstance as Error | undefined)?.message ?? details.errorInstance).slice(0, 500),
      });
    }
    seed = (seed + 1) % 2 ** 31;
  }
  if (failures.length === properties.length) break;
}

let total = 0;
for (const [name, n] of runs) {
  total += n;
  console.log(`${String(n).padStart(8)}  ${name}`);
}
console.log(`${String(total).padStart(8)}  runs in total, ${failures.length} failing propert${failures.length === 1 ? "y" : "ies"}`);
for (const f of failures) {
  console.log(`\nFAILED ${f.name}\n  seed ${f.seed}${f.path ? `, path ${f.path}` : ""}\n  counterexample ${f.counterexample}\n  ${f.error}`);
}
process.exit(failures.length > 0 ? 1 : 0);
