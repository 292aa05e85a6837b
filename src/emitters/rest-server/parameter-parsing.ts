import { stringLiteral } from "../../codegen/escape.js";
import type { GeneratedFile, Printable } from "../../codegen/generated-file.js";
import type { Facets, HttpParameter, ScalarKind, TypeExpr } from "../../ir/model.js";
import { lookupType, type TypesContext } from "../types/context.js";

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

/**
 * Print the statements that parse `p` from `raw` (an expression of type string | null | undefined for scalars)
 * into `const <local>`. Returns nothing; the local is `T | undefined`.
 */
export function emitParameter(
  f: GeneratedFile,
  p: HttpParameter,
  local: string,
  source: { readonly scalar: Printable; readonly query: string },
  tctx: TypesContext,
  rt: Runtime,
): void {
  const pointer = stringLiteral(parameterPointer(p));
  const ind = "  ";
  if (p.type.kind === "map" || (p.type.kind === "ref" && lookupType(tctx, p.type.id).kind === "record")) {
    // deepObject (or a form-exploded object): a string map.
    f.print(ind, `const ${local} = `, rt("restDeepObject"), `(${source.query}, `, f.string(p.name), ");");
  } else if (p.type.kind === "list") {
    const plan = scalarPlan(p.type.of, undefined, tctx);
    const explode = p.explode ?? true;
    const rawLocal = `${local}Text`;
    f.print(ind, `const ${rawLocal} = `, rt("restFormArray"), `(${source.query}, `, f.string(p.name), `, ${explode});`);
    if (plan?.coerce) {
      f.print(ind, `const ${local} = ${rawLocal} === undefined ? undefined : `, rt("restItems"), `(${rawLocal}, ${pointer}, issues, `, rt(plan.coerce), ");");
    } else f.print(ind, `const ${local} = ${rawLocal};`);
    const facets = p.type.facets ?? p.facets;
    if (facets?.minItems !== undefined) check(f, rt, `${local} !== undefined && ${local}.length < ${facets.minItems}`, pointer, "minItems", `must have at least ${facets.minItems} items`);
    if (facets?.maxItems !== undefined) check(f, rt, `${local} !== undefined && ${local}.length > ${facets.maxItems}`, pointer, "maxItems", `must have at most ${facets.maxItems} items`);
  } else {
    const plan = scalarPlan(p.type, p.facets, tctx) ?? { coerce: undefined, facets: p.facets ?? {} };
    const rawLocal = `${local}Text`;
    f.print(ind, `const ${rawLocal} = `, source.scalar, ";");
    if (plan.coerce) {
      f.print(ind, `const ${local} = ${rawLocal} == null ? undefined : `, rt(plan.coerce), `(${rawLocal}, ${pointer}, issues);`);
    } else f.print(ind, `const ${local} = ${rawLocal} ?? undefined;`);
    emitFacetChecks(f, local, plan, pointer, rt);
  }
  if (p.required) check(f, rt, `${local} === undefined`, pointer, "required", "is required", true);
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
      f.print(`  if (${defined} && !new RegExp(${stringLiteral(pattern)}, "u").test(${local})) `, rt("restParamIssue"), `(issues, ${pointer}, "pattern", ${stringLiteral(`must match ${pattern}`)});`);
    }
  }
  const values = plan.values ?? (fc.enumeration && plan.coerce === undefined ? fc.enumeration : undefined);
  if (values && values.length > 0) {
    const literals = values.map((v) => (typeof v === "string" ? stringLiteral(v) : String(v)));
    const test = literals.map((l) => `${local} !== ${l}`).join(" && ");
    check(f, rt, `${defined} && ${test}`, pointer, "enum", `must be one of ${literals.join(", ")}`);
  }
}
