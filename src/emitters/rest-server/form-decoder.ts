import { stringLiteral } from "../../codegen/escape.js";
import type { GeneratedFile, Printable } from "../../codegen/generated-file.js";
import type { HttpContent, TypeExpr } from "../../ir/model.js";
import { parameterShape } from "../../ir/parameter-shape.js";
import { fieldPropertyName } from "../../naming/property-name.js";
import { planSource } from "../rest-client/parameter-style.js";
import { lookupType, type TypesContext } from "../types/context.js";
import { recordProperties } from "../types/properties.js";
import { encodingOf, isFileProperty, isScalarBody } from "../rest-client/form-encoding.js";
import type { Runtime } from "./parameter-parsing.js";

/**
 * A decoder of a form body (application/x-www-form-urlencoded, or multipart/form-data when `multipart`) into the
 * object its schema describes: one statement per declared property (so a field the schema does not declare is
 * never copied), each read in its encoding's style (arrays, the bracket convention for objects) and coerced by its
 * plan, leniently: what does not fit is kept as text for the body validator to report. In a multipart body a
 * binary property is a file part, handed over as a Blob.
 */
export function emitFormDecoder(
  f: GeneratedFile,
  name: string,
  content: HttpContent,
  tctx: TypesContext,
  rt: Runtime,
  multipart: boolean,
): void {
  const t = content.type;
  if (!multipart && isScalarBody(t, tctx)) {
    // The body is the form's text itself (see isScalarBody), read as its one value.
    const plan = planSource(t, tctx);
    f.print(`function ${name}(_form: URLSearchParams, text: string): unknown {`);
    f.print("  return ", plan === `"string"` ? "text" : [rt("restCoerceForm"), `(text, ${plan})`], ";");
    f.print("}");
    f.print();
    return;
  }
  f.print(`function ${name}(form: ${multipart ? "FormData" : "URLSearchParams"}): unknown {`);
  const record = t.kind === "ref" ? lookupType(tctx, t.id) : undefined;
  const properties = record?.kind === "record" ? recordProperties(record, tctx).flatMap((p) => (p.kind === "field" ? [p] : [])) : [];
  if (multipart && properties.some((p) => !isFileProperty(p.field.type, tctx))) {
    f.print("  const fields = ", rt("restFormFields"), "(form);");
  }
  const fields = multipart ? "fields" : "form";
  f.print("  const value: { [key: string]: unknown } = {};");
  // `value["__proto__"] = x` would set the prototype: that one key is defined as an own property instead.
  const set = (key: string, v: Printable): Printable[] =>
    key === "__proto__"
      ? ['Object.defineProperty(value, "__proto__", { value: ', v, ", enumerable: true, writable: true, configurable: true })"]
      : [`value[${stringLiteral(key)}] = `, v];
  properties.forEach((p, i) => {
    const key = fieldPropertyName(p.field);
    const many = p.occurs.max === "unbounded" || p.occurs.max > 1;
    const type: TypeExpr = many && p.field.type.kind !== "list" ? { kind: "list", of: p.field.type } : p.field.type;
    const local = `field${i}`;
    if (multipart && isFileProperty(type, tctx)) {
      const read = type.kind === "list" ? "restFormFiles" : "restFormFile";
      f.print(`  const ${local} = `, rt(read), `(form, ${stringLiteral(key)});`);
      f.print(`  if (${local} !== undefined) `, ...set(key, local), ";");
      return;
    }
    const info = parameterShape(type, (id) => tctx.types.get(id));
    const declared = encodingOf(content, key);
    // Arrays of objects can only travel in the bracket convention (what the client writes for them too).
    const { style, explode } = info.nested ? { style: "deepObject", explode: true } : declared;
    const shapes = ["primitive", "array", "object"].filter((s) => info.shapes.has(s as never)).map((s) => s[0]).join("") || "p";
    const plan = planSource(type, tctx);
    f.print(`  const ${local} = `, rt("restFormText"), `(${fields}, ${stringLiteral(key)}, ${stringLiteral(style)}, ${explode}, "${shapes}");`);
    const coerced: Printable = plan === `"string"` || plan === `"any"` ? local : [rt("restCoerceForm"), `(${local}, ${plan})`];
    f.print(`  if (${local} !== undefined) `, ...set(key, coerced), ";");
  });
  f.print("  return value;");
  f.print("}");
  f.print();
}
