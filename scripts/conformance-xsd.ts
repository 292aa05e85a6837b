/**
 * `npm run conformance:xsd`: every XSD 1.0 group of the W3C XML Schema test suite through specforge
 * (conformance/xsd/run.ts), in this one process, then the counts into docs/xml.md.
 *
 * Resumable: results go to .specforge-cache/xsd-suite/results.jsonl a batch of groups at a time (a batch is run,
 * type-checked in one tsc program, then appended); a second run with the same generator (same src/ contents) goes on
 * where the first stopped. Options:
 *   --fresh          forget earlier results
 *   --no-tsc         skip strict tsc (much faster; tsc counts then cover only what was checked before)
 *   --tsc-every <n>  type-check one group in n (chosen by a hash of its id, as npm test's sample), default 1
 *   --set <name>     only test sets whose name contains <name> (repeatable); docs are not written
 *   --xsd <1.0|1.1>  only the groups run under that XSD version (1.1: judged by python's xmlschema, judge.ts);
 *                    docs are not written
 *   --batch <n>      groups per batch (default 150)
 *   --no-docs        do not rewrite docs/xml.md
 *   --sample         only the groups npm test runs (test/conformance/xsd-suite.test.ts); docs are not written
 *   --write-known    rewrite conformance/xsd/known-failures.txt from this run's failures (with --sample: the list
 *                    the test enforces), keeping the reason of every entry that still fails in the same class
 * Failing cases are listed in .specforge-cache/xsd-suite/failures.txt (id, class, detail).
 */
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { docsSection, DOCS_BEGIN, DOCS_END, count, type RecordedGroup } from "../conformance/xsd/report.js";
import { runGroup, tscClass, typecheckGroups } from "../conformance/xsd/run.js";
import { readSuite, xsdataValidCases } from "../conformance/xsd/suite.js";
import { checkAgainstLists, inSample, KNOWN_FAILURES, readKnownFailures, testGroups } from "../conformance/xsd/known-failures.js";

const REPO = path.resolve(import.meta.dirname, "..");
const STATE = path.join(REPO, ".specforge-cache", "xsd-suite");
const sample = process.argv.includes("--sample");
const RESULTS = path.join(STATE, sample ? "results-sample.jsonl" : "results.jsonl");
const META = path.join(STATE, sample ? "meta-sample.json" : "meta.json");

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const values = (name: string) => args.flatMap((a, i) => (args[i - 1] === name ? [a] : []));
const batchSize = Number(values("--batch")[0] ?? 150);
const sets = values("--set");
const tsc = !flag("--no-tsc");
const tscEvery = Number(values("--tsc-every")[0] ?? 1);
const onlyVersion = values("--xsd")[0];

/** The generator's fingerprint: every file under src/ (results of another generator are not resumed). */
function fingerprint(): string {
  const hash = createHash("sha256");
  const walk = (dir: string): void => {
    for (const n of readdirSync(dir).sort()) {
      const p = path.join(dir, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (!n.endsWith(".txt")) hash.update(`${p}\0`).update(readFileSync(p));
    }
  };
  walk(path.join(REPO, "src"));
  // What decides the results (not report.ts, which only counts them, nor the .txt lists).
  for (const f of ["run.ts", "suite.ts", "load-in-memory.ts", "judge.ts", "xmlschema-judge.py", "catalog/catalog.xml", "catalog/xml.xsd", "catalog/xlink.xsd"]) hash.update(readFileSync(path.join(REPO, "conformance", "xsd", f)));
  return hash.digest("hex").slice(0, 16);
}

mkdirSync(STATE, { recursive: true });
const print = fingerprint();
const meta = existsSync(META) ? (JSON.parse(readFileSync(META, "utf8")) as { fingerprint: string }) : undefined;
if (flag("--fresh") || meta?.fingerprint !== print) {
  if (existsSync(RESULTS)) process.stderr.write(flag("--fresh") ? "starting afresh\n" : "the generator changed since the last run: starting afresh\n");
  rmSync(RESULTS, { force: true });
  writeFileSync(META, JSON.stringify({ fingerprint: print }));
}
const done = new Map<string, RecordedGroup>();
if (existsSync(RESULTS)) {
  for (const line of readFileSync(RESULTS, "utf8").split("\n")) if (line) done.set((JSON.parse(line) as RecordedGroup).id, JSON.parse(line) as RecordedGroup);
}

const suite = readSuite();
const groups = (sample ? testGroups(suite.groups) : suite.groups).filter(
  (g) => (sets.length === 0 || sets.some((s) => g.set.includes(s))) && (onlyVersion === undefined || g.version === onlyVersion),
);
const todo = groups.filter((g) => !done.has(g.id));
process.stderr.write(`${groups.length} groups (${done.size} done before), ${todo.length} to run${tsc ? `, strict tsc per batch${tscEvery > 1 ? ` on one group in ${tscEvery}` : ""}` : ""}\n`);
// One folder per process: a sample run beside a full run must not share xmllint's inputs.
const work = mkdtempSync(path.join(os.tmpdir(), "specforge-xsd-suite-"));
const start = Date.now();
for (let i = 0; i < todo.length; i += batchSize) {
  const batch: Awaited<ReturnType<typeof runGroup>>[] = [];
  for (const g of todo.slice(i, i + batchSize)) batch.push(await runGroup(g, { work, keepFiles: tsc && (tscEvery <= 1 || inSample(g.id, tscEvery)) }));
  const diags = tsc ? typecheckGroups(batch.filter((g) => g.generated)) : new Map<string, string[]>();
  const lines = batch.map((g) => {
    const rec: RecordedGroup = { id: g.id, set: g.set, version: g.version, generated: g.generated, cases: g.cases, ...(diags.has(g.id) ? { tsc: diags.get(g.id)!.map(tscClass) } : {}) };
    done.set(g.id, rec);
    return JSON.stringify(rec);
  });
  appendFileSync(RESULTS, `${lines.join("\n")}\n`);
  const ran = Math.min(i + batchSize, todo.length);
  const { total } = count([...done.values()]);
  const eta = ((Date.now() - start) / ran) * (todo.length - ran);
  process.stderr.write(
    `${done.size}/${groups.length} groups: valid ${total.validPassed}/${total.valid} passed, invalid ${total.invalidRejected}/${total.invalid} rejected, tsc clean ${total.tscClean}/${total.tscChecked}; ~${Math.round(eta / 60000)} min left\n`,
  );
}
rmSync(work, { recursive: true, force: true });

const recorded = groups.map((g) => done.get(g.id)!);
const failures = recorded.flatMap((g) => [
  ...(g.tsc && g.tsc.length > 0 ? [`${g.id}#tsc\ttsc-errors\t${g.tsc[0]}`] : []),
  ...g.cases.filter((c) => c.outcome !== "pass" && c.outcome !== "na").map((c) => `${c.id}\t${c.outcome}\t${(c.detail ?? "").replace(/\s+/g, " ")}`),
]);
writeFileSync(path.join(STATE, "failures.txt"), `${failures.join("\n")}\n`);
const section = docsSection(recorded, suite.skipped, new Date().toISOString().slice(0, 10), xsdataValidCases());
process.stdout.write(`${section}\n`);
if (flag("--write-known")) {
  const before = new Map(readKnownFailures().map((k) => [k.id, k]));
  const header = readFileSync(KNOWN_FAILURES, "utf8").split("\n").filter((l) => l.startsWith("#"));
  const entries = failures.map((line) => {
    const [id, outcome, detail] = line.split("\t") as [string, string, string];
    const old = before.get(id);
    const reason = old?.outcome === outcome ? old.reason : (detail || outcome).replace(/\s+/g, " ").slice(0, 200);
    return `${id} ${outcome} # ${reason}`;
  });
  writeFileSync(KNOWN_FAILURES, `${[...header, "", ...entries].join("\n")}\n`);
  process.stderr.write(`${KNOWN_FAILURES}: ${entries.length} entries\n`);
}
if (sets.length === 0 && onlyVersion === undefined && !sample && !flag("--no-docs")) {
  const docs = path.join(REPO, "docs", "xml.md");
  const text = readFileSync(docs, "utf8");
  const a = text.indexOf(DOCS_BEGIN);
  const b = text.indexOf(DOCS_END);
  if (a < 0 || b < 0) throw new Error(`docs/xml.md has no ${DOCS_BEGIN} ... ${DOCS_END} section`);
  writeFileSync(docs, text.slice(0, a) + section + text.slice(b + DOCS_END.length));
  process.stderr.write("docs/xml.md updated\n");
}
// The known-failures and regression lists hold for the full run as for the sample in npm test.
const problems = flag("--write-known") ? [] : checkAgainstLists(recorded, sample);
for (const p of problems) process.stderr.write(`${p}\n`);
process.exitCode = problems.length > 0 ? 1 : 0;
