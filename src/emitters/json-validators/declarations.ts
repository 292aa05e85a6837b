import type { EnumType, NamedType, TypeId } from "../../ir/model.js";
import { valueCheckRules } from "./checks.js";
import { and, js, Lines, type Code } from "./code.js";
import { collectStatements } from "./collect.js";
import type { ValidatorContext } from "./context.js";
import type { DerivedRole } from "../../naming/derived.js";
import { isExpr } from "./is-expr.js";
import { reportCheck } from "./issues.js";
import { literalCode } from "./leaf-checks.js";
import { recordCollectBody, recordIsBody } from "./records.js";
import { unionCollectBody, unionIsBody } from "./unions.js";

/** The three exported functions of one named type, followed by the helpers its bodies needed. */
export function emitTypeValidators(ctx: ValidatorContext, t: NamedType): Lines {
  ctx.beginType(t.id);
  const name = ctx.typeName(t.id);
  const fn = (role: DerivedRole) => ctx.types.names.derived(t.id, role);
  const declared = ctx.f.import(name, "./types.js", { typeOnly: true });
  // A nullable schema's own validator accepts null too (see NamedType.nullable), and its guard says so.
  const typeRef: Code = t.nullable ? js`${declared} | null` : declared;
  const issueType = ctx.f.import("ValidationIssue", ctx.runtimeModule, { typeOnly: true });
  const recursive = ctx.recursive.has(t.id);
  const out = new Lines();

  const isBody = new Lines();
  if (t.nullable) isBody.add("  ", "if (value === null) return true;");
  const rules = (t.checks ?? []).flatMap((c) => valueCheckRules(ctx, c, "value"));
  let shapeCollect: string | undefined;
  if (rules.length === 0) boolBody(ctx, t, isBody);
  else {
    // The shape's checks in helpers of their own (their bodies return early), then the extra rules (NamedType.checks).
    const shapeIs = ctx.helperName("is");
    const helper = new Lines();
    helper.add("", `function ${shapeIs}(value: unknown): boolean {`);
    boolBody(ctx, t, helper);
    helper.add("", "}");
    shapeCollect = ctx.helperName("collect");
    helper.add("", js`function ${shapeCollect}(value: unknown, path: string, issues: ${issueType}[]): void {`);
    collectBody(ctx, t, helper);
    helper.add("", "}");
    ctx.helpers.append(helper);
    isBody.add("  ", "return ", and([`${shapeIs}(value)`, ...rules.map((r) => r.ok)]), ";");
  }
  out.add("", `/** Whether \`value\` is a valid {@link ${name}}. Stops at the first failure and allocates nothing. */`);
  out.add("", js`export function ${fn("is")}(value: unknown): value is ${typeRef} {`);
  if (recursive) {
    out.add("  ", "try {");
    out.add("    ", `return ${fn("check")}(value);`);
    out.add("  ", "} catch (error) {");
    out.add("    ", "// Nested deeper than the stack allows: not a valid value, and never a crash.");
    out.add("    ", "if (error instanceof RangeError) return false;");
    out.add("    ", "throw error;");
    out.add("  ", "}");
    out.add("", "}");
    out.add("");
    out.add("", `function ${fn("check")}(value: unknown): boolean {`);
  }
  out.append(isBody);
  out.add("", "}");
  out.add("");

  out.add("", `/** Every way \`value\` fails to be a valid {@link ${name}}, with JSON pointer paths; empty when it is valid. */`);
  out.add("", js`export function ${fn("validate")}(value: unknown): ${issueType}[] {`);
  // The is<T> pass first: a valid value (what a server mostly sees) costs that pass and an empty array, where collect
  // tests every present property for being the object's own (is<T> does so only for a failing one) and calls a
  // reporting helper per property (Webhook: 5.6 against 3.2 M calls/s). An invalid value pays for is<T> up to its
  // first failure, which it finds by the cheapest test (see cheapFirst), then collect.
  out.add("  ", `if (${fn("is")}(value)) return [];`);
  out.add("  ", js`const issues: ${issueType}[] = [];`);
  if (recursive) {
    out.add("  ", "try {");
    out.add("    ", `${fn("collect")}(value, "", issues);`);
    out.add("  ", "} catch (error) {");
    out.add("    ", "if (!(error instanceof RangeError)) throw error;");
    out.add("    ", 'issues.push({ path: "", rule: "depth", message: "is nested too deeply to validate" });');
    out.add("  ", "}");
  } else out.add("  ", `${fn("collect")}(value, "", issues);`);
  out.add("  ", "return issues;");
  out.add("", "}");
  out.add("");

  out.add("", `/** Throws a ValidationError listing every issue unless \`value\` is a valid {@link ${name}}. */`);
  out.add("", js`export function ${fn("assert")}(value: unknown): asserts value is ${typeRef} {`);
  out.add("  ", js`if (!${fn("is")}(value)) throw new ${ctx.rt("ValidationError")}(${fn("validate")}(value));`);
  out.add("", "}");
  out.add("");

  standardSchemaConst(ctx, t.id, typeRef, out);

  out.add("", js`function ${fn("collect")}(value: unknown, path: string, issues: ${issueType}[]): void {`);
  if (t.nullable) out.add("  ", "if (value === null) return;");
  if (shapeCollect === undefined) collectBody(ctx, t, out);
  else {
    out.add("  ", `${shapeCollect}(value, path, issues);`);
    for (const r of rules) reportCheck(out, "  ", r, "path");
  }
  out.add("", "}");
  for (const line of ctx.helpers.lines) {
    // A blank line before each helper, above its doc comment when it has one.
    const text = line.length === 2 ? String(line[1]) : "";
    const previous = out.lines.at(-1);
    const documented = previous !== undefined && previous.length === 2 && String(previous[1]).startsWith("/**");
    if (text.startsWith("/**") || (text.startsWith("function ") && !documented)) out.add("");
    out.lines.push(line);
  }
  return out;
}

/**
 * A type with the shape of an earlier one (see types/same-shape.ts): its three exported names, typed for it, are that
 * type's functions. The types are structurally identical, so each function is also exactly right for this one.
 */
export function emitSameShapeAliases(ctx: ValidatorContext, t: NamedType, sameAs: TypeId): Lines {
  const name = ctx.typeName(t.id);
  const own = (role: DerivedRole) => ctx.types.names.derived(sameAs, role);
  const fn = (role: DerivedRole) => ctx.types.names.derived(t.id, role);
  const declared = ctx.f.import(name, "./types.js", { typeOnly: true });
  // Same shape includes nullability (NamedType.nullable is part of the shape key), so the signature says it too.
  const typeRef: Code = t.nullable ? js`${declared} | null` : declared;
  const issueType = ctx.f.import("ValidationIssue", ctx.runtimeModule, { typeOnly: true });
  const out = new Lines();
  out.add("", `/** Checks of {@link ${name}}: the schema is the same as {@link ${own("is")}}'s, and so are the functions. */`);
  out.add("", js`export const ${fn("is")}: (value: unknown) => value is ${typeRef} = ${own("is")};`);
  out.add("", js`export const ${fn("validate")}: (value: unknown) => ${issueType}[] = ${own("validate")};`);
  out.add("", js`export const ${fn("assert")}: (value: unknown) => asserts value is ${typeRef} = ${own("assert")};`);
  out.add("", js`export const ${ctx.types.names.standardSchema(t.id)}: ${standardSchemaType(ctx, typeRef)} = ${ctx.types.names.standardSchema(sameAs)};`);
  return out;
}

function standardSchemaType(ctx: ValidatorContext, typeRef: Code): Code {
  return js`${ctx.f.import("StandardSchemaV1", ctx.runtimeModule, { typeOnly: true })}<${typeRef}>`;
}

/**
 * `export const WebhookSchema: StandardSchemaV1<Webhook> = standardSchema(validateWebhook);`: the type's validator as
 * a Standard Schema v1 object. Marked pure, so a bundler drops the ones a program does not use.
 */
function standardSchemaConst(ctx: ValidatorContext, id: TypeId, typeRef: Code, out: Lines): void {
  const name = ctx.types.names.standardSchema(id);
  const validator = ctx.types.names.derived(id, "validate");
  out.add("", `/** {@link ${ctx.typeName(id)}} as a Standard Schema v1 object: \`~standard.validate\` wraps {@link ${validator}}. */`);
  out.add("", js`export const ${name}: ${standardSchemaType(ctx, typeRef)} = /*#__PURE__*/ ${ctx.rt("standardSchema")}(${validator});`);
  out.add("");
}

function boolBody(ctx: ValidatorContext, t: NamedType, out: Lines): void {
  switch (t.kind) {
    case "record":
      return recordIsBody(ctx, t, out);
    case "union":
      return unionIsBody(ctx, t, out);
    case "alias":
      out.add("  ", "return ", isExpr(ctx, t.target, t.facets, "value"), ";");
      return;
    case "enum":
      out.add("  ", "return ", enumCheck(ctx, t, "value"), ";");
      return;
  }
}

function collectBody(ctx: ValidatorContext, t: NamedType, out: Lines): void {
  switch (t.kind) {
    case "record":
      return recordCollectBody(ctx, t, out);
    case "union":
      return unionCollectBody(ctx, t, out);
    case "alias":
      return collectStatements(ctx, t.target, t.facets, "value", "path", out, "  ");
    case "enum": {
      const values = t.values.map((v) => JSON.stringify(v.value)).join(", ");
      reportCheck(out, "  ", { rule: "enum", ok: enumCheck(ctx, t, "value"), message: `must be one of ${values}` }, "path");
      return;
    }
  }
}

/** Membership in an enum: `===` comparisons for a few values, a module-level Set for many. */
function enumCheck(ctx: ValidatorContext, t: EnumType, v: string): string {
  const literals = [...new Set(t.values.map((x) => literalCode(x.value)))];
  if (literals.length > 6) return `${ctx.valueSet(literals)}.has(${v})`;
  return literals.length === 0 ? "false" : literals.map((l) => `${v} === ${l}`).join(" || ");
}
