import { stringLiteral } from "../../codegen/escape.js";
import type { Printable } from "../../codegen/generated-file.js";
import type { Field, TypeExpr } from "../../ir/model.js";
import { mapKeyReader, valueCodec } from "./codecs.js";
import { access, rt, typeTs, type ProtoJsonContext } from "./context.js";
import { jsonNames, type JsonField, type JsonOneof, type MessageLayout } from "./layout.js";

/**
 * The body of the reader of an ordinary message: fields without presence start at their defaults, then one `case`
 * per accepted key (json name and proto name) over the object's own keys. Unknown keys fail unless
 * ignoreUnknownFields; JSON null means "not set" except where null is a value (Value, NullValue).
 */
export function printFromJsonBody(layout: MessageLayout, typeName: string, ctx: ProtoJsonContext): void {
  const { f } = ctx;
  const fields = layout.members.filter((m): m is JsonField => m.kind === "field");
  const required = fields.filter((m) => m.presence === "required");
  const defaults = fields.flatMap((m) => {
    const zero = m.presence === "implicit" ? valueCodec(m.field.type, ctx).zero : undefined;
    return zero ? [[`${propertyKeyOf(m.property)}: `, zero.literal] as Printable[]] : [];
  });
  f.print("  const object = ", rt(ctx, "jsonObjectAt"), "(json, path);");
  // With required fields the object is only complete after the checks at the end.
  const cast = required.length > 0 ? ` as ${typeName}` : "";
  if (defaults.length === 0) f.print(`  const message${cast ? "" : `: ${typeName}`} = {}${cast};`);
  else {
    f.print(`  const message${cast ? "" : `: ${typeName}`} = {`);
    for (const d of defaults) f.print("    ", ...d, ",");
    f.print(`  }${cast};`);
  }
  const hasCases = layout.members.length > 0 || layout.extensions !== undefined;
  f.print("  for (const key of Object.keys(object)) {");
  if (hasCases) f.print("    const value = object[key];");
  f.print("    switch (key) {");
  for (const m of layout.members) {
    if (m.kind === "field") printFieldCase(m, ctx);
    else for (const member of m.members) printOneofCase(m, member.field, member.caseName, ctx);
  }
  if (layout.extensions) {
    for (const e of layout.extensions.list) printExtensionCase(layout.extensions.property, e.fullName, e.field, ctx);
  }
  f.print("      default:");
  f.print("        if (!options.ignoreUnknownFields) throw ", rt(ctx, "unknownJsonField"), "(path, key);");
  f.print("    }");
  f.print("  }");
  for (const m of required) {
    f.print(`  if (${access("message", m.property, stringLiteral)} === undefined) throw `, rt(ctx, "missingJsonField"), `(path, ${stringLiteral(m.field.name)});`);
  }
  f.print("  return message;");
}

function propertyKeyOf(property: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(property) ? property : stringLiteral(property);
}

/** The case labels of a field; when the proto name differs, a JSON object carrying both names is an error. */
function printLabels(field: Field, ctx: ProtoJsonContext): void {
  const { f } = ctx;
  const { json, proto } = jsonNames(field);
  if (json === proto) {
    f.print(`      case ${stringLiteral(json)}:`);
    return;
  }
  f.print(`      case ${stringLiteral(proto)}:`);
  f.print(`      case ${stringLiteral(json)}:`);
  f.print(
    `        if (key === ${stringLiteral(proto)} && `, rt(ctx, "hasOwnJson"), `(object, ${stringLiteral(json)})) throw `,
    rt(ctx, "duplicateJsonField"), `(path, key, ${stringLiteral(json)});`,
  );
}

function printFieldCase(m: JsonField, ctx: ProtoJsonContext): void {
  const { f } = ctx;
  printLabels(m.field, ctx);
  const target = access("message", m.property, stringLiteral);
  const type = m.field.type;
  if (m.presence === "map" && type.kind === "map") printMapRead(target, type, ctx);
  else if (m.presence === "repeated") printListRead(target, m.field, ctx);
  else {
    const codec = valueCodec(type, ctx);
    const guard = codec.nullIsValue ? "" : "if (value !== null) ";
    if (codec.mayBeSkipped) {
      f.print(`        ${guard}{`);
      f.print("          const read = ", codec.read("value", "path", "key"), ";");
      f.print(`          if (read !== undefined) ${target} = read;`);
      f.print("        }");
    } else f.print(`        ${guard}${target} = `, codec.read("value", "path", "key"), ";");
  }
  f.print("        break;");
}

function printListRead(target: string, field: Field, ctx: ProtoJsonContext): void {
  const { f } = ctx;
  const codec = valueCodec(field.type, ctx);
  f.print("        if (value !== null) {");
  f.print("          const p = ", rt(ctx, "pointerJoin"), "(path, key);");
  f.print("          const items = ", rt(ctx, "jsonArrayAt"), "(value, path, key);");
  if (codec.mayBeSkipped) {
    f.print(`          const list: ${typeTs(ctx, field.type)}[] = [];`);
    f.print("          for (let i = 0; i < items.length; i++) {");
    f.print("            const read = ", codec.read("items[i]", "p", "i"), ";");
    f.print("            if (read !== undefined) list.push(read);");
    f.print("          }");
    f.print(`          ${target} = list;`);
  } else {
    f.print(`          ${target} = items.map((item, i) => `, codec.read("item", "p", "i"), ");");
  }
  f.print("        }");
}

function printMapRead(target: string, type: Extract<TypeExpr, { kind: "map" }>, ctx: ProtoJsonContext): void {
  const { f } = ctx;
  const codec = valueCodec(type.value, ctx);
  const keyReader = mapKeyReader(type.key, ctx);
  f.print("        if (value !== null) {");
  f.print("          const p = ", rt(ctx, "pointerJoin"), "(path, key);");
  f.print("          const entries = ", rt(ctx, "jsonObjectAt"), "(value, path, key);");
  f.print(`          const map: ${typeTs(ctx, type)} = {};`);
  f.print("          for (const k of Object.keys(entries)) {");
  const read = codec.read("entries[k]", "p", "k");
  const store = (v: Printable): Printable[] =>
    keyReader ? ["map[", keyReader, "(k, p)] = ", v, ";"] : [rt(ctx, "jsonSet"), "(map, k, ", v, ");"];
  if (codec.mayBeSkipped) {
    f.print("            const read = ", read, ";");
    f.print("            if (read !== undefined) ", ...store("read"));
  } else f.print("            ", ...store(read));
  f.print("          }");
  f.print(`          ${target} = map;`);
  f.print("        }");
}

function printOneofCase(m: JsonOneof, field: Field, caseName: string, ctx: ProtoJsonContext): void {
  const { f } = ctx;
  printLabels(field, ctx);
  const target = access("message", m.property, stringLiteral);
  const codec = valueCodec(field.type, ctx);
  // A null member does not set the oneof (so {"a": null, "b": 1} is fine), unless null is a value of its type.
  const indent = codec.nullIsValue ? "        " : "          ";
  if (!codec.nullIsValue) f.print("        if (value !== null) {");
  f.print(
    `${indent}if (${target} !== undefined) throw `, rt(ctx, "oneofJsonConflict"),
    `(path, key, ${stringLiteral(m.group.oneofName ?? m.property)});`,
  );
  if (codec.mayBeSkipped) {
    f.print(`${indent}const read = `, codec.read("value", "path", "key"), ";");
    f.print(`${indent}if (read !== undefined) ${target} = { case: ${stringLiteral(caseName)}, value: read };`);
  } else {
    f.print(`${indent}${target} = { case: ${stringLiteral(caseName)}, value: `, codec.read("value", "path", "key"), " };");
  }
  if (!codec.nullIsValue) f.print("        }");
  f.print("        break;");
}

function printExtensionCase(property: string, fullName: string, field: Field, ctx: ProtoJsonContext): void {
  const { f } = ctx;
  f.print(`      case ${stringLiteral(`[${fullName}]`)}:`);
  const codec = valueCodec(field.type, ctx);
  const target = `(${access("message", property, stringLiteral)} ??= {})[${stringLiteral(fullName)}]`;
  const list = field.occurs.max === "unbounded" || field.occurs.max > 1;
  f.print("        if (value !== null) {");
  if (list) {
    f.print("          const p = ", rt(ctx, "pointerJoin"), "(path, key);");
    f.print("          const items = ", rt(ctx, "jsonArrayAt"), "(value, path, key);");
    f.print(`          const list: ${typeTs(ctx, field.type)}[] = [];`);
    f.print("          for (let i = 0; i < items.length; i++) {");
    f.print("            const read = ", codec.read("items[i]", "p", "i"), ";");
    f.print("            if (read !== undefined) list.push(read);");
    f.print("          }");
    f.print(`          ${target} = list;`);
  } else {
    f.print("          const read = ", codec.read("value", "path", "key"), ";");
    f.print(`          if (read !== undefined) ${target} = read;`);
  }
  f.print("        }");
  f.print("        break;");
}
