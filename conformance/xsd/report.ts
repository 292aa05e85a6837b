/** Counting suite results: per test set and per failure class, and the docs/xml.md section made from them. */
import { FAILURE_CLASSES, type CaseResult } from "./run.js";

/** A group as the full run records it: its cases, and its strict tsc diagnostics' classes (undefined: not checked). */
export interface RecordedGroup {
  readonly id: string;
  readonly set: string;
  readonly generated: boolean;
  readonly cases: readonly CaseResult[];
  readonly tsc?: readonly string[];
}

export interface Counts {
  groups: number;
  generated: number;
  tscChecked: number;
  tscClean: number;
  valid: number;
  validPassed: number;
  invalid: number;
  invalidRejected: number;
  notApplicable: number;
}

const zero = (): Counts => ({ groups: 0, generated: 0, tscChecked: 0, tscClean: 0, valid: 0, validPassed: 0, invalid: 0, invalidRejected: 0, notApplicable: 0 });

export function count(groups: readonly RecordedGroup[]): { total: Counts; bySet: Map<string, Counts>; byClass: Map<string, number>; tscClasses: Map<string, number> } {
  const total = zero();
  const bySet = new Map<string, Counts>();
  const byClass = new Map<string, number>();
  const tscClasses = new Map<string, number>();
  for (const g of groups) {
    let s = bySet.get(g.set);
    if (!s) bySet.set(g.set, (s = zero()));
    for (const c of [total, s]) {
      c.groups++;
      if (g.generated) c.generated++;
      if (g.tsc !== undefined) {
        c.tscChecked++;
        if (g.tsc.length === 0) c.tscClean++;
      }
    }
    if (g.tsc !== undefined && g.tsc.length > 0) {
      byClass.set("tsc-errors", (byClass.get("tsc-errors") ?? 0) + 1);
      for (const k of new Set(g.tsc)) tscClasses.set(k, (tscClasses.get(k) ?? 0) + 1);
    }
    for (const r of g.cases) {
      for (const c of [total, s]) {
        if (r.outcome === "na") c.notApplicable++;
        else if (r.valid) {
          c.valid++;
          if (r.outcome === "pass") c.validPassed++;
        } else {
          c.invalid++;
          if (r.outcome === "pass") c.invalidRejected++;
        }
      }
      if (r.outcome !== "pass" && r.outcome !== "na") {
        const key = `${r.valid ? "valid" : "invalid"}: ${r.outcome}`;
        byClass.set(key, (byClass.get(key) ?? 0) + 1);
      }
    }
  }
  return { total, bySet, byClass, tscClasses };
}

/**
 * specforge's results counted over xsdata's cases (suite.ts xsdataValidCases): passed are the cases run here as valid
 * instances that pass; the others by why not. The groups xsdata has and this runner leaves out (XSD 1.1 only, or a
 * schema invalid under XSD 1.0) are `notRun`; an instance valid for XSD 1.1 and invalid for 1.0 is run here as an
 * invalid one (`invalidUnder10`).
 */
export interface XsdataCount {
  cases: number;
  passed: number;
  notRun: number;
  invalidUnder10: number;
  notApplicable: number;
  failed: number;
}

export function countXsdata(groups: readonly RecordedGroup[], xsdataCases: readonly string[]): XsdataCount {
  const byId = new Map<string, CaseResult>();
  for (const g of groups) for (const c of g.cases) byId.set(c.id, c);
  const n: XsdataCount = { cases: 0, passed: 0, notRun: 0, invalidUnder10: 0, notApplicable: 0, failed: 0 };
  for (const id of xsdataCases) {
    n.cases++;
    const c = byId.get(id);
    if (c === undefined) n.notRun++;
    else if (!c.valid) n.invalidUnder10++;
    else if (c.outcome === "pass") n.passed++;
    else if (c.outcome === "na") n.notApplicable++;
    else n.failed++;
  }
  return n;
}

export const DOCS_BEGIN = "<!-- xsd-suite:begin (written by npm run conformance:xsd) -->";
export const DOCS_END = "<!-- xsd-suite:end -->";

/** The generated part of docs/xml.md's suite section. */
export function docsSection(groups: readonly RecordedGroup[], skipped: Record<string, number>, when: string, xsdataCases?: readonly string[]): string {
  const { total, bySet, byClass, tscClasses } = count(groups);
  const pct = (a: number, b: number) => (b === 0 ? "-" : `${((100 * a) / b).toFixed(1)}%`);
  const lines: string[] = [DOCS_BEGIN, ""];
  lines.push(`Last full run: ${when}. ${total.groups} XSD 1.0 test groups with a valid schema (left out: ${Object.entries(skipped).map(([k, v]) => `${v} ${k}`).join(", ")}).`, "");
  lines.push("| | specforge | xsdata (its README) |", "|---|---:|---:|");
  lines.push(`| schemas generated | ${total.generated} of ${total.groups} | - |`);
  lines.push(`| generated code clean under strict tsc | ${total.tscClean} of ${total.tscChecked} | - |`);
  lines.push(`| valid instances passed (decode, validate, encode, libxml2-valid, same value) | ${total.validPassed} of ${total.valid} | 14,580 passed, 5 failed (XSD 1.0 and 1.1) |`);
  lines.push(`| invalid instances rejected (decoder or validator) | ${total.invalidRejected} of ${total.invalid} | not tried |`);
  if (xsdataCases !== undefined) {
    const x = countXsdata(groups, xsdataCases);
    lines.push(
      `| xsdata's definition: valid instances passed of xsdata's cases (every group, XSD 1.1 included, whose schema and instance are valid for some version) | ${x.passed} of ${x.cases} (not run here: ${x.notRun} in XSD 1.1-only groups or with a schema invalid under 1.0, ${x.invalidUnder10} invalid under 1.0; ${x.notApplicable} n/a; ${x.failed} failed) | 14,580 passed of 14,674 (5 failed, 89 skipped) |`,
    );
  }
  lines.push(`| not applicable (libxml2 rejects the schema or the original valid instance; instance with a DOCTYPE; schema needing a remote document) | ${total.notApplicable} | 89 skipped |`);
  lines.push("", "Failures by class (strict tsc counted per schema, the others per instance):", "", "| class | count | meaning |", "|---|---:|---|");
  for (const [k, v] of [...byClass].sort((a, b) => b[1] - a[1])) {
    const cls = k.replace(/^(valid|invalid): /, "") as keyof typeof FAILURE_CLASSES;
    lines.push(`| ${k} | ${v} | ${FAILURE_CLASSES[cls] ?? ""} |`);
  }
  if (tscClasses.size > 0) {
    lines.push("", "Strict tsc errors by message (schemas having it):", "", "| message | schemas |", "|---|---:|");
    for (const [k, v] of [...tscClasses].sort((a, b) => b[1] - a[1]).slice(0, 15)) lines.push(`| ${k.replace(/\|/g, "\\|")} | ${v} |`);
  }
  lines.push("", "Per test set:", "", "| test set | groups | generated | tsc clean | valid passed | invalid rejected | n/a |", "|---|---:|---:|---:|---:|---:|---:|");
  for (const [set, c] of [...bySet].sort((a, b) => a[0].localeCompare(b[0]))) {
    lines.push(`| ${set} | ${c.groups} | ${c.generated} | ${c.tscClean}/${c.tscChecked} | ${c.validPassed}/${c.valid} (${pct(c.validPassed, c.valid)}) | ${c.invalidRejected}/${c.invalid} (${pct(c.invalidRejected, c.invalid)}) | ${c.notApplicable} |`);
  }
  lines.push("", DOCS_END);
  return lines.join("\n");
}
