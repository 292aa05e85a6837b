/**
 * The `@range` convention for numeric fields, carried in a field's doc comment (proto has no syntax for value
 * bounds): a line `@range <spec>` where <spec> is one or more alternatives separated by `|`, each either a closed
 * interval `<min>..<max>` (both bounds inclusive) or a single allowed value. Example: `@range -1.0 | 0.0..1.0`.
 */
import { SpecError } from "../../../errors.js";
import type { Field } from "../../../ir/model.js";

export type RangeAlternative = { readonly min: number; readonly max: number };

export interface RangeSpec {
  /** The spec as written, for messages. */
  readonly text: string;
  readonly alternatives: readonly RangeAlternative[];
}

export const RANGE_CONVENTION =
  "Numeric bounds come from `@range` lines in a field's doc comment: alternatives separated by `|`, each `min..max` " +
  "(both inclusive) or a single allowed value, e.g. `@range -1.0 | 0.0..1.0`.";

/** The field's `@range`, if its doc comment has one; a malformed one is a spec error. */
export function fieldRange(field: Field): RangeSpec | undefined {
  const line = field.doc?.split("\n").map((l) => l.trim()).find((l) => /^@range(\s|$)/.test(l));
  if (line === undefined) return undefined;
  const text = line.slice("@range".length).trim();
  const fail = (why: string): never => {
    throw new SpecError(field.origin.file, field.origin.line, field.origin.column, `invalid @range "${text}" on field ${field.name}: ${why}`);
  };
  if (text === "") fail("expected one or more alternatives");
  const alternatives = text.split("|").map((alt) => {
    const parts = alt.trim().split("..");
    if (parts.length > 2) fail(`"${alt.trim()}" has more than one ".."`);
    const [min, max] = parts.map((p) => parseBound(p.trim(), fail));
    const hi = max ?? min!;
    if (min! > hi) fail(`${min} is greater than ${hi}`);
    return { min: min!, max: hi };
  });
  return { text, alternatives };
}

function parseBound(s: string, fail: (why: string) => never): number {
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(s)) fail(`"${s}" is not a number`);
  return Number(s);
}
