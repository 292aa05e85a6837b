import { patternPlan } from "../../codegen/spec-pattern.js";
import { stringLiteral } from "../../codegen/escape.js";
import type { GeneratedFile, Printable } from "../../codegen/generated-file.js";
import type { Facets, HttpParameter, ScalarKind, TypeExpr } from "../../ir/model.js";
import { lookupType, type TypesContext } from "../types/context.js";
import { objectKeys, parameterPlan, planSource, type ParameterPlan } from "../rest-client/parameter-style.js";
import { compilesWithUnicodeFlag } from "../json-validators/context.js";

/**
 * Straight-line parsing of one parameter: read the text (path segment, query, header), coerce it to the schema's
 * scalar type and check its facets, pushing issues with JSON pointers such as "/query/page". The statements are
 * printed into the operation's parse function; the parsed value ends up in a local named by `local`.
 */
export type Runtime = (name: string, typeOnly?: boolean) => Printable;

const INTEGER_KINDS: ReadonlySet<ScalarKind> = new Set([
  "int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32", "fixed64", "sfixed32", "sfixed64", "integer",
]);
const NUMBER_KINDS: ReadonlySet<ScalarKind> = new Set(["float", "double", "decimal"]);

/** What a parameter's text becomes: a scalar coercion, plus the facets and enum values to check. */
interface ScalarPlan {
  readonly coerce: "restInteger" | "restNumber" | "restBoolean" | undefined;
  readonly facets: Facets;
  readonly values?: readonly (string | number | boolean | null)[];
}

function mergeFacets(a: Facets | undefined, b: Facets | undefined): Facets {
  return { ...(a ?? {}), ...(b ?? {}) };
}

/** Follow aliases and enums down to the scalar a parameter holds; undefined for shapes a parameter cannot have. */
function scalarPlan(t: TypeExpr, facets: Facets | undefined, tctx: TypesContext): ScalarPlan | undefined {
  if (t.kind === "scalar") {
    const coerce = INTEGER_KINDS.has(t.scalar) || t.builtin === "integer" ? "restInteger" : NUMBER_KINDS.has(t.scalar) ? "restNumber" : t.scalar === "boolean" ? "restBoolean" : undefined;
    return { coerce, facets: facets ?? {} };
  }
  if (t.kind !== "ref") return undefined;
  const named = lookupType(tctx, t.id);
  if (named.kind === "alias") return scalarPlan(named.target, mergeFacets(named.facets, facets), tctx);
  if (named.kind === "enum") {
    const base = scalarPlan(named.base, facets, tctx);
    return base && { ...base, values: named.values.map((v) => v.value) };
  }
  return undefined;
}

export function parameterPointer(p: HttpParameter): string {
  return `/${p.in}/${p.name.replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

/** Where a parameter's text comes from in the parse function. */
export interface ParameterSource {
  /** An expression of type string | null | undefined: the path segment, header, or first query/cookie value. */
  readonly text: Printable;
  /** The RestQuery to read from (query parameters and cookies), e.g. "search" or "cookies". */
  readonly query: string;
  /** The names of the other parameters in the same place (what a free-form exploded object leaves out). */
  readonly siblings: readonly string[];
}

/**
 * Print the statements that parse `p` into `const <local>` (`T | undefined`), reading its text in its style:
 * primitives and arrays of primitives with straight-line coercion and facet checks, anything else (objects,
 * unions, nested values) through a coercion plan (runtime restCoerce) and, when `validator` gives one, the
 * validator of its named type (asked for only then, so it is imported only when used).
 */
export function emitParameter(
  f: GeneratedFile,
  p: HttpParameter,
  local: string,
  source: ParameterSource,
  tctx: TypesContext,
  rt: Runtime,
  validator?: () => Printable | undefined,
): void {
  const pointer = stringLiteral(parameterPointer(p));
  const ind = "  ";
  const plan = parameterPlan(p, tctx);
  const template = p.in === "path" || p.in === "header";
  const name = f.string(p.name);
  const style = stringLiteral(plan.style);
  const rawLocal = `${local}Text`;
  if (plan.kind === "json") {
    f.print(ind, `const ${rawLocal} = `, source.text, ";");
    f.print(ind, `const ${local} = `, rt("restJsonParam"), `(${rawLocal}, ${pointer}, issues);`);
    const validate = validator?.();
    if (validate) f.print(ind, rt("restValidateParam"), `(${local}, ${pointer}, issues, `, validate, ");");
  } else if (plan.kind === "structured") {
    const raw: Printable = template
      ? [rt("restTemplateText"), "(", source.text, ", ", name, `, ${style}, ${plan.explode}, "${plan.shapes}", ${pointer}, issues)`]
      : [rt("restQueryText"), `(${source.query}, `, name, `, ${style}, ${plan.explode}, "${plan.shapes}"`, fieldsArgument(p, plan, source, tctx), ")"];
    f.print(ind, `const ${rawLocal} = `, raw, ";");
    f.print(ind, `const ${local} = ${rawLocal} === undefined ? undefined : `, rt("restCoerce"), `(${rawLocal}, ${planSource(p.type, tctx)}, ${pointer}, issues);`);
    const validate = validator?.();
    if (validate) f.print(ind, rt("restValidateParam"), `(${local}, ${pointer}, issues, `, validate, ");");
  } else if (plan.kind === "scalar-list") {
    const list = p.type.kind === "list" ? p.type : undefined;
    const items = scalarPlan(list?.of ?? p.type, undefined, tctx);
    const raw: Printable = template
      ? [rt("restTemplateArray"), "(", source.text, ", ", name, `, ${style}, ${plan.explode}, ${pointer}, issues)`]
      : [rt("restQueryArray"), `(${source.query}, `, name, `, ${style}, ${plan.explode})`];
    f.print(ind, `const ${rawLocal} = `, raw, ";");
    if (items?.coerce) {
      f.print(ind, `const ${local} = ${rawLocal} === undefined ? undefined : `, rt("restItems"), `(${rawLocal}, ${pointer}, issues, `, rt(items.coerce), ");");
    } else f.print(ind, `const ${local} = ${rawLocal};`);
    const facets = list?.facets ?? p.facets;
    if (facets?.minItems !== undefined) check(f, rt, `${local} !== undefined && ${local}.length < ${facets.minItems}`, pointer, "minItems", `must have at least ${facets.minItems} items`);
    if (facets?.maxItems !== undefined) check(f, rt, `${local} !== undefined && ${local}.length > ${facets.maxItems}`, pointer, "maxItems", `must have at most ${facets.maxItems} items`);
  } else {
    const scalar = scalarPlan(p.type, p.facets, tctx) ?? { coerce: undefined, facets: p.facets ?? {} };
    const text: Printable = template && plan.style !== "simple"
      ? [rt("restTemplateScalar"), "(", source.text, ", ", name, `, ${style}, ${pointer}, issues)`]
      : source.text;
    f.print(ind, `const ${rawLocal} = `, text, ";");
    // An enum of values of several JSON types (`enum: [1, "x"]`): the text of a non-string value stands for it.
    const typed = scalar.coerce ? [] : (scalar.values ?? []).filter((v) => typeof v === "number" || typeof v === "boolean");
    if (scalar.coerce) {
      f.print(ind, `const ${local} = ${rawLocal} == null ? undefined : `, rt(scalar.coerce), `(${rawLocal}, ${pointer}, issues);`);
    } else if (typed.length > 0) {
      const mapped = typed.map((v) => `${rawLocal} === ${stringLiteral(String(v))} ? ${String(v)} : `).join("");
      f.print(ind, `const ${local} = ${rawLocal} == null ? undefined : ${mapped}${rawLocal};`);
    } else f.print(ind, `const ${local} = ${rawLocal} ?? undefined;`);
    emitFacetChecks(f, local, scalar, pointer, rt);
  }
  if (p.required) check(f, rt, `${local} === undefined`, pointer, "required", "is required", true);
}

/** For a form-exploded object: its record's keys, or (free-form) the sibling parameters to leave out. */
function fieldsArgument(p: HttpParameter, plan: ParameterPlan, source: ParameterSource, tctx: TypesContext): string {
  if (!plan.shapes.includes("o") || plan.style === "deepObject" || !plan.explode) return "";
  const keys = objectKeys(p.type, tctx);
  if (keys) return `, { keys: [${keys.map(stringLiteral).join(", ")}] }`;
  return `, { exclude: [${source.siblings.map(stringLiteral).join(", ")}] }`;
}

function check(f: GeneratedFile, rt: Runtime, condition: string, pointer: string, rule: string, message: string, onlyIfClean = false): void {
  // A required parameter that failed coercion already has its issue; "is required" would be noise.
  const guard = onlyIfClean ? `${condition} && !issues.some((i) => i.path === ${pointer})` : condition;
  f.print(`  if (${guard}) `, rt("restParamIssue"), `(issues, ${pointer}, ${stringLiteral(rule)}, ${stringLiteral(message)});`);
}

function emitFacetChecks(f: GeneratedFile, local: string, plan: ScalarPlan, pointer: string, rt: Runtime): void {
  const fc = plan.facets;
  const defined = `${local} !== undefined`;
  const numeric = plan.coerce === "restInteger" || plan.coerce === "restNumber";
  const bound = (v: string | undefined, op: string, rule: string, words: string) => {
    if (v === undefined || !Number.isFinite(Number(v))) return;
    check(f, rt, `${defined} && ${local} ${op} ${Number(v)}`, pointer, rule, `must be ${words} ${Number(v)}`);
  };
  if (numeric) {
    bound(fc.minInclusive, "<", "minimum", "at least");
    bound(fc.maxInclusive, ">", "maximum", "at most");
    bound(fc.minExclusive, "<=", "exclusiveMinimum", "greater than");
    bound(fc.maxExclusive, ">=", "exclusiveMaximum", "less than");
  } else if (plan.coerce === undefined) {
    if (fc.minLength !== undefined) check(f, rt, `${defined} && ${local}.length < ${fc.minLength}`, pointer, "minLength", `must be at least ${fc.minLength} characters`);
    if (fc.maxLength !== undefined) check(f, rt, `${defined} && ${local}.length > ${fc.maxLength}`, pointer, "maxLength", `must be at most ${fc.maxLength} characters`);
    for (const pattern of fc.patterns ?? []) {
      // A pattern only JavaScript's legacy syntax reads (see src/parsers/openapi/pattern.ts) compiles without `u`.
      const unicode = compilesWithUnicodeFlag(pattern);
      const flags = unicode ? `, "u"` : "";
      const message = `(issues, ${pointer}, "pattern", ${stringLiteral(`must match ${pattern}`)});`;
      // Where backtracking could be super-linear, the linear-time matcher (src/codegen/spec-pattern.ts); it is compiled once per pattern.
      if (patternPlan(pattern, unicode ? "u" : "").kind === "linear") f.print(`  if (${defined} && !`, rt("linearPattern"), `(${stringLiteral(pattern)}${flags}).test(${local})) `, rt("restParamIssue"), message);
      else f.print(`  if (${defined} && !new RegExp(${stringLiteral(pattern)}${flags}).test(${local})) `, rt("restParamIssue"), message);
    }
  }
  const values = plan.values ?? (fc.enumeration && plan.coerce === undefined ? fc.enumeration : undefined);
  if (values && values.length > 0) {
    const literals = values.map((v) => (typeof v === "string" ? stringLiteral(v) : String(v)));
    const test = literals.map((l) => `${local} !== ${l}`).join(" && ");
    check(f, rt, `${defined} && ${test}`, pointer, "enum", `must be one of ${literals.join(", ")}`);
  }
}
