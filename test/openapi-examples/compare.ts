/**
 * The comparison itself: every example (and its variants) through the generated check and the ajv reference, and
 * each disagreement explained by the adjustments of the reference that make ajv agree with us.
 */
import path from "node:path";
import type { Loc } from "../../src/parsers/openapi/files.js";
import { ajvReference, type Adjustment, type ReferenceCheck } from "./ajv-reference.js";
import type { CollectedExamples, FoundExample } from "./collect-examples.js";
import type { GeneratedCheck } from "./generated-validators.js";
import { variantsOf } from "./variants.js";

export interface Outcome {
  /** Values compared (examples and variants). */
  readonly compared: number;
  /** Values both sides found invalid: variants that did probe a constraint. */
  readonly bothInvalid: number;
  /** Disagreements no adjustment explains, one line each. */
  readonly unexplained: readonly string[];
  /** Values on which is<T> and validate<T> disagree with each other. */
  readonly inconsistent: readonly string[];
  /** The adjustments that explained at least one disagreement. */
  readonly shown: ReadonlySet<Adjustment>;
}

/**
 * Compare every example with a schema (`checkFor` gives its generated check) and its variants. `root` is the
 * folder example locations are shown relative to.
 */
export function compareExamples(
  collected: CollectedExamples,
  examples: readonly (FoundExample & { readonly schema: Loc })[],
  checkFor: (e: FoundExample) => GeneratedCheck,
  adjustments: readonly Adjustment[],
  root: string,
): Outcome {
  const reference = ajvReference(collected);
  const adjusted = new Map<Adjustment, (schema: Loc) => ReferenceCheck>();
  const adjustedReference = (a: Adjustment) => {
    let r = adjusted.get(a);
    if (!r) adjusted.set(a, (r = ajvReference(collected, new Set([a]))));
    return r;
  };
  const where = (loc: Loc): string => {
    const p = loc.file.locate(loc.pointer);
    return `${path.relative(root, loc.file.path)}:${p.line}:${p.column}`;
  };

  let compared = 0;
  let bothInvalid = 0;
  const unexplained: string[] = [];
  const inconsistent: string[] = [];
  const shown = new Set<Adjustment>();
  for (const e of examples) {
    const check = checkFor(e);
    const label = `${where(e.at)} (${check.label})`;
    const values = [{ what: label, value: e.value }, ...variantsOf(e.value).map((v) => ({ what: `${label} variant ${v.change}`, value: v.value }))];
    for (const { what, value } of values) {
      compared++;
      const ours = check.check(value);
      if (!ours.consistent) inconsistent.push(what);
      const theirs = reference(e.schema)(value);
      if (ours.valid === theirs.valid) {
        if (!ours.valid) bothInvalid++;
        continue;
      }
      const explained = adjustments.filter((a) => adjustedReference(a)(e.schema)(value).valid === ours.valid);
      for (const a of explained) shown.add(a);
      if (explained.length > 0) continue;
      const oursSaid = ours.issues.slice(0, 3).map((i) => `${i.path || "/"} ${i.rule}`).join(", ");
      const ajvSaid = theirs.errors.slice(0, 3).map((x) => `${x.instancePath || "/"} ${x.keyword} ${x.message ?? ""}`).join(", ");
      unexplained.push(`${what}: ours ${ours.valid ? "valid" : `invalid (${oursSaid})`}, ajv ${theirs.valid ? "valid" : `invalid (${ajvSaid})`}`);
    }
  }
  return { compared, bothInvalid, unexplained, inconsistent, shown };
}
