/**
 * The JSON Schema Test Suite through generated validators (see suite.ts), beside ajv on the same cases.
 *
 * Enforced: with the options that follow JSON Schema (PARTS' modes), every applicable case passes unless
 * known-failures.ts lists it (with its reason), and every listed one still fails; with the default options, the cases
 * that fail are those and exactly the deliberate divergences default-mode.ts lists; not-applicable.ts is exactly what the applicability rules exclude; the counts table in
 * docs/validators.md is the one this run produces (`SPECFORGE_UPDATE_SUITE_DOCS=1` rewrites it); for the formats
 * OpenAPI users meet, specforge passes at least as many optional format cases as ajv + ajv-formats.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { notApplicableReason } from "./applicability.js";
import { DEFAULT_MODE_DIVERGENCES } from "./default-mode.js";
import { KNOWN_FAILURES } from "./known-failures.js";
import { NOT_APPLICABLE } from "./not-applicable.js";
import { countsTable, DEFAULTS, DOC, groupKeyOf, PARTS, readGroups, runSuite, SUITE, suiteFiles, TABLE_END, TABLE_START, type FileResult } from "./suite.js";

/** Formats whose optional cases must pass at least as often as with ajv + ajv-formats. */
const FORMATS = [
  "date-time", "date", "time", "duration", "email", "hostname", "ipv4", "ipv6", "uri", "uri-reference", "uuid", "regex", "json-pointer",
];

const notApplicable = new Map(NOT_APPLICABLE.map((e) => [e.group, e.reason]));

/** The reason a case is a known failure: listed by its own key or by its group's. */
function knownFailure(key: string, group: string): string | undefined {
  return KNOWN_FAILURES.get(key) ?? KNOWN_FAILURES.get(group);
}

describe.skipIf(!existsSync(SUITE))("JSON Schema Test Suite", () => {
  let results: FileResult[];
  let defaults: FileResult[];
  beforeAll(async () => {
    results = await runSuite((_key, group) => notApplicable.get(group));
    defaults = await runSuite((_key, group) => notApplicable.get(group), PARTS.map((p) => ({ ...p, mode: DEFAULTS })));
  }, 600_000);

  it("lists as not applicable exactly the groups the applicability rules exclude", () => {
    const expected: { group: string; reason: string }[] = [];
    for (const part of PARTS) {
      for (const file of suiteFiles(part)) {
        for (const g of readGroups(part, file)) {
          const reason = notApplicableReason(part.draft, g.schema);
          if (reason !== undefined) expected.push({ group: groupKeyOf(part.folder, file, g.description), reason });
        }
      }
    }
    expect(NOT_APPLICABLE).toEqual(expected);
  });

  it("passes every applicable case but the known failures, and each known failure still fails", () => {
    const unexpected: string[] = [];
    const fixed: string[] = [];
    const seen = new Set<string>();
    for (const r of results) {
      for (const c of r.cases) {
        if (c.notApplicable !== undefined) continue;
        const known = knownFailure(c.key, c.groupKey);
        if (KNOWN_FAILURES.has(c.key)) seen.add(c.key);
        if (KNOWN_FAILURES.has(c.groupKey)) seen.add(c.groupKey);
        if (!c.ours && known === undefined) unexpected.push(`${c.key}: ${c.detail}`);
        if (c.ours && known !== undefined) fixed.push(`${c.key} (listed: ${known})`);
      }
    }
    expect(unexpected, "failing cases that known-failures.ts does not list").toEqual([]);
    expect(fixed, "listed known failures that pass now: take them off known-failures.ts").toEqual([]);
    expect([...KNOWN_FAILURES.keys()].filter((k) => !seen.has(k)), "known-failures.ts entries that name no case").toEqual([]);
  });

  it("with the default options, fails only the known failures and the deliberate divergences default-mode.ts lists", () => {
    const unexpected: string[] = [];
    const fixed: string[] = [];
    const seen = new Set<string>();
    for (const r of defaults) {
      for (const c of r.cases) {
        if (c.notApplicable !== undefined) continue;
        const divergence = DEFAULT_MODE_DIVERGENCES.get(c.key) ?? DEFAULT_MODE_DIVERGENCES.get(c.groupKey);
        if (DEFAULT_MODE_DIVERGENCES.has(c.key)) seen.add(c.key);
        if (DEFAULT_MODE_DIVERGENCES.has(c.groupKey)) seen.add(c.groupKey);
        if (!c.ours && divergence === undefined && knownFailure(c.key, c.groupKey) === undefined) unexpected.push(`${c.key}: ${c.detail}`);
        if (c.ours && divergence !== undefined) fixed.push(`${c.key} (listed: ${divergence})`);
      }
    }
    expect(unexpected, "cases failing under the default options that neither default-mode.ts nor known-failures.ts lists").toEqual([]);
    expect(fixed, "listed default-mode divergences that pass under the defaults: take them off default-mode.ts").toEqual([]);
    expect([...DEFAULT_MODE_DIVERGENCES.keys()].filter((k) => !seen.has(k)), "default-mode.ts entries that name no case").toEqual([]);
    expect([...DEFAULT_MODE_DIVERGENCES.keys()].filter((k) => KNOWN_FAILURES.has(k)), "listed in both files").toEqual([]);
  });

  it("passes at least as many optional format cases as ajv + ajv-formats for the formats OpenAPI users meet", () => {
    for (const format of FORMATS) {
      const r = results.find((x) => x.folder.endsWith("optional/format") && x.file === `${format}.json`);
      expect(r, format).toBeDefined();
      const ours = r!.cases.filter((c) => c.ours).length;
      const ajv = r!.cases.filter((c) => c.ajv).length;
      expect(ours, `${format}: specforge ${ours}, ajv ${ajv}`).toBeGreaterThanOrEqual(ajv);
    }
  });

  it("has its counts in docs/validators.md", () => {
    const table = countsTable(results, defaults);
    const doc = readFileSync(DOC, "utf8");
    const start = doc.indexOf(TABLE_START);
    const end = doc.indexOf(TABLE_END);
    expect(start, "docs/validators.md has the suite table markers").toBeGreaterThanOrEqual(0);
    const current = doc.slice(start, end + TABLE_END.length);
    if (process.env.SPECFORGE_UPDATE_SUITE_DOCS === "1" && current !== table) {
      writeFileSync(DOC, doc.slice(0, start) + table + doc.slice(end + TABLE_END.length));
      return;
    }
    expect(current).toBe(table);
  });
});
