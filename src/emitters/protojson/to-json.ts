import { stringLiteral } from "../../codegen/escape.js";
import type { Printable } from "../../codegen/generated-file.js";
import type { Field, TypeExpr } from "../../ir/model.js";
import { mapKeyReader, valueCodec } from "./codecs.js";
import { access, rt, type ProtoJsonContext } from "./context.js";
import { jsonNames, type JsonField, type JsonOneof, type MessageLayout } from "./layout.js";

/**
 * The body of `toJson<T>` for an ordinary message: one statement per field, in field order. Fields without presence
 * are skipped at their default unless `emitDefaults`; JSON keys are the json names unless `useProtoFieldName`.
 */
export function printToJsonBody(layout: MessageLayout, ctx: ProtoJsonContext): void {
  const { f } = ctx;
  const fields = layout.members.flatMap((m) => (m.kind === "field" ? [m.field] : m.members.map((c) => c.field)));
  const noPresence = layout.members.some((m) => m.kind === "field" && m.presence !== "explicit" && m.presence !== "required");
  f.print("  const json: ", rt(ctx, "ProtoJsonObject", true), " = {};");
  if (noPresence) f.print("  const all = options.emitDefaults === true;");
  if (fields.some((x) => jsonNames(x).json !== jsonNames(x).proto)) f.print("  const protoNames = options.useProtoFieldName === true;");
  for (const m of layout.members) {
    if (m.kind === "field") printField(m, ctx);
    else printOneof(m, ctx);
  }
  if (layout.extensions) printExtensions(layout, ctx);
  f.print("  return json;");
}

/** `json[key] = value;` with the key chosen by `useProtoFieldName`; "__proto__" goes through jsonSet. */
function assign(field: Field, value: Printable, ctx: ProtoJsonContext): Printable[] {
  const { json, proto } = jsonNames(field);
  const key = json === proto ? stringLiteral(json) : `protoNames ? ${stringLiteral(proto)} : ${stringLiteral(json)}`;
  if (json === "__proto__" || proto === "__proto__") return [rt(ctx, "jsonSet"), `(json, ${key}, `, value, ");"];
  return [`json[${key}] = `, value, ";"];
}

function printField(m: JsonField, ctx: ProtoJsonContext): void {
  const { f } = ctx;
  const v = access("message", m.property, stringLiteral);
  const type = m.field.type;
  if (m.presence === "map" && type.kind === "map") return printMap(m.field, v, type, ctx);
  const codec = valueCodec(type, ctx);
  if (m.presence === "repeated") {
    const list: Printable = codec.identity ? `${v}.slice()` : [`${v}.map((v) => `, codec.write("v"), ")"];
    f.print(`  if (${v} !== undefined && ${v}.length > 0) `, ...assign(m.field, list, ctx));
    f.print("  else if (all) ", ...assign(m.field, "[]", ctx));
    return;
  }
  if (m.presence === "implicit" && codec.zero) {
    // A partial message (a streamed request, a client's literal) may leave implicit fields out: absent reads as the
    // zero value, as the binary encoder does.
    f.print(`  if (${v} === undefined) {`);
    const zero = codec.zero.literal;
    if (typeof zero !== "string") throw new Error("internal: a zero literal is source text");
    f.print("    if (all) ", ...assign(m.field, codec.write(zero), ctx));
    f.print(`  } else if (all || `, codec.zero.notDefault(v), ") ", ...assign(m.field, codec.write(v), ctx));
    return;
  }
  f.print(`  if (${v} !== undefined) `, ...assign(m.field, codec.write(v), ctx));
}

function printMap(field: Field, v: string, type: Extract<TypeExpr, { kind: "map" }>, ctx: ProtoJsonContext): void {
  const { f } = ctx;
  const codec = valueCodec(type.value, ctx);
  // Keys of string maps come from data and may be "__proto__"; other key types cannot be.
  const stringKeys = mapKeyReader(type.key, ctx) === undefined;
  f.print(`  if (${v} !== undefined) {`);
  f.print("    const map: ", rt(ctx, "ProtoJsonObject", true), " = {};");
  f.print("    let size = 0;");
  f.print(`    for (const [k, v] of Object.entries(${v})) {`);
  if (stringKeys) f.print("      ", rt(ctx, "jsonSet"), "(map, k, ", codec.write("v"), ");");
  else f.print("      map[k] = ", codec.write("v"), ";");
  f.print("      size++;");
  f.print("    }");
  f.print("    if (all || size > 0) ", ...assign(field, "map", ctx));
  f.print("  } else if (all) ", ...assign(field, "{}", ctx));
}

function printOneof(m: JsonOneof, ctx: ProtoJsonContext): void {
  const { f } = ctx;
  f.print("  {");
  f.print(`    const oneof = ${access("message", m.property, stringLiteral)};`);
  f.print("    switch (oneof?.case) {");
  for (const { field, caseName } of m.members) {
    f.print(`      case ${stringLiteral(caseName)}:`);
    f.print("        ", ...assign(field, valueCodec(field.type, ctx).write("oneof.value"), ctx));
    f.print("        break;");
  }
  f.print("    }");
  f.print("  }");
}

/** Extensions are written under "[full.name]" keys, as the JSON mapping says. */
function printExtensions(layout: MessageLayout, ctx: ProtoJsonContext): void {
  const { f } = ctx;
  const ext = layout.extensions!;
  f.print("  {");
  f.print(`    const extensions = ${access("message", ext.property, stringLiteral)};`);
  f.print("    if (extensions !== undefined) {");
  for (const e of ext.list) {
    const v = `extensions[${stringLiteral(e.fullName)}]`;
    const key = stringLiteral(`[${e.fullName}]`);
    const codec = valueCodec(e.field.type, ctx);
    if (e.field.occurs.max === "unbounded" || e.field.occurs.max > 1) {
      f.print(`      if (${v} !== undefined) json[${key}] = ${v}.map((v) => `, codec.write("v"), ");");
    } else {
      f.print(`      if (${v} !== undefined) json[${key}] = `, codec.write(v), ";");
    }
  }
  f.print("    }");
  f.print("  }");
}
