import { stringLiteral } from "../../codegen/escape.js";
import type { ListType, MapType, NamedType, RecordType, TypeExpr, UnionType } from "../../ir/model.js";
import { fieldPropertyName } from "../../naming/property-name.js";
import { recordProperties } from "../types/properties.js";
import { js, Lines, type Code } from "../json-validators/code.js";
import { scalarShape, type SerializerContext } from "./context.js";

/**
 * Conversions from parsed JSON to the in-memory shape (date-time -> Date, int64 -> bigint or string, base64 ->
 * Uint8Array), run by decoders before validating. They never mutate: a changed object or array is copied once
 * (so trying one union alternative cannot spoil the value for the next), and anything they do not recognise is
 * returned as is for the validator to report.
 */
export function reviveExpr(ctx: SerializerContext, t: TypeExpr, v: string): Code | undefined {
  if (!ctx.exprNeedsRevive(t)) return undefined;
  switch (t.kind) {
    case "scalar":
      switch (scalarShape(t, ctx.types)) {
        case "date":
          return js`${ctx.rt("jsonReviveDate")}(${v})`;
        case "bigint":
          return js`${ctx.rt("jsonReviveBigInt")}(${v})`;
        case "int64-string":
          return js`${ctx.rt("jsonReviveInt64String")}(${v})`;
        case "bytes":
          return js`${ctx.rt("jsonReviveBytes")}(${v})`;
        default:
          return js`${ctx.rt("jsonReviveNumber")}(${v})`;
      }
    case "ref":
      return `${ctx.typeFn(t.id, "revive")}(${v})`;
    case "list":
      return `${listReviver(ctx, t)}(${v})`;
    case "map":
      return `${mapReviver(ctx, t)}(${v})`;
    case "union":
      return `${alternativesReviver(ctx, t.of)}(${v})`;
    case "literal":
      return undefined;
  }
}

export function reviverBody(ctx: SerializerContext, t: NamedType, out: Lines): void {
  switch (t.kind) {
    case "record":
      return recordReviver(ctx, t, out);
    case "union":
      return unionReviver(ctx, t, out);
    case "alias":
      out.add("  ", "return ", reviveExpr(ctx, t.target, "value") ?? "value", ";");
      return;
    case "enum":
      out.add("  ", "return value;");
      return;
  }
}

function recordReviver(ctx: SerializerContext, t: RecordType, out: Lines): void {
  out.add("  ", 'if (typeof value !== "object" || value === null || Array.isArray(value)) return value;');
  out.add("  ", "const o = value as Record<string, unknown>;");
  out.add("  ", "let copy: Record<string, unknown> | undefined;");
  const setOwn = ctx.rt("jsonSetOwn");
  const known: string[] = [];
  for (const p of recordProperties(t, ctx.types)) {
    if (p.kind !== "field") continue;
    const key = p.field.wire.json?.key ?? fieldPropertyName(p.field);
    known.push(key);
    const convert = reviveExpr(ctx, p.field.type, "from");
    if (!convert) continue;
    const k = stringLiteral(key);
    out.add("  ", `if (Object.hasOwn(o, ${k})) {`);
    out.add("    ", `const from = o[${k}];`);
    out.add("    ", "const to = ", convert, ";");
    out.add("    ", js`if (to !== from) ${setOwn}((copy ??= { ...o }), ${k}, to);`);
    out.add("  ", "}");
  }
  const extra = t.additionalProperties;
  const convertExtra = extra ? reviveExpr(ctx, extra, "from") : undefined;
  if (convertExtra) {
    out.add("  ", "for (const key in o) {");
    const skip = known.length === 0 ? "" : ` || ${known.map((k) => `key === ${stringLiteral(k)}`).join(" || ")}`;
    out.add("    ", `if (!Object.hasOwn(o, key)${skip}) continue;`);
    out.add("    ", "const from = o[key];");
    out.add("    ", "const to = ", convertExtra, ";");
    out.add("    ", js`if (to !== from) ${setOwn}((copy ??= { ...o }), key, to);`);
    out.add("  ", "}");
  }
  out.add("  ", "return copy ?? o;");
}

function unionReviver(ctx: SerializerContext, t: UnionType, out: Lines): void {
  const d = t.discriminator;
  if (d.kind === "property") {
    const k = stringLiteral(d.property);
    out.add("  ", 'if (typeof value !== "object" || value === null || Array.isArray(value)) return value;');
    out.add("  ", `switch (Object.hasOwn(value, ${k}) ? (value as Record<string, unknown>)[${k}] : undefined) {`);
    for (const v of t.variants) {
      const convert = v.tag !== undefined ? reviveExpr(ctx, v.type, "value") : undefined;
      if (!convert) continue;
      out.add("    ", `case ${stringLiteral(v.tag!)}:`);
      out.add("      ", "return ", convert, ";");
    }
    out.add("    ", "default:");
    out.add("      ", "return value;");
    out.add("  ", "}");
    return;
  }
  alternativesBody(ctx, t.variants.map((v) => v.type), out);
}

/** The first alternative that converts something wins; a value no alternative converts is returned as is. */
function alternativesBody(ctx: SerializerContext, members: readonly TypeExpr[], out: Lines): void {
  let n = 0;
  for (const m of members) {
    const convert = reviveExpr(ctx, m, "value");
    if (!convert) continue;
    n++;
    out.add("  ", `const to${n} = `, convert, ";");
    out.add("  ", `if (to${n} !== value) return to${n};`);
  }
  out.add("  ", "return value;");
}

function alternativesReviver(ctx: SerializerContext, members: readonly TypeExpr[]): string {
  return ctx.sharedHelper("revive", ["alternatives", members], (name) => buildAlternativesReviver(ctx, members, name));
}

function buildAlternativesReviver(ctx: SerializerContext, members: readonly TypeExpr[], name: string): void {
  const body = new Lines();
  body.add("", `function ${name}(value: unknown): unknown {`);
  alternativesBody(ctx, members, body);
  body.add("", "}");
  ctx.helpers.append(body);
}

function listReviver(ctx: SerializerContext, t: ListType): string {
  return ctx.sharedHelper("revive", t, (name) => buildListReviver(ctx, t, name));
}

function buildListReviver(ctx: SerializerContext, t: ListType, name: string): void {
  const body = new Lines();
  body.add("", `function ${name}(value: unknown): unknown {`);
  body.add("  ", "if (!Array.isArray(value)) return value;");
  body.add("  ", "let copy: unknown[] | undefined;");
  body.add("  ", "for (let i = 0; i < value.length; i++) {");
  body.add("    ", "const from: unknown = value[i];");
  body.add("    ", "const to = ", reviveExpr(ctx, t.of, "from")!, ";");
  body.add("    ", "if (to !== from) (copy ??= value.slice())[i] = to;");
  body.add("  ", "}");
  body.add("  ", "return copy ?? value;");
  body.add("", "}");
  ctx.helpers.append(body);
}

function mapReviver(ctx: SerializerContext, t: MapType): string {
  return ctx.sharedHelper("revive", t, (name) => buildMapReviver(ctx, t, name));
}

function buildMapReviver(ctx: SerializerContext, t: MapType, name: string): void {
  const body = new Lines();
  body.add("", `function ${name}(value: unknown): unknown {`);
  body.add("  ", 'if (typeof value !== "object" || value === null || Array.isArray(value)) return value;');
  body.add("  ", "const o = value as Record<string, unknown>;");
  body.add("  ", "let copy: Record<string, unknown> | undefined;");
  body.add("  ", "for (const key in o) {");
  body.add("    ", "if (!Object.hasOwn(o, key)) continue;");
  body.add("    ", "const from = o[key];");
  body.add("    ", "const to = ", reviveExpr(ctx, t.value, "from")!, ";");
  body.add("    ", js`if (to !== from) ${ctx.rt("jsonSetOwn")}((copy ??= { ...o }), key, to);`);
  body.add("  ", "}");
  body.add("  ", "return copy ?? o;");
  body.add("", "}");
  ctx.helpers.append(body);
}
