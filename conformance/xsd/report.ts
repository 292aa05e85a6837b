/** Counting suite results: per test set and per failure class, and the docs/xml.md section made from them. */
import { FAILURE_CLASSES, type CaseResult } from "./run.js";

/** A group as the full run records it: its cases, and its strict tsc diagnostics' classes (undefined: not checked). */
export interface RecordedGroup {
  readonly id: string;
  readonly set: string;
  /** The XSD version it ran under (undefined in records from before XSD 1.1 groups ran: 1.0). */
  readonly version?: "1.0" | "1.1";
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
 * instances that pass (in XSD 1.0 and XSD 1.1 groups alike); the others by why not. The groups xsdata has and this
 * runner leaves out are `notRun`; an instance valid for XSD 1.1 and invalid for 1.0, in a group run as XSD 1.0, is
 * run here as an invalid one (`invalidUnder10`).
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

const is11 = (g: RecordedGroup) => g.version === "1.1";

export const DOCS_BEGIN = "<!-- xsd-suite:begin (written by npm run conformance:xsd) -->";
export const DOCS_END = "<!-- xsd-suite:end -->";

/** The generated part of docs/xml.md's suite section. */
export function docsSection(groups: readonly RecordedGroup[], skipped: Record<string, number>, when: string, xsdataCases?: readonly string[]): string {
  const { total, byClass, tscClasses } = count(groups.filter((g) => !is11(g)));
  const v11 = count(groups.filter(is11));
  const { bySet } = count(groups.map((g) => (is11(g) ? { ...g, set: `${g.set} (XSD 1.1)` } : g)));
  const pct = (a: number, b: number) => (b === 0 ? "-" : `${((100 * a) / b).toFixed(1)}%`);
  const lines: string[] = [DOCS_BEGIN, ""];
  lines.push(
    `Last full run: ${when}. ${total.groups} XSD 1.0 test groups with a valid schema (judged by libxml2) and ${v11.total.groups} XSD 1.1 groups (XSD 1.1 only, or a schema valid under 1.1 only; judged by python's xmlschema, XSD 1.1 validator) (left out: ${Object.entries(skipped).map(([k, v]) => `${v} ${k}`).join(", ")}).`,
    "",
  );
  lines.push("| | specforge, XSD 1.0 groups | specforge, XSD 1.1 groups | xsdata (its README) |", "|---|---:|---:|---:|");
  const t = total;
  const u = v11.total;
  lines.push(`| schemas generated | ${t.generated} of ${t.groups} | ${u.generated} of ${u.groups} | - |`);
  lines.push(`| generated code clean under strict tsc | ${t.tscClean} of ${t.tscChecked} | ${u.tscClean} of ${u.tscChecked} | - |`);
  lines.push(`| valid instances passed (decode, validate, encode, judge-valid, same value) | ${t.validPassed} of ${t.valid} | ${u.validPassed} of ${u.valid} | 14,580 passed, 5 failed (XSD 1.0 and 1.1) |`);
  lines.push(`| invalid instances rejected (decoder or validator) | ${t.invalidRejected} of ${t.invalid} | ${u.invalidRejected} of ${u.invalid} | not tried |`);
  lines.push(`| not applicable (the judge rejects the schema or the original valid instance; instance with a DOCTYPE; schema needing a remote document) | ${t.notApplicable} | ${u.notApplicable} | 89 skipped |`);
  if (xsdataCases !== undefined) {
    const x = countXsdata(groups, xsdataCases);
    lines.push(
      "",
      `**xsdata's definition** (every group, XSD 1.1 included, whose schema and instance are valid for some version): specforge passes **${x.passed} of ${x.cases}** (XSD 1.0 and 1.1 groups together; not run here: ${x.notRun} whose group is left out, ${x.invalidUnder10} valid only under 1.1 in a group run as 1.0, where they run as invalid instances; ${x.notApplicable} n/a; ${x.failed} failed). xsdata: 14,580 passed of 14,674 (5 failed, 89 skipped).`,
    );
  }
  lines.push("", "Failures by class (strict tsc counted per schema, the others per instance):", "", "| class | XSD 1.0 | XSD 1.1 | meaning |", "|---|---:|---:|---|");
  const classes = new Set([...byClass.keys(), ...v11.byClass.keys()]);
  for (const k of [...classes].sort((a, b) => (byClass.get(b) ?? 0) + (v11.byClass.get(b) ?? 0) - (byClass.get(a) ?? 0) - (v11.byClass.get(a) ?? 0))) {
    const cls = k.replace(/^(valid|invalid): /, "") as keyof typeof FAILURE_CLASSES;
    lines.push(`| ${k} | ${byClass.get(k) ?? 0} | ${v11.byClass.get(k) ?? 0} | ${FAILURE_CLASSES[cls] ?? ""} |`);
  }
  for (const [k, v] of v11.tscClasses) tscClasses.set(k, (tscClasses.get(k) ?? 0) + v);
  if (tscClasses.size > 0) {
    lines.push("", "Strict tsc errors by message (schemas having it):", "", "| message | schemas |", "|---|---:|");
    for (const [k, v] of [...tscClasses].sort((a, b) => b[1] - a[1]).slice(0, 15)) lines.push(`| ${k.replace(/\|/g, "\\|")} | ${v} |`);
  }
  lines.push("", "Per test set (a set's XSD 1.1 groups on their own row):", "", "| test set | groups | generated | tsc clean | valid passed | invalid rejected | n/a |", "|---|---:|---:|---:|---:|---:|---:|");
  for (const [set, c] of [...bySet].sort((a, b) => a[0].localeCompare(b[0]))) {
    lines.push(`| ${set} | ${c.groups} | ${c.generated} | ${c.tscClean}/${c.tscChecked} | ${c.validPassed}/${c.valid} (${pct(c.validPassed, c.valid)}) | ${c.invalidRejected}/${c.invalid} (${pct(c.invalidRejected, c.invalid)}) | ${c.notApplicable} |`);
  }
  lines.push("", DOCS_END);
  return lines.join("\n");
}
