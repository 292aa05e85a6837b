/**
 * The W3C XSD suite's lists: known failures (what specforge fails today, with the class it fails in and why) and
 * regressions (groups that once failed and were fixed). Both are enforced wherever cases run (test/conformance/
 * xsd-suite.test.ts on its sample, scripts/conformance-xsd.ts on the whole suite): a listed failure that now passes,
 * or fails in another class, is reported, so the list cannot rot; in the sample, an unlisted failure is reported.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { RecordedGroup } from "./report.js";
import type { TestGroup } from "./suite.js";

export const KNOWN_FAILURES = path.join(import.meta.dirname, "known-failures.txt");
export const REGRESSIONS = path.join(import.meta.dirname, "regressions.txt");

export interface KnownFailure {
  /** An instance case id, or `<group id>#tsc` for the group's generated code under strict tsc. */
  readonly id: string;
  readonly outcome: string;
  readonly reason: string;
}

/** `<id> <class> # <reason>` per line; blank lines and lines starting with "#" are comments. */
export function readKnownFailures(file = KNOWN_FAILURES): KnownFailure[] {
  const out: KnownFailure[] = [];
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (line.trim() === "" || line.trimStart().startsWith("#")) return;
      const m = /^(\S+)\s+(\S+)\s+#\s*(\S.*)$/.exec(line.trim());
      if (!m) throw new Error(`${file}:${i + 1}: expected "<case id> <class> # <reason>", got: ${line}`);
      out.push({ id: m[1]!, outcome: m[2]!, reason: m[3]! });
    });
  return out;
}

/** Group ids, one per line ("#" starts a comment). */
export function readRegressions(file = REGRESSIONS): string[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .map((l) => l.replace(/#.*/, "").trim())
    .filter(Boolean);
}

/** The group a case id belongs to. */
export function groupOf(caseId: string, groupIds: ReadonlySet<string>): string | undefined {
  const base = caseId.replace(/#tsc$/, "");
  if (groupIds.has(base)) return base;
  const cut = base.lastIndexOf("/");
  return cut > 0 && groupIds.has(base.slice(0, cut)) ? base.slice(0, cut) : undefined;
}

/** The fixed sample npm test runs: about one group in `every`, chosen by a hash of its id (stable as the suite grows). */
export function inSample(groupId: string, every = 25): boolean {
  return Number.parseInt(createHash("sha256").update(groupId).digest("hex").slice(0, 8), 16) % every === 0;
}

/** The groups npm test runs: the sample, every regression, every group with a listed known failure. */
export function testGroups(all: readonly TestGroup[], every?: number): TestGroup[] {
  const ids = new Set(all.map((g) => g.id));
  const wanted = new Set(readRegressions());
  for (const k of readKnownFailures()) {
    const g = groupOf(k.id, ids);
    if (g) wanted.add(g);
  }
  return all.filter((g) => wanted.has(g.id) || inSample(g.id, every));
}

/**
 * What is wrong with `recorded` against the lists. `complete`: every failure among these groups must be listed
 * (the sample); otherwise only the listed cases and regressions are held to it (the full run).
 */
export function checkAgainstLists(recorded: readonly RecordedGroup[], complete = false): string[] {
  const outcomes = new Map<string, string>();
  for (const g of recorded) {
    if (g.tsc !== undefined) outcomes.set(`${g.id}#tsc`, g.tsc.length === 0 ? "pass" : "tsc-errors");
    for (const c of g.cases) outcomes.set(c.id, c.outcome);
  }
  const known = readKnownFailures();
  const listed = new Map(known.map((k) => [k.id, k]));
  const problems: string[] = [];
  if (listed.size !== known.length) problems.push("known-failures.txt lists a case twice");
  for (const k of known) {
    const got = outcomes.get(k.id);
    if (got === undefined) continue;
    if (got === "pass" || got === "na") problems.push(`${k.id}: listed as a known ${k.outcome} failure but now ${got === "pass" ? "passes" : "is not applicable"}: remove it from conformance/xsd/known-failures.txt`);
    else if (got !== k.outcome) problems.push(`${k.id}: listed as a known ${k.outcome} failure but fails as ${got}`);
  }
  const regressions = new Set(readRegressions());
  for (const g of recorded) {
    const enforced = complete || regressions.has(g.id);
    if (!enforced) continue;
    for (const [id, got] of outcomes) {
      if (got === "pass" || got === "na" || listed.has(id)) continue;
      if (id === `${g.id}#tsc` || id.startsWith(`${g.id}/`)) problems.push(`${id}: ${got} (not a listed known failure)`);
    }
  }
  return problems;
}
