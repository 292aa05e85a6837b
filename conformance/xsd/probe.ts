/**
 * Run the W3C XSD groups whose id contains one of the arguments and print each case's outcome (a debugging aid:
 * `npx tsx conformance/xsd/probe.ts suntest/test006 --failing`).
 */
import { tmpdir } from "node:os";
import path from "node:path";
import { runGroup } from "./run.js";
import { readSuite } from "./suite.js";

const args = process.argv.slice(2);
const failing = args.includes("--failing");
const wanted = args.filter((a) => !a.startsWith("--"));
const counts = new Map<string, number>();
for (const g of readSuite().groups) {
  if (!wanted.some((w) => g.id.includes(w))) continue;
  const r = await runGroup(g, { work: path.join(tmpdir(), `xsd-probe-${process.pid}`) });
  for (const c of r.cases) {
    const key = `${c.valid ? "valid" : "invalid"}: ${c.outcome}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (!failing || (c.outcome !== "pass" && c.outcome !== "na")) console.log(`${c.id}\t${c.outcome}\t${c.detail ?? ""}`);
  }
}
console.log([...counts].map(([k, n]) => `${k} ${n}`).join("\n"));
