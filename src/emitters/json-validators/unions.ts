import { stringLiteral } from "../../codegen/escape.js";
import type { UnionType, UnionVariant } from "../../ir/model.js";
import { js, or, type Lines } from "./code.js";
import { collectByKind, collectStatements } from "./collect.js";
import type { ValidatorContext } from "./context.js";
import { isExpr } from "./is-expr.js";
import { childPath, pushIssue } from "./issues.js";

/**
 * Named unions. With a discriminator the tag property picks the one variant to check (variants without a tag are
 * tried when no tag matches). Without one, oneOf needs exactly one matching variant and anyOf at least one.
 */
function tagged(t: UnionType): { cases: Map<string, UnionVariant>; untagged: UnionVariant[] } {
  const cases = new Map<string, UnionVariant>();
  const untagged: UnionVariant[] = [];
  for (const v of t.variants) {
    if (v.tag === undefined) untagged.push(v);
    else if (!cases.has(v.tag)) cases.set(v.tag, v);
  }
  return { cases, untagged };
}

export function unionIsBody(ctx: ValidatorContext, t: UnionType, out: Lines): void {
  const d = t.discriminator;
  if (d.kind === "property") {
    const { cases, untagged } = tagged(t);
    out.add("  ", 'if (typeof value !== "object" || value === null || Array.isArray(value)) return false;');
    out.add("  ", `switch (Object.hasOwn(value, ${stringLiteral(d.property)}) ? (value as Record<string, unknown>)[${stringLiteral(d.property)}] : undefined) {`);
    for (const [tag, v] of cases) {
      out.add("    ", `case ${stringLiteral(tag)}:`);
      out.add("      ", "return ", isExpr(ctx, v.type, undefined, "value"), ";");
    }
    out.add("    ", "default:");
    out.add("      ", "return ", or(untagged.map((v) => isExpr(ctx, v.type, undefined, "value"))), ";");
    out.add("  ", "}");
    return;
  }
  const checks = t.variants.map((v) => isExpr(ctx, v.type, undefined, "value"));
  if (d.kind === "none" && d.exclusive && checks.length > 1) {
    // oneOf: stop counting as soon as a second variant matches.
    out.add("  ", "let matches = 0;");
    checks.forEach((c, i) => {
      out.add("  ", "if (", c, ") {");
      if (i > 0) out.add("    ", "if (matches === 1) return false;");
      out.add("    ", "matches++;");
      out.add("  ", "}");
    });
    out.add("  ", "return matches === 1;");
    return;
  }
  out.add("  ", "return ", or(checks), ";");
}

export function unionCollectBody(ctx: ValidatorContext, t: UnionType, out: Lines): void {
  const d = t.discriminator;
  if (d.kind === "property") {
    const { cases, untagged } = tagged(t);
    out.add("  ", 'if (typeof value !== "object" || value === null || Array.isArray(value)) {');
    pushIssue(out, "    ", "path", "type", "must be an object");
    out.add("    ", "return;");
    out.add("  ", "}");
    out.add("  ", `switch (Object.hasOwn(value, ${stringLiteral(d.property)}) ? (value as Record<string, unknown>)[${stringLiteral(d.property)}] : undefined) {`);
    for (const [tag, v] of cases) {
      out.add("    ", `case ${stringLiteral(tag)}:`);
      collectStatements(ctx, v.type, undefined, "value", "path", out, "      ");
      out.add("      ", "break;");
    }
    out.add("    ", "default:");
    const tags = [...cases.keys()].map((k) => JSON.stringify(k)).join(", ");
    const message = `must be one of ${tags}`;
    if (untagged.length === 0) pushIssue(out, "      ", childPath("path", d.property), "discriminator", message);
    else {
      out.add("      ", "if (!", or(untagged.map((v) => isExpr(ctx, v.type, undefined, "value"))), ") {");
      pushIssue(out, "        ", childPath("path", d.property), "discriminator", `${message}, or the value must match an untagged variant`);
      out.add("      ", "}");
    }
    out.add("  ", "}");
    return;
  }
  const exclusive = d.kind === "none" && d.exclusive;
  const rule = exclusive ? "oneOf" : "anyOf";
  const checks = t.variants.map((v) => isExpr(ctx, v.type, undefined, "value"));
  out.add("  ", js`const matches = ${checks.map((c, i) => js`${i > 0 ? " + " : ""}(${c} ? 1 : 0)`)};`);
  if (exclusive) {
    out.add("  ", "if (matches > 1) {");
    pushIssue(out, "    ", "path", "oneOf", "must match exactly one alternative, but matches several");
    out.add("    ", "return;");
    out.add("  ", "}");
  }
  out.add("  ", "if (matches === 0) {");
  collectByKind(ctx, t.variants.map((v) => v.type), "value", "path", out, "    ", rule);
  out.add("  ", "}");
}
