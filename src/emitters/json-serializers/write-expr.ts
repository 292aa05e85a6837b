import { stringLiteral } from "../../codegen/escape.js";
import type { ListType, MapType, TypeExpr, UnionExpr } from "../../ir/model.js";
import { js, Lines, or, type Code } from "../json-validators/code.js";
import { literalCode } from "../json-validators/leaf-checks.js";
import { parenthesize, typeExprTs } from "../types/type-expr.js";
import { scalarShape, type SerializerContext } from "./context.js";

/**
 * JSON text for a value held in `v` (an identifier or a parenthesized expression), as an expression specialised to
 * its type. Encoders trust their input's static type; what the type cannot promise (finite numbers, decimal int64
 * strings) is still checked, so the output is always well-formed JSON.
 */
export function writeExpr(ctx: SerializerContext, t: TypeExpr, v: string): Code {
  switch (t.kind) {
    case "scalar":
      switch (scalarShape(t, ctx.types)) {
        case "string":
          return `JSON.stringify(${v})`;
        case "date":
          return `JSON.stringify(${v}.toISOString())`;
        case "boolean":
          return `(${v} ? "true" : "false")`;
        case "number":
          return js`${ctx.rt("jsonNumber")}(${v})`;
        case "bigint":
          return `String(${v})`;
        case "int64-string":
          return js`${ctx.rt("jsonInt64Text")}(${v})`;
        case "bytes":
          return js`JSON.stringify(${ctx.rt("jsonBase64Encode")}(${v}))`;
        case "any":
          return js`${ctx.rt("jsonStringify")}(${v})`;
      }
    // falls through (unreachable: every shape returns)
    case "literal":
      return stringLiteral(JSON.stringify(t.value));
    case "ref":
      return `${ctx.typeFn(t.id, "encodeJson")}(${v})`;
    case "list":
      return `${listWriter(ctx, t)}(${v})`;
    case "map":
      return `${mapWriter(ctx, t)}(${v})`;
    case "union":
      return `${unionWriter(ctx, t)}(${v})`;
  }
}

/**
 * The TypeScript type of `t`, as text for a helper's signature. The named types it mentions are imported here: a
 * type's own declaration imports it, but a family union (`AnyPet`) has no declaration in json.ts to do that.
 */
export function tsOf(ctx: SerializerContext, t: TypeExpr): string {
  for (const id of refsIn(t)) {
    ctx.f.use(ctx.f.import(ctx.types.names.family(id) ?? ctx.types.names.type(id), "./types.js", { typeOnly: true }));
  }
  return typeExprTs(t, ctx.types);
}

function refsIn(t: TypeExpr): string[] {
  switch (t.kind) {
    case "ref":
      return [t.id];
    case "list":
      return refsIn(t.of);
    case "map":
      return [...refsIn(t.key), ...refsIn(t.value)];
    case "union":
      return t.of.flatMap(refsIn);
    default:
      return [];
  }
}

function listWriter(ctx: SerializerContext, t: ListType): string {
  return ctx.sharedHelper("write", t, (name) => buildListWriter(ctx, t, name));
}

function buildListWriter(ctx: SerializerContext, t: ListType, name: string): void {
  const body = new Lines();
  body.add("", `function ${name}(v: readonly ${parenthesize(tsOf(ctx, t.of))}[]): string {`);
  body.add("  ", 'let json = "[";');
  body.add("  ", "for (let i = 0; i < v.length; i++) {");
  body.add("    ", 'if (i > 0) json += ",";');
  body.add("    ", js`json += ${writeExpr(ctx, t.of, "v[i]!")};`);
  body.add("  ", "}");
  body.add("  ", 'return json + "]";');
  body.add("", "}");
  ctx.helpers.append(body);
}

function mapWriter(ctx: SerializerContext, t: MapType): string {
  return ctx.sharedHelper("write", t, (name) => buildMapWriter(ctx, t, name));
}

function buildMapWriter(ctx: SerializerContext, t: MapType, name: string): void {
  const body = new Lines();
  body.add("", `function ${name}(v: { readonly [key: string]: ${tsOf(ctx, t.value)} }): string {`);
  body.add("  ", 'let json = "{";');
  body.add("  ", "for (const key in v) {");
  body.add("    ", "if (!Object.hasOwn(v, key)) continue;");
  body.add("    ", "const item = v[key];");
  body.add("    ", "if (item === undefined) continue;");
  body.add("    ", 'if (json !== "{") json += ",";');
  body.add("    ", js`json += JSON.stringify(key) + ":" + ${writeExpr(ctx, t.value, "item")};`);
  body.add("  ", "}");
  body.add("  ", 'return json + "}";');
  body.add("", "}");
  ctx.helpers.append(body);
}

/** A cheap test that a value (of a union's static type) is of one member type, to pick that member's writer. */
export function guardOf(ctx: SerializerContext, t: TypeExpr, v: string): Code {
  switch (t.kind) {
    case "literal":
      return `${v} === ${literalCode(t.value)}`;
    case "scalar":
      switch (scalarShape(t, ctx.types)) {
        case "string":
        case "int64-string":
          return `typeof ${v} === "string"`;
        case "date":
          return `${v} instanceof Date`;
        case "boolean":
          return `typeof ${v} === "boolean"`;
        case "number":
          return `typeof ${v} === "number"`;
        case "bigint":
          return `typeof ${v} === "bigint"`;
        case "bytes":
          return `${v} instanceof Uint8Array`;
        case "any":
          return "true";
      }
    // falls through (unreachable)
    case "ref":
      return `${ctx.typeFn(t.id, "is")}(${v})`;
    case "list":
      return `Array.isArray(${v})`;
    case "map":
      return `typeof ${v} === "object" && ${v} !== null && !Array.isArray(${v})`;
    case "union":
      return or(t.of.map((m) => guardOf(ctx, m, v)));
  }
}

/** Members tried in order; the first whose guard holds writes the value. */
export function writeByGuards(ctx: SerializerContext, members: readonly TypeExpr[], v: string, out: Lines, indent: string): void {
  for (const m of members) {
    const guard = guardOf(ctx, m, v);
    const write = writeExpr(ctx, m, `(${v} as ${tsOf(ctx, m)})`);
    if (guard === "true") {
      out.add(indent, "return ", write, ";");
      return;
    }
    out.add(indent, "if (", guard, ") return ", write, ";");
  }
  out.add(indent, js`return ${ctx.rt("jsonStringify")}(${v});`);
}

function unionWriter(ctx: SerializerContext, t: UnionExpr): string {
  return ctx.sharedHelper("write", t, (name) => buildUnionWriter(ctx, t, name));
}

function buildUnionWriter(ctx: SerializerContext, t: UnionExpr, name: string): void {
  const body = new Lines();
  body.add("", `function ${name}(v: ${tsOf(ctx, t)}): string {`);
  writeByGuards(ctx, t.of, "v", body, "  ");
  body.add("", "}");
  ctx.helpers.append(body);
}
