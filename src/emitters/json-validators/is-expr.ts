import type { Facets, ListType, MapType, TypeExpr } from "../../ir/model.js";
import { and, js, Lines, or, paren, type Code } from "./code.js";
import type { ValidatorContext } from "./context.js";
import { guardedFacetChecks, literalCheck, scalarChecks } from "./leaf-checks.js";

/**
 * Boolean checks (`is<T>`): one expression per type expression, over a value held in identifier `v`. Arrays and maps
 * need a loop, so they become small helper functions next to the type's own function. Nothing here allocates.
 */
export function isExpr(ctx: ValidatorContext, t: TypeExpr, facets: Facets | undefined, v: string): Code {
  switch (t.kind) {
    case "scalar": {
      const c = scalarChecks(ctx, t, facets, v);
      const type = c.type ? c.isType ?? c.type.ok : "true";
      return and([...(type !== "true" ? [type] : []), ...c.rules.map((r) => r.ok)]);
    }
    case "literal":
      return literalCheck(t.value, v).ok;
    case "ref":
      return and([`${ctx.isFn(t.id)}(${v})`, ...guardedFacetChecks(ctx, facets, v).map((c) => c.ok)]);
    case "list":
      return listCheck(ctx, t, v);
    case "map":
      return `${mapHelper(ctx, t)}(${v})`;
    case "union":
      return and([or(t.of.map((m) => isExpr(ctx, m, undefined, v))), ...guardedFacetChecks(ctx, facets, v).map((c) => c.ok)]);
  }
}

/** `if (!(check)) return false;`, or nothing when the check always holds (a schema-less value). */
export function failUnless(out: Lines, indent: string, check: Code, prefix = ""): void {
  if (check === "true") return;
  out.add(indent, `if (${prefix}!`, paren(check), ") return false;");
}

/** The check of a list: `Array.isArray` itself for an array of anything with no facets, else a helper's call. */
function listCheck(ctx: ValidatorContext, t: ListType, v: string): Code {
  const f = t.facets;
  const bare = (f?.minItems === undefined || f.minItems <= 0) && f?.maxItems === undefined && !f?.uniqueItems;
  // Only a scalar item is asked (its checks declare nothing that the helper would not use): a nested array's or
  // record's would register its helpers ahead of this one's.
  if (bare && t.of.kind === "scalar" && isExpr(ctx, t.of, undefined, "item") === "true") return `Array.isArray(${v})`;
  return `${listHelper(ctx, t)}(${v})`;
}

function listHelper(ctx: ValidatorContext, t: ListType): string {
  return ctx.sharedHelper("is", t, (name) => buildListHelper(ctx, t, name));
}

function buildListHelper(ctx: ValidatorContext, t: ListType, name: string): void {
  const body = new Lines();
  const f = t.facets;
  body.add("", `function ${name}(v: unknown): boolean {`);
  body.add("  ", "if (!Array.isArray(v)) return false;");
  if (f?.minItems !== undefined && f.minItems > 0) body.add("  ", `if (v.length < ${f.minItems}) return false;`);
  if (f?.maxItems !== undefined) body.add("  ", `if (v.length > ${f.maxItems}) return false;`);
  const item = isExpr(ctx, t.of, undefined, "item");
  if (item !== "true") {
    body.add("  ", "for (let i = 0; i < v.length; i++) {");
    body.add("    ", "const item: unknown = v[i];");
    failUnless(body, "    ", item);
    body.add("  ", "}");
  }
  if (f?.uniqueItems) body.add("  ", js`if (${ctx.rt("jsonFirstDuplicate")}(v) >= 0) return false;`);
  body.add("  ", "return true;");
  body.add("", "}");
  ctx.helpers.append(body);
}

function mapHelper(ctx: ValidatorContext, t: MapType): string {
  return ctx.sharedHelper("is", t, (name) => buildMapHelper(ctx, t, name));
}

function buildMapHelper(ctx: ValidatorContext, t: MapType, name: string): void {
  const body = new Lines();
  body.add("", `function ${name}(v: unknown): boolean {`);
  body.add("  ", 'if (typeof v !== "object" || v === null || Array.isArray(v)) return false;');
  const item = isExpr(ctx, t.value, undefined, "item");
  if (item !== "true") {
    body.add("  ", "for (const key in v) {");
    body.add("    ", "if (!Object.hasOwn(v, key)) continue;");
    body.add("    ", "const item = (v as Record<string, unknown>)[key];");
    failUnless(body, "    ", item);
    body.add("  ", "}");
  }
  body.add("  ", "return true;");
  body.add("", "}");
  ctx.helpers.append(body);
}
