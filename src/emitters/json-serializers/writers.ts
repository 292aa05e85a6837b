import { isIdentifier, stringLiteral } from "../../codegen/escape.js";
import type { Field, NamedType, RecordType, UnionType } from "../../ir/model.js";
import { fieldPropertyName } from "../../naming/property-name.js";
import { recordProperties } from "../types/properties.js";
import { js, Lines } from "../json-validators/code.js";
import { chunksOf } from "../json-validators/records.js";
import type { SerializerContext } from "./context.js";
import { variantAllowsTag } from "./tags.js";
import { tsOf, writeByGuards, writeExpr } from "./write-expr.js";

/** Keys that plain property access would resolve through Object.prototype when the value does not have them. */
const PROTOTYPE_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

/** The body of `encode<T>Json(value)`. */
export function writerBody(ctx: SerializerContext, t: NamedType, out: Lines): void {
  switch (t.kind) {
    case "record":
      return recordWriter(ctx, t, out);
    case "union":
      return unionWriter(ctx, t, out);
    case "alias":
      out.add("  ", "return ", writeExpr(ctx, t.target, "value"), ";");
      return;
    case "enum":
      out.add("  ", t.values.every((v) => typeof v.value === "string") ? "return JSON.stringify(value);" : js`return ${ctx.rt("jsonStringify")}(value);`);
      return;
  }
}

/**
 * Declared properties in schema order, then (only where the schema declares additionalProperties) the value's other
 * own keys. Undefined optional properties are left out, as JSON.stringify does.
 */
function recordWriter(ctx: SerializerContext, t: RecordType, out: Lines): void {
  const fields = recordProperties(t, ctx.types).flatMap((p) => (p.kind === "field" ? [{ field: p.field, required: p.occurs.min > 0 }] : []));
  const extra = t.additionalProperties;
  let started = false;
  out.add("  ", 'let json = "{";');
  // A record of many properties writes them in helpers of FIELDS_PER_FUNCTION each (TypeScript cannot analyse the
  // control flow of one function writing several hundred: DocuSign's AccountSettingsInformation has 674).
  const chunks = chunksOf(fields.map((f, i) => ({ ...f, i })));
  const typeRef = chunks.length > 1 ? ctx.f.import(ctx.typeName(t.id), "./types.js", { typeOnly: true }) : undefined;
  for (const chunk of chunks) {
    const body = typeRef === undefined ? out : new Lines();
    for (const { field, required, i } of chunk) started = writeField(ctx, field, required, i, started, body);
    if (typeRef !== undefined) {
      const name = ctx.helperName("write");
      ctx.helpers.add("", js`function ${name}(value: ${typeRef}, json: string): string {`);
      ctx.helpers.append(body);
      ctx.helpers.add("  ", "return json;");
      ctx.helpers.add("", "}");
      out.add("  ", `json = ${name}(value, json);`);
    }
  }
  if (extra !== undefined && extra !== false) {
    const known = fields.map(({ field }) => field.wire.json?.key ?? fieldPropertyName(field));
    out.add("  ", "for (const key in value) {");
    const skip = known.length === 0 ? "" : ` || ${known.map((k) => `key === ${stringLiteral(k)}`).join(" || ")}`;
    out.add("    ", `if (!Object.hasOwn(value, key)${skip}) continue;`);
    out.add("    ", "const item = (value as Record<string, unknown>)[key];");
    out.add("    ", "if (item === undefined) continue;");
    out.add("    ", js`json += (json === "{" ? "" : ",") + JSON.stringify(key) + ":" + ${writeExpr(ctx, extra, `(item as ${tsOf(ctx, extra)})`)};`);
    out.add("  ", "}");
  }
  out.add("  ", 'return json + "}";');
}

/** One declared property's statements; returns whether a property is now certainly written (a required one). */
function writeField(ctx: SerializerContext, field: Field, required: boolean, i: number, started: boolean, out: Lines): boolean {
  const key = field.wire.json?.key ?? fieldPropertyName(field);
  const prop = fieldPropertyName(field);
  const access = PROTOTYPE_KEYS.has(prop)
    ? `(Object.hasOwn(value, ${stringLiteral(prop)}) ? value[${stringLiteral(prop)}] : undefined)`
    : isIdentifier(prop) ? `value.${prop}` : `value[${stringLiteral(prop)}]`;
  const local = `v${i}`;
  const write = writeExpr(ctx, field.type, local);
  const valueText = field.nullable ? js`(${local} === null ? "null" : ${write})` : write;
  const keyText = stringLiteral(`${JSON.stringify(key)}:`);
  if (required) {
    out.add("  ", `const ${local} = ${access};`);
    // Before the first required property only optional ones were written, if any: test for the comma then.
    const requiredPrefix = started || i === 0 ? stringLiteral(`${started ? "," : ""}${JSON.stringify(key)}:`) : js`(json === "{" ? "" : ",") + ${keyText}`;
    out.add("  ", js`json += ${requiredPrefix} + ${valueText};`);
    return true;
  }
  out.add("  ", `const ${local} = ${access};`);
  const prefix = started ? stringLiteral(`,${JSON.stringify(key)}:`) : js`(json === "{" ? "" : ",") + ${keyText}`;
  out.add("  ", js`if (${local} !== undefined) json += ${prefix} + ${valueText};`);
  return started;
}

/** A discriminated union dispatches on its tag; others try each variant's validator in order. */
function unionWriter(ctx: SerializerContext, t: UnionType, out: Lines): void {
  const d = t.discriminator;
  if (d.kind === "property" && t.variants.length > 0 && t.variants.every((v) => v.tag !== undefined)) {
    const access = isIdentifier(d.property) ? `value.${d.property}` : `value[${stringLiteral(d.property)}]`;
    out.add("  ", `switch (${access}) {`);
    const seen = new Set<string>();
    for (const v of t.variants) {
      if (seen.has(v.tag!) || !variantAllowsTag(ctx.types, v.type, d.property, v.tag!)) continue;
      seen.add(v.tag!);
      out.add("    ", `case ${stringLiteral(v.tag!)}:`);
      out.add("      ", "return ", writeExpr(ctx, v.type, "value"), ";");
    }
    out.add("    ", "default:");
    out.add("      ", js`return ${ctx.rt("jsonStringify")}(value);`);
    out.add("  ", "}");
    return;
  }
  writeByGuards(ctx, t.variants.map((v) => v.type), "value", out, "  ");
}
