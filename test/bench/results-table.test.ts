import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { aggregateRuns } from "../../bench/aggregate.js";
import type { BenchResult } from "../../bench/harness.js";
import { benchTable } from "../../bench/readme-table.js";

const REPO = path.resolve(import.meta.dirname, "../..");

function result(name: string, ours: number, peer: number, peerName = "peer"): BenchResult {
  return { name, ours, peer, peerName, unit: "ops/s", ratio: Number((ours / peer).toFixed(2)) };
}

describe("several bench runs folded into one row per case", () => {
  it("takes medians and keeps the lowest and highest ratio", () => {
    const rows = aggregateRuns([
      [result("a", 100, 50), result("b", 10, 10)],
      [result("a", 130, 50, "other"), result("b", 12, 10)],
      [result("a", 90, 60), result("b", 30, 10)],
    ]);
    expect(rows).toEqual([
      { name: "a", ours: 100, peer: 50, peerName: "peer", unit: "ops/s", ratio: 2, runs: 3, ratioMin: 1.5, ratioMax: 2.6 },
      { name: "b", ours: 12, peer: 10, peerName: "peer", unit: "ops/s", ratio: 1.2, runs: 3, ratioMin: 1, ratioMax: 3 },
    ]);
  });

  it("leaves a single run as it is", () => {
    expect(aggregateRuns([[result("a", 3, 2)]])).toEqual([result("a", 3, 2)]);
  });
});

describe("the README's performance table", () => {
  const results = JSON.parse(readFileSync(path.join(REPO, "bench/results.json"), "utf8")) as BenchResult[];

  it("is the one npm run bench:readme writes from bench/results.json (never typed by hand)", () => {
    const readme = readFileSync(path.join(REPO, "README.md"), "utf8");
    const table = readme.slice(readme.indexOf("<!-- bench-table:start"), readme.indexOf("<!-- bench-table:end -->"));
    expect(table).toContain(benchTable(results));
  });

  it("refuses to write a row whose result is missing", () => {
    expect(() => benchTable(results.filter((r) => !r.name.startsWith("soap decode")))).toThrow(/no result named "soap decode queryResponse \(200 records\) vs node-soap"/);
  });
});
