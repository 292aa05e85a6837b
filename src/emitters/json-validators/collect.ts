import type { Facets, ListType, MapType, TypeExpr, UnionExpr } from "../../ir/model.js";
import type { JsonKind } from "../../runtime/json/values.js";
import { jsonKinds } from "./analysis.js";
import { js, Lines, paren, type Code } from "./code.js";
import type { ValidatorContext } from "./context.js";
import { isExpr } from "./is-expr.js";
import { pushIssue, reportCheck, reportLeaf } from "./issues.js";
import { guardedFacetChecks, literalCheck, scalarChecks } from "./leaf-checks.js";

/**
 * Issue-collecting checks (`validate<T>`): statements that push one ValidationIssue per failed rule for the value in
 * identifier `v` at JSON pointer `path` (an expression). Arrays and maps become helper functions, like in is-expr.
 */
export function collectStatements(ctx: ValidatorContext, t: TypeExpr, facets: Facets | undefined, v: string, path: Code, out: Lines, indent: string): void {
  switch (t.kind) {
    case "scalar":
      return reportLeaf(out, indent, scalarChecks(ctx, t, facets, v), path);
    case "literal":
      return reportCheck(out, indent, literalCheck(t.value, v), path);
    // Nested values are checked with the allocation-free boolean check first: the issue collector (and the path
    // strings it builds) runs only for a subtree that actually has issues.
    case "ref":
      out.add(indent, js`if (!${ctx.isFn(t.id)}(${v})) ${ctx.collectFn(t.id)}(${v}, ${path}, issues);`);
      for (const c of guardedFacetChecks(ctx, facets, v)) reportCheck(out, indent, c, path);
      return;
    case "list":
    case "map": {
      const check = isExpr(ctx, t, undefined, v);
      const collect = t.kind === "list" ? listHelper(ctx, t) : mapHelper(ctx, t);
      out.add(indent, "if (!", paren(check), js`) ${collect}(${v}, ${path}, issues);`);
      return;
    }
    case "union":
      collectUnion(ctx, t, v, path, out, indent);
      for (const c of guardedFacetChecks(ctx, facets, v)) reportCheck(out, indent, c, path);
      return;
  }
}

/**
 * How a record reports the issues of one property's value, written once per type and facets and shared by every
 * property of that shape (Stripe's `maxLength: 5000` strings are checked by one function, not at each of their
 * thousands of properties):
 *  - "checked": a named type's collector, or an array's or map's helper, `(v, path, issues)`; the record calls it
 *    only after the value failed its boolean check (isExpr), which is a call as well, so nothing is checked twice;
 *  - "leaf": a module-level helper for a scalar (or an inline union) with its facets, `(v, path, key, issues)`, called
 *    for every present value: it does the checks itself, so a failing value is not checked twice (a pre-check
 *    repeated jsonIsUri and the like, and made validate<T> on an invalid Webhook 1.5x slower), and it joins `path`
 *    and `key` only to report an issue, so a valid value costs no path string.
 * Undefined when there is nothing to check.
 */
export type Collector = { readonly kind: "checked" | "leaf"; readonly fn: string };

export function collectorOf(ctx: ValidatorContext, t: TypeExpr, facets: Facets | undefined): Collector | undefined {
  const facetChecks = guardedFacetChecks(ctx, facets, "v").length > 0;
  if (isEmptyCheck(ctx, t) && !facetChecks) return undefined;
  if (t.kind === "ref" && !facetChecks) return { kind: "checked", fn: ctx.collectFn(t.id) };
  if (t.kind === "list") return { kind: "checked", fn: listHelper(ctx, t) };
  if (t.kind === "map") return { kind: "checked", fn: mapHelper(ctx, t) };
  const fn = ctx.sharedHelper("collect", ["leaf", t, facets ?? null], (name) => {
    const body = new Lines();
    body.add("", js`function ${name}(v: unknown, path: string, key: string, issues: ${issueType(ctx)}[]): void {`);
    collectStatements(ctx, t, facets, "v", "path + key", body, "  ");
    body.add("", "}");
    ctx.helpers.append(body);
  });
  return { kind: "leaf", fn };
}

const KIND_WORDS: Record<JsonKind, string> = {
  null: "null", boolean: "a boolean", number: "a number", string: "a string", array: "an array", object: "an object", other: "a value",
};

/** Words for the JSON kinds a type accepts, for "must be a string or null" messages. */
export function kindWords(kinds: Iterable<JsonKind>): string {
  const words = [...new Set(kinds)].map((k) => KIND_WORDS[k]);
  return words.length <= 1 ? (words[0] ?? "nothing") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}

/**
 * An inline union (type arrays, inline oneOf/anyOf): valid when any member accepts the value. On failure, the
 * member that takes values of this JSON kind (when exactly one does) reports its own, more precise issues.
 */
function collectUnion(ctx: ValidatorContext, t: UnionExpr, v: string, path: Code, out: Lines, indent: string): void {
  out.add(indent, "if (!", paren(isExpr(ctx, t, undefined, v)), ") {");
  collectByKind(ctx, t.of, v, path, out, `${indent}  `, "anyOf");
  out.add(indent, "}");
}

/**
 * After no alternative matched: dispatch on the value's JSON kind to the one alternative that accepts that kind, so
 * `{"n": "x"}` against `integer | null` says "must be an integer", not just "no alternative matched".
 */
export function collectByKind(ctx: ValidatorContext, members: readonly TypeExpr[], v: string, path: Code, out: Lines, indent: string, rule: string): void {
  const byKind = new Map<JsonKind, TypeExpr[]>();
  const all = new Set<JsonKind>();
  for (const m of members) {
    for (const k of jsonKinds(m, ctx.types)) {
      all.add(k);
      byKind.set(k, [...(byKind.get(k) ?? []), m]);
    }
  }
  const single = [...byKind].filter(([, ms]) => ms.length === 1);
  const message = `must be ${kindWords(all)} matching one of the alternatives`;
  if (single.length === 0) {
    pushIssue(out, indent, path, rule, message);
    return;
  }
  out.add(indent, js`switch (${ctx.rt("jsonKindOf")}(${v})) {`);
  for (const [kind, [member]] of single) {
    out.add(`${indent}  `, `case "${kind}":`);
    collectStatements(ctx, member!, undefined, v, path, out, `${indent}    `);
    out.add(`${indent}    `, "break;");
  }
  out.add(`${indent}  `, "default:");
  pushIssue(out, `${indent}    `, path, rule, message);
  out.add(indent, "}");
}

/** The runtime's ValidationIssue, imported (under an alias when the spec has a type of that name). */
function issueType(ctx: ValidatorContext): Code {
  return ctx.f.import("ValidationIssue", ctx.runtimeModule, { typeOnly: true });
}

function listHelper(ctx: ValidatorContext, t: ListType): string {
  return ctx.sharedHelper("collect", t, (name) => buildListHelper(ctx, t, name));
}

function buildListHelper(ctx: ValidatorContext, t: ListType, name: string): void {
  const body = new Lines();
  const f = t.facets;
  body.add("", js`function ${name}(v: unknown, path: string, issues: ${issueType(ctx)}[]): void {`);
  body.add("  ", "if (!Array.isArray(v)) {");
  pushIssue(body, "    ", "path", "type", "must be an array");
  body.add("    ", "return;");
  body.add("  ", "}");
  if (f?.minItems !== undefined && f.minItems > 0) {
    body.add("  ", `if (v.length < ${f.minItems}) {`);
    pushIssue(body, "    ", "path", "minItems", `must have at least ${f.minItems} item${f.minItems === 1 ? "" : "s"}`);
    body.add("  ", "}");
  }
  if (f?.maxItems !== undefined) {
    body.add("  ", `if (v.length > ${f.maxItems}) {`);
    pushIssue(body, "    ", "path", "maxItems", `must have at most ${f.maxItems} item${f.maxItems === 1 ? "" : "s"}`);
    body.add("  ", "}");
  }
  const items = new Lines();
  collectStatements(ctx, t.of, undefined, "item", 'path + "/" + i', items, "    ");
  if (!isEmptyCheck(ctx, t.of)) {
    body.add("  ", "for (let i = 0; i < v.length; i++) {");
    body.add("    ", "const item: unknown = v[i];");
    body.append(items);
    body.add("  ", "}");
  }
  if (f?.uniqueItems) {
    body.add("  ", js`const duplicate = ${ctx.rt("jsonFirstDuplicate")}(v);`);
    body.add("  ", "if (duplicate >= 0) {");
    pushIssue(body, "    ", 'path + "/" + duplicate', "uniqueItems", "must not repeat an earlier item");
    body.add("  ", "}");
  }
  body.add("", "}");
  ctx.helpers.append(body);
}

function mapHelper(ctx: ValidatorContext, t: MapType): string {
  return ctx.sharedHelper("collect", t, (name) => buildMapHelper(ctx, t, name));
}

function buildMapHelper(ctx: ValidatorContext, t: MapType, name: string): void {
  const body = new Lines();
  body.add("", js`function ${name}(v: unknown, path: string, issues: ${issueType(ctx)}[]): void {`);
  body.add("  ", 'if (typeof v !== "object" || v === null || Array.isArray(v)) {');
  pushIssue(body, "    ", "path", "type", "must be an object");
  body.add("    ", "return;");
  body.add("  ", "}");
  if (!isEmptyCheck(ctx, t.value)) {
    body.add("  ", "for (const key in v) {");
    body.add("    ", "if (!Object.hasOwn(v, key)) continue;");
    body.add("    ", "const item = (v as Record<string, unknown>)[key];");
    collectStatements(ctx, t.value, undefined, "item", js`${ctx.rt("pointerJoin")}(path, key)`, body, "    ");
    body.add("  ", "}");
  }
  body.add("", "}");
  ctx.helpers.append(body);
}

/** A schema-less value: nothing to check, so no loop is written for it. */
export function isEmptyCheck(ctx: ValidatorContext, t: TypeExpr): boolean {
  return t.kind === "scalar" && t.scalar === "any";
}
