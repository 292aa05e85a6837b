import { stringLiteral } from "../../codegen/escape.js";
import type { GeneratedFile, Printable } from "../../codegen/generated-file.js";
import type { ScalarKind, TypeExpr } from "../../ir/model.js";
import { fieldPropertyName } from "../../naming/property-name.js";
import { lookupType, type TypesContext } from "../types/context.js";
import { recordProperties } from "../types/properties.js";
import type { Runtime } from "./parameter-parsing.js";

/**
 * A decoder of an application/x-www-form-urlencoded body into the object its schema describes: one statement per
 * declared property (so a form field the schema does not declare is never copied), numbers and booleans
 * converted. The result then goes through the same validator as a JSON body.
 */
export function emitFormDecoder(f: GeneratedFile, name: string, t: TypeExpr, tctx: TypesContext, rt: Runtime): void {
  f.print(`function ${name}(form: URLSearchParams): unknown {`);
  f.print("  const value: { [key: string]: unknown } = {};");
  // `value["__proto__"] = x` would set the prototype: that one key is defined as an own property instead.
  const set = (key: string, v: Printable): Printable[] =>
    key === "__proto__"
      ? ['Object.defineProperty(value, "__proto__", { value: ', v, ", enumerable: true, writable: true, configurable: true })"]
      : [`value[${stringLiteral(key)}] = `, v];
  const record = t.kind === "ref" ? lookupType(tctx, t.id) : undefined;
  if (record?.kind === "record") {
    for (const p of recordProperties(record, tctx)) {
      if (p.kind !== "field") continue;
      const key = fieldPropertyName(p.field);
      const list = p.occurs.max === "unbounded" || p.occurs.max > 1 || p.field.type.kind === "list";
      const item = p.field.type.kind === "list" ? p.field.type.of : p.field.type;
      const convert = converter(item, tctx);
      const wrap = (raw: string) => (convert ? [rt(convert), `(${raw})`] : [raw]);
      if (list) {
        f.print(`  if (form.has(${stringLiteral(key)})) `, ...set(key, [`form.getAll(${stringLiteral(key)})`, convert ? [".map(", rt(convert), ")"] : ""]), ";");
      } else {
        f.print(`  const ${localOf(key)} = form.get(${stringLiteral(key)});`);
        f.print(`  if (${localOf(key)} !== null) `, ...set(key, wrap(localOf(key))), ";");
      }
    }
  }
  f.print("  return value;");
  f.print("}");
  f.print();
}

function localOf(key: string): string {
  return `field_${key.replace(/[^\w$]/g, "_")}`;
}

const NUMERIC: ReadonlySet<ScalarKind> = new Set([
  "int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32", "fixed64", "sfixed32", "sfixed64", "float", "double",
]);

function converter(t: TypeExpr, tctx: TypesContext): "restFormNumber" | "restFormBoolean" | undefined {
  if (t.kind === "scalar") return NUMERIC.has(t.scalar) ? "restFormNumber" : t.scalar === "boolean" ? "restFormBoolean" : undefined;
  if (t.kind !== "ref") return undefined;
  const named = lookupType(tctx, t.id);
  if (named.kind === "alias") return converter(named.target, tctx);
  if (named.kind === "enum") return converter(named.base, tctx);
  return undefined;
}
