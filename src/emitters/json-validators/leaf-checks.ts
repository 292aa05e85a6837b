import { stringLiteral } from "../../codegen/escape.js";
import type { Facets, ScalarType } from "../../ir/model.js";
import { js, type Code } from "./code.js";
import type { ValidatorContext } from "./context.js";

/**
 * The checks of one JSON value against a scalar type and its facets: first the type check, then each constraint.
 * The same checks drive both generated forms: `is<T>` joins them with `&&`, `validate<T>` reports each failed one.
 * `ok` expressions are written for a value held in the identifier `v`, and may assume the type check passed.
 */
export interface Check {
  readonly rule: string;
  readonly ok: Code;
  readonly message: string;
}

export interface LeafChecks {
  readonly type?: Check;
  readonly rules: readonly Check[];
  /**
   * What is<T> tests for the type when the rules already imply part of `type.ok` (an int64's `Number.isSafeInteger`
   * holds only for integers, so `Number.isInteger` before it tests nothing more); validate<T> keeps `type`, whose
   * message differs from the rule's. "true" when the rules imply the whole type check.
   */
  readonly isType?: Code;
}

/** How a scalar is held in memory, which decides its type check and how its facets are written. */
type Representation = "string" | "boolean" | "number" | "integer" | "bigint" | "int64-string" | "date" | "bytes" | "any";

const INT64_KINDS = new Set(["int64", "sint64", "sfixed64", "uint64", "fixed64"]);
const INT32_KINDS = new Set(["int32", "sint32", "sfixed32", "uint32", "fixed32"]);
const UNSIGNED = new Set(["uint32", "fixed32", "uint64", "fixed64"]);

function representation(t: ScalarType, ctx: ValidatorContext): Representation {
  const s = t.scalar;
  if (INT64_KINDS.has(s)) {
    const mode = ctx.types.options.int64;
    return mode === "bigint" ? "bigint" : mode === "string" ? "int64-string" : "integer";
  }
  if (INT32_KINDS.has(s)) return "integer";
  switch (s) {
    case "double":
    case "float":
      return t.builtin === "integer" ? "integer" : "number";
    case "integer":
      return "bigint";
    case "boolean":
      return "boolean";
    case "bytes":
      return "bytes";
    case "any":
      return "any";
    case "dateTime":
      return ctx.types.options.dates === "Date" ? "date" : "string";
    default:
      return "string";
  }
}

/** String formats checked at run time; other format names are annotations (JSON Schema's default) and ignored. */
const STRING_FORMATS: ReadonlyMap<string, { readonly fn: string; readonly what: string }> = new Map([
  ["date", { fn: "jsonIsDate", what: "a date (YYYY-MM-DD)" }],
  ["date-time", { fn: "jsonIsDateTime", what: "an RFC 3339 date-time" }],
  ["time", { fn: "jsonIsTime", what: "an RFC 3339 time" }],
  ["uri", { fn: "jsonIsUri", what: "an absolute URI" }],
  ["email", { fn: "jsonIsEmail", what: "an e-mail address" }],
  ["uuid", { fn: "jsonIsUuid", what: "a UUID" }],
  ["duration", { fn: "jsonIsDuration", what: "an ISO 8601 duration (RFC 3339 appendix A)" }],
  ["hostname", { fn: "jsonIsHostname", what: "a host name" }],
  ["ipv4", { fn: "jsonIsIpv4", what: "an IPv4 address" }],
  ["ipv6", { fn: "jsonIsIpv6", what: "an IPv6 address" }],
  ["uri-reference", { fn: "jsonIsUriReference", what: "a URI reference" }],
  ["json-pointer", { fn: "jsonIsJsonPointer", what: "a JSON pointer" }],
  ["relative-json-pointer", { fn: "jsonIsRelativeJsonPointer", what: "a relative JSON pointer" }],
  ["uri-template", { fn: "jsonIsUriTemplate", what: "a URI template (RFC 6570)" }],
  ["regex", { fn: "jsonIsRegex", what: "a regular expression" }],
]);

/** The format a scalar kind itself stands for. */
const SCALAR_FORMATS: ReadonlyMap<string, string> = new Map([
  ["date", "date"],
  ["dateTime", "date-time"],
  ["time", "time"],
  ["anyURI", "uri"],
  ["duration", "duration"],
]);

export function scalarChecks(ctx: ValidatorContext, t: ScalarType, facets: Facets | undefined, v: string): LeafChecks {
  const rep = representation(t, ctx);
  const unsigned = UNSIGNED.has(t.scalar);
  switch (rep) {
    case "string": {
      const formats = new Set<string>();
      const own = SCALAR_FORMATS.get(t.scalar);
      if (own) formats.add(own);
      if (facets?.format !== undefined) formats.add(facets.format);
      return { type: { rule: "type", ok: `typeof ${v} === "string"`, message: "must be a string" }, rules: [...formatChecks(ctx, formats, v), ...stringFacetChecks(ctx, facets, v)] };
    }
    case "date":
      return {
        // A string here is a date-time the decoder could not turn into a Date: it fails as a format, not a type.
        type: { rule: "type", ok: `${v} instanceof Date || typeof ${v} === "string"`, message: "must be a Date" },
        rules: [{ rule: "format", ok: `${v} instanceof Date && !Number.isNaN(${v}.getTime())`, message: "must be a valid RFC 3339 date-time" }],
      };
    case "boolean":
      return { type: { rule: "type", ok: `typeof ${v} === "boolean"`, message: "must be a boolean" }, rules: [] };
    case "bytes":
      return { type: { rule: "type", ok: `${v} instanceof Uint8Array`, message: "must be bytes (a Uint8Array)" }, rules: [] };
    case "number":
      return { type: { rule: "type", ok: `typeof ${v} === "number" && Number.isFinite(${v})`, message: "must be a number" }, rules: numberFacetChecks(facets, v, false) };
    case "integer": {
      const range: Check[] = [];
      let isType: Code | undefined;
      if (INT32_KINDS.has(t.scalar)) {
        range.push(unsigned
          ? { rule: "format", ok: `${v} >= 0 && ${v} <= 4294967295`, message: "must be an unsigned 32-bit integer" }
          : { rule: "format", ok: `${v} >= -2147483648 && ${v} <= 2147483647`, message: "must be a 32-bit integer" });
      } else if (INT64_KINDS.has(t.scalar)) {
        range.push({
          rule: "format",
          ok: unsigned ? `Number.isSafeInteger(${v}) && ${v} >= 0` : `Number.isSafeInteger(${v})`,
          message: "must be a safe integer (int64 values beyond 2^53 need the bigint int64 mode)",
        });
      }
      const facetRules = numberFacetChecks(facets, v, false);
      // `Number.isSafeInteger` takes any value; the rules after it need `v` known to be a number.
      if (INT64_KINDS.has(t.scalar)) isType = unsigned || facetRules.length > 0 ? `typeof ${v} === "number"` : "true";
      return {
        type: { rule: "type", ok: `typeof ${v} === "number" && Number.isInteger(${v})`, message: "must be an integer" },
        rules: [...range, ...facetRules],
        ...(isType !== undefined ? { isType } : {}),
      };
    }
    case "bigint": {
      const range: Check[] = [];
      if (INT64_KINDS.has(t.scalar)) {
        range.push(unsigned
          ? { rule: "format", ok: `${v} >= 0n && ${v} <= 18446744073709551615n`, message: "must be an unsigned 64-bit integer" }
          : { rule: "format", ok: `${v} >= -9223372036854775808n && ${v} <= 9223372036854775807n`, message: "must be a 64-bit integer" });
      }
      return { type: { rule: "type", ok: `typeof ${v} === "bigint"`, message: "must be a bigint" }, rules: [...range, ...numberFacetChecks(facets, v, true)] };
    }
    case "int64-string": {
      const fn = ctx.rt(unsigned ? "jsonIsUint64String" : "jsonIsInt64String");
      // Numeric facets are not checked in this mode: the value is text, and comparing text needs a parse per check.
      return {
        type: { rule: "type", ok: `typeof ${v} === "string"`, message: "must be a string of decimal digits" },
        rules: [{ rule: "format", ok: js`${fn}(${v})`, message: unsigned ? "must be an unsigned 64-bit integer" : "must be a 64-bit integer" }],
      };
    }
    case "any":
      return { rules: guardedFacetChecks(ctx, facets, v) };
  }
}

/**
 * Whether the checks of a value of scalar type `t` (or of facets on any type) may scan the text: a string format or a
 * pattern (a URI, a date, a RegExp), or a 64-bit integer held as a string. Everything else is a few comparisons.
 */
export function scansText(t: ScalarType | undefined, facets: Facets | undefined, ctx: ValidatorContext): boolean {
  if (t) {
    if (SCALAR_FORMATS.has(t.scalar) && representation(t, ctx) === "string" && ctx.formats === "assert") return true;
    if (representation(t, ctx) === "int64-string") return true;
  }
  if (facets?.format !== undefined && STRING_FORMATS.has(facets.format) && ctx.formats === "assert") return true;
  return (facets?.patterns?.length ?? 0) > 0;
}

function formatChecks(ctx: ValidatorContext, formats: ReadonlySet<string>, v: string): Check[] {
  const out: Check[] = [];
  // `formats: "annotate"`: every format is an annotation, as JSON Schema 2020-12 has it by default.
  if (ctx.formats === "annotate") return out;
  for (const name of formats) {
    const f = STRING_FORMATS.get(name);
    if (f) out.push({ rule: "format", ok: js`${ctx.rt(f.fn)}(${v})`, message: `must be ${f.what}` });
  }
  return out;
}

/** Length bounds count Unicode code points; the UTF-16 length decides most cases without counting. */
function stringFacetChecks(ctx: ValidatorContext, facets: Facets | undefined, v: string): Check[] {
  if (!facets) return [];
  const out: Check[] = [];
  const count = ctx.rt("jsonCodePointLength");
  const min = maxOf(facets.minLength, facets.length);
  const max = minOf(facets.maxLength, facets.length);
  if (min !== undefined && min > 0) {
    const ok = min === 1 ? `${v}.length > 0` : js`${v}.length >= ${2 * min} || (${v}.length >= ${min} && ${count}(${v}) >= ${min})`;
    out.push({ rule: "minLength", ok, message: `must have at least ${min} character${min === 1 ? "" : "s"}` });
  }
  if (max !== undefined) {
    out.push({ rule: "maxLength", ok: js`${v}.length <= ${max} || ${count}(${v}) <= ${max}`, message: `must have at most ${max} character${max === 1 ? "" : "s"}` });
  }
  for (const p of facets.patterns ?? []) {
    out.push({ rule: "pattern", ok: `${ctx.pattern(p)}${v})`, message: `must match the pattern ${p}` });
  }
  if (facets.enumeration && facets.enumeration.length > 0) {
    out.push({ rule: "enum", ok: facets.enumeration.map((e) => `${v} === ${stringLiteral(e)}`).join(" || "), message: `must be one of ${facets.enumeration.map((e) => JSON.stringify(e)).join(", ")}` });
  }
  return out;
}

function maxOf(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}

function minOf(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}

const NUMBER_TEXT = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** A facet bound as a literal: validated as a JSON number first (facet text is spec text), exact for bigints. */
function bound(text: string, bigint: boolean): string {
  if (!NUMBER_TEXT.test(text)) throw new Error(`numeric bound ${stringLiteral(text)} is not a number`);
  return bigint && /^-?[0-9]+$/.test(text) ? `${text}n` : text;
}

function numberFacetChecks(facets: Facets | undefined, v: string, bigint: boolean): Check[] {
  if (!facets) return [];
  const out: Check[] = [];
  const add = (text: string | undefined, rule: string, op: string, words: string) => {
    if (text !== undefined) out.push({ rule, ok: `${v} ${op} ${bound(text, bigint)}`, message: `must be ${words} ${text}` });
  };
  add(facets.minInclusive, "minimum", ">=", "at least");
  add(facets.maxInclusive, "maximum", "<=", "at most");
  add(facets.minExclusive, "exclusiveMinimum", ">", "greater than");
  add(facets.maxExclusive, "exclusiveMaximum", "<", "less than");
  if (facets.multipleOf !== undefined) {
    const m = bound(facets.multipleOf, false);
    if (!(Number(m) > 0)) throw new Error(`multipleOf ${stringLiteral(facets.multipleOf)} must be greater than 0`);
    const integral = /^[0-9]+$/.test(m);
    const ok = bigint && integral ? `${v} % ${m}n === 0n` : bigint ? `Number.isInteger(Number(${v}) / ${m})` : `Number.isInteger(${v} / ${m})`;
    out.push({ rule: "multipleOf", ok, message: `must be a multiple of ${facets.multipleOf}` });
  }
  return out;
}

/**
 * Facets on something that is not a scalar (a reference, a union, an untyped schema): as in JSON Schema, string
 * constraints apply only to strings and number constraints only to numbers.
 */
export function guardedFacetChecks(ctx: ValidatorContext, facets: Facets | undefined, v: string): Check[] {
  if (!facets) return [];
  const strings = [...formatChecks(ctx, new Set(facets.format !== undefined ? [facets.format] : []), v), ...stringFacetChecks(ctx, facets, v)];
  const numbers = numberFacetChecks(facets, v, false);
  return [
    ...strings.map((c) => ({ ...c, ok: js`typeof ${v} !== "string" || ${c.ok}` })),
    ...numbers.map((c) => ({ ...c, ok: js`typeof ${v} !== "number" || ${c.ok}` })),
  ];
}

/** A JSON literal value as a TypeScript expression. */
export function literalCode(value: string | number | boolean | null): string {
  if (typeof value === "string") return stringLiteral(value);
  if (typeof value === "number" && !Number.isFinite(value)) throw new Error(`literal ${value} is not a JSON number`);
  return String(value);
}

export function literalCheck(value: string | number | boolean | null, v: string): Check {
  return { rule: "const", ok: `${v} === ${literalCode(value)}`, message: `must be ${JSON.stringify(value)}` };
}
