/**
 * JSON Schema validation keywords -> IR facets. Numeric bounds keep their source text (IR facet bounds are strings,
 * so 64-bit and decimal limits stay exact).
 */
import type { Facets } from "../../ir/model.js";
import type { LowerContext } from "./context.js";
import type { Loc } from "./files.js";
import { bool, child, str } from "./json.js";
import { backtrackingReason, unicodePattern } from "./pattern.js";
import { childPointer } from "./pointer.js";

export function facetsOf(ctx: LowerContext, loc: Loc): Facets | undefined {
  const f: { -readonly [K in keyof Facets]: Facets[K] } = {};
  const minLength = count(ctx, loc, "minLength");
  if (minLength !== undefined) f.minLength = minLength;
  const maxLength = count(ctx, loc, "maxLength");
  if (maxLength !== undefined) f.maxLength = maxLength;
  const pattern = child(loc, "pattern");
  if (pattern) {
    if (typeof pattern.value !== "string") ctx.fail(pattern, "pattern must be a string");
    const checked = unicodePattern(pattern.value);
    if ("error" in checked) {
      // Degrade, never refuse: the document is fine otherwise, and a check dropped is a looser validator, not a wrong one.
      ctx.warn(pattern, `pattern ${JSON.stringify(pattern.value)} is not a JavaScript regular expression in any reading specforge knows (${checked.error}): it is not checked`);
      f.uncheckedPatterns = [pattern.value];
    } else {
      f.patterns = [checked.source];
      const slow = backtrackingReason(checked.source);
      if (slow) ctx.warn(pattern, slow);
    }
  }
  // 3.0: `exclusiveMinimum: true` turns `minimum` exclusive. 3.1: `exclusiveMinimum: 5` is its own bound.
  const exMin = child(loc, "exclusiveMinimum");
  const exMax = child(loc, "exclusiveMaximum");
  const minimum = numberText(ctx, loc, "minimum");
  const maximum = numberText(ctx, loc, "maximum");
  if (minimum !== undefined) {
    if (exMin?.value === true) f.minExclusive = minimum;
    else f.minInclusive = minimum;
  }
  if (maximum !== undefined) {
    if (exMax?.value === true) f.maxExclusive = maximum;
    else f.maxInclusive = maximum;
  }
  if (typeof exMin?.value === "number") f.minExclusive = numberText(ctx, loc, "exclusiveMinimum");
  if (typeof exMax?.value === "number") f.maxExclusive = numberText(ctx, loc, "exclusiveMaximum");
  const multipleOf = numberText(ctx, loc, "multipleOf");
  if (multipleOf !== undefined) f.multipleOf = multipleOf;
  const format = str(loc, "format");
  if (format !== undefined) f.format = format;
  return Object.keys(f).length > 0 ? f : undefined;
}

export function listFacetsOf(ctx: LowerContext, loc: Loc): Facets | undefined {
  const f: { -readonly [K in keyof Facets]: Facets[K] } = {};
  const minItems = count(ctx, loc, "minItems");
  if (minItems !== undefined) f.minItems = minItems;
  const maxItems = count(ctx, loc, "maxItems");
  if (maxItems !== undefined) f.maxItems = maxItems;
  if (bool(loc, "uniqueItems") === true) f.uniqueItems = true;
  return Object.keys(f).length > 0 ? f : undefined;
}

/** A non-negative integer keyword (minLength, maxItems...). */
function count(ctx: LowerContext, loc: Loc, key: string): number | undefined {
  const c = child(loc, key);
  if (!c) return undefined;
  if (typeof c.value !== "number" || !Number.isInteger(c.value) || c.value < 0) {
    return ctx.fail(c, `${key} must be a non-negative integer`);
  }
  return c.value;
}

/** A numeric keyword as exact source text (facet bounds are strings in the IR). */
function numberText(ctx: LowerContext, loc: Loc, key: string): string | undefined {
  const c = child(loc, key);
  if (!c) return undefined;
  if (typeof c.value !== "number") return ctx.fail(c, `${key} must be a number`);
  return loc.file.numberText(childPointer(loc.pointer, key)) ?? String(c.value);
}

/** Facets without `format` (for places where the scalar kind already says it). */
export function withoutFormat(facets: Facets): Facets | undefined {
  const { format: _format, ...rest } = facets;
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/** Facets of an outer schema layered over those of the schema it wraps (`allOf: [x]` plus constraints). */
export function mergeFacets(a: Facets | undefined, b: Facets | undefined): Facets | undefined {
  if (!a) return b;
  if (!b) return a;
  return {
    ...a,
    ...b,
    ...(a.patterns && b.patterns ? { patterns: [...a.patterns, ...b.patterns] } : {}),
    ...(a.uncheckedPatterns && b.uncheckedPatterns ? { uncheckedPatterns: [...a.uncheckedPatterns, ...b.uncheckedPatterns] } : {}),
  };
}
