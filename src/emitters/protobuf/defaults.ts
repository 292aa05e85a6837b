/**
 * proto2 `[default = ...]` values. Decoding leaves absent fields absent (presence must survive so that re-encoding
 * is byte-exact), so the declared defaults are exported per message as `<T>Defaults`, to be read as
 * `message.field ?? TDefaults.field`.
 */
import { propertyKey, stringLiteral } from "../../codegen/escape.js";
import { code, type CodecContext } from "./code.js";
import type { FieldPlan, MessagePlan } from "./plan.js";
import { INT64_SCALARS } from "./scalars.js";

export function emitDefaults(c: CodecContext, plan: MessagePlan, name: string): void {
  const fields = plan.fields.filter((p) => p.field.wire.proto?.default !== undefined && p.oneof === undefined && p.extension === undefined);
  if (fields.length === 0) return;
  const { f } = c;
  const T = c.type(plan.record.id);
  f.jsdoc("", [
    `Declared default values (proto2 \`[default = ...]\`) of {@link ${plan.name}}'s fields. Decoding leaves absent fields ` +
      `absent, so that re-encoding is byte-exact; \`message.field ?? ${name}.field\` is the value protoc's accessors return.`,
  ]);
  const keys = fields.map((p) => stringLiteral(p.prop)).join(" | ");
  f.print(code`export const ${name}: Readonly<Required<Pick<${T}, ${keys}>>> = {`);
  for (const p of fields) f.print(`  ${propertyKey(p.prop)}: ${defaultLiteral(c, p)},`);
  f.print("};");
  f.print();
}

/** Whether a message gets a `<T>Defaults` constant. */
export function hasDefaults(plan: MessagePlan): boolean {
  return plan.fields.some((p) => p.field.wire.proto?.default !== undefined && p.oneof === undefined && p.extension === undefined);
}

function defaultLiteral(c: CodecContext, p: FieldPlan): string {
  const text = p.field.wire.proto!.default!;
  const v = p.value;
  if (v.kind === "enum") return stringLiteral(text);
  if (v.kind !== "scalar") throw new Error(`internal: ${p.field.name} cannot have a default`);
  switch (v.scalar) {
    case "string":
      return stringLiteral(text);
    case "bytes":
      // The parser keeps bytes defaults one char per byte.
      return `new Uint8Array([${[...text].map((ch) => ch.charCodeAt(0)).join(", ")}])`;
    case "boolean":
      return text === "true" ? "true" : "false";
    case "float":
    case "double":
      return floatLiteral(text, v.scalar === "float");
    default:
      if (!/^-?\d+$/.test(text)) throw new Error(`internal: integer default ${text} of ${p.field.name}`);
      if (!INT64_SCALARS.has(v.scalar)) return text;
      return c.emit.int64 === "bigint" ? `${text}n` : c.emit.int64 === "string" ? stringLiteral(text) : text;
  }
}

function floatLiteral(text: string, float32: boolean): string {
  const lower = text.toLowerCase();
  if (lower === "inf" || lower === "+inf") return "Infinity";
  if (lower === "-inf") return "-Infinity";
  if (lower === "nan" || lower === "-nan") return "NaN";
  let n = Number(text);
  if (Number.isNaN(n)) throw new Error(`internal: float default ${text}`);
  if (float32) n = Math.fround(n);
  return Object.is(n, -0) ? "-0" : String(n);
}
