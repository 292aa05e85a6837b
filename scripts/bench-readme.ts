/**
 * `npm run bench:readme`: rewrites the performance table in README.md (between the `bench-table` markers) from
 * bench/results.json, so the README shows what the last full `npm run bench -- --runs N` measured and how far apart
 * its runs were, never figures typed by hand. Rows are chosen here by result name; a row whose result is missing
 * fails the script rather than leaving a stale figure.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { BenchResult } from "../bench/harness.js";
import { benchTable, TABLE_ROWS } from "../bench/readme-table.js";

const REPO = path.resolve(import.meta.dirname, "..");
const README = path.join(REPO, "README.md");
const START = "<!-- bench-table:start (npm run bench:readme) -->";
const END = "<!-- bench-table:end -->";

const results = JSON.parse(readFileSync(path.join(REPO, "bench/results.json"), "utf8")) as BenchResult[];
const readme = readFileSync(README, "utf8");
const from = readme.indexOf(START);
const to = readme.indexOf(END);
if (from < 0 || to < from) throw new Error(`README.md has no ${START} ... ${END} section`);
writeFileSync(README, readme.slice(0, from + START.length) + "\n" + benchTable(results) + "\n" + readme.slice(to));
console.log(`README.md: performance table rewritten from bench/results.json (${TABLE_ROWS} rows)`);
