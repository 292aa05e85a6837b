import { stringLiteral } from "../../codegen/escape.js";
import type { Printable } from "../../codegen/generated-file.js";
import type { RecordType } from "../../ir/model.js";
import { lookupType } from "../types/context.js";
import { code, type XmlContext } from "./context.js";
import { OPEN_TYPES, writeElement } from "./element-values.js";
import type { FieldSlot } from "./record-layout.js";
import { familyRootOf } from "./record-layout.js";
import { isSimple, lexicalOf } from "./simple-values.js";

/** `v.key` or `v["odd key"]`. */
export function access(obj: string, key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${obj}.${key}` : `${obj}[${stringLiteral(key)}]`;
}

/**
 * A required property's value, or a throw naming it: `?? xmlRequiredProperty(...)` where null is not a value (so null
 * is refused too), `xmlPresent(...)` (undefined refused) where it means xsi:nil.
 */
function requiredValue(value: string, type: string, key: string, nullable: boolean, x: XmlContext): Printable {
  const where = code`${stringLiteral(type)}, ${stringLiteral(key)}`;
  return nullable ? code`${x.rt("xmlPresent")}(${value}, ${where})` : code`${value} ?? ${x.rt("xmlRequiredProperty")}(${where})`;
}

/**
 * `write<Name>(w, ns, local, v, xsi)`: the whole element for a record value, straight-line: attributes, then
 * text or child elements in schema order. `xsi` asks for xsi:type naming this record's type.
 */
export function emitRecordWriter(t: RecordType, x: XmlContext): void {
  const { f } = x;
  const name = x.names.type(t.id);
  const layout = x.layout(t.id);
  f.print(code`function write${name}(w: ${x.rt("XmlWriter", true)}, ns: string, local: string, v: ${x.ts(name)}, xsi: boolean): void {`);
  f.print("  w.startElement(ns, local);");
  f.print(`  if (xsi) w.xsiType(${x.ns(t.scope)}, ${stringLiteral(t.name)});`);
  const fields = layout.slots.filter((s): s is FieldSlot => s.kind !== "any");
  let n = 0;
  for (const s of fields.filter((s) => s.kind === "attribute")) {
    const v = `f${n++}`;
    const write = code`w.attribute(${x.ns(s.ns)}, ${stringLiteral(s.local)}, ${lexicalOf(v, s.field.type, x)});`;
    if (s.occurs.min >= 1) {
      f.print(code`  const ${v} = ${requiredValue(access("v", s.key), name, s.key, false, x)};`);
      f.print(code`  ${write}`);
    } else {
      f.print(`  const ${v} = ${access("v", s.key)};`);
      f.print(code`  if (${v} !== undefined) ${write}`);
    }
  }
  if (layout.attributesKey) {
    f.print(`  const attributes = ${access("v", layout.attributesKey)};`);
    f.print(code`  if (attributes !== undefined) ${x.rt("encodeXmlAttributes")}(w, attributes);`);
  }
  for (const s of fields.filter((s) => s.kind === "text")) f.print(code`  w.text(${lexicalOf(access("v", s.key), s.field.type, x)});`);
  for (const s of layout.slots) {
    const v = `f${n++}`;
    if (s.kind === "any") {
      f.print(`  const ${v} = ${access("v", s.key)};`);
      f.print(code`  if (${v} !== undefined) ${x.rt("encodeOpenContent")}(w, ${v}, ${OPEN_TYPES}, ${stringLiteral(`${name}/${s.key}`)});`);
      continue;
    }
    if (s.kind === "element") emitElementWrite(s, v, name, x);
  }
  f.print("  w.endElement();");
  f.print("}");
}

/**
 * The statements writing one element property, one line where the runtime can take the value as it is: text whose
 * lexical form is the value itself (strings, enumerations) goes through xmlTextElement(s), which also writes xsi:nil
 * for null and nothing for undefined; a non-nillable single value is read where it is written.
 */
function emitElementWrite(s: FieldSlot, v: string, name: string, x: XmlContext): void {
  const { f } = x;
  const ns = x.ns(s.ns);
  const local = stringLiteral(s.local);
  const required = s.occurs.min >= 1;
  const value = access("v", s.key);
  const where = `${name}/${s.key}`;
  const type = s.field.type;
  const simple = isSimple(type, x);
  // lexicalOf hands the value back unchanged when its lexical form is the value itself.
  const text = simple && lexicalOf("$", type, x) === "$";
  const nil = code`${x.rt("xmlNilElement")}(w, ${ns}, ${local});`;
  if (s.list) {
    // A required list is refused when absent or null (it is an array of items, never nil itself).
    const list = required ? requiredValue(value, name, s.key, false, x) : value;
    if (text) {
      f.print(code`  ${x.rt("xmlTextElements")}(w, ${ns}, ${local}, ${list});`);
      return;
    }
    const loop = required ? "  " : "    ";
    f.print(code`  const ${v} = ${list};`);
    if (!required) f.print(`  if (${v} !== undefined) {`);
    f.print(`${loop}for (const item of ${v}) {`);
    if (s.field.nullable) {
      f.print(code`${loop}  if (item === null) ${nil}`);
      f.print(code`${loop}  else ${writeElement("item", ns, s.local, type, x, where)}`);
    } else f.print(code`${loop}  ${writeElement("item", ns, s.local, type, x, where)}`);
    f.print(`${loop}}`);
    if (!required) f.print("  }");
    return;
  }
  if (!s.field.nullable) {
    if (required) f.print(code`  ${writeElement(code`(${requiredValue(value, name, s.key, false, x)})`, ns, s.local, type, x, where)}`);
    else f.print(code`  if (${value} !== undefined) ${writeElement(value, ns, s.local, type, x, where)}`);
    return;
  }
  const present = required ? requiredValue(value, name, s.key, true, x) : value;
  if (text) {
    f.print(code`  ${x.rt("xmlTextElement")}(w, ${ns}, ${local}, ${present});`);
    return;
  }
  f.print(code`  const ${v} = ${present};`);
  if (simple) {
    const absent = required ? `${v} === null` : `${v} === undefined || ${v} === null`;
    f.print(code`  ${x.rt("xmlTextElement")}(w, ${ns}, ${local}, ${absent} ? ${v} : ${lexicalOf(v, type, x)});`);
    return;
  }
  f.print(code`  if (${v} === null) ${nil}`);
  f.print(code`  else${required ? "" : ` if (${v} !== undefined)`} ${writeElement(v, ns, s.local, type, x, where)}`);
}

/** `write<AnyName>(w, ns, local, v)`: picks the member's writer by `$type`, which then writes xsi:type. */
export function emitFamilyWriter(t: RecordType, x: XmlContext): void {
  const { f } = x;
  const family = x.names.family(t.id)!;
  const isRoot = familyRootOf(t, x.types) === t.id;
  f.print(code`function write${family}(w: ${x.rt("XmlWriter", true)}, ns: string, local: string, v: ${x.ts(family)}): void {`);
  f.print("  switch (v.$type) {");
  for (const id of familyMembers(t, x)) {
    const m = lookupType(x.types, id) as RecordType;
    if (id === t.id && isRoot) f.print("    case undefined:");
    f.print(`    case ${stringLiteral(m.name)}:`);
    const xsi = id === t.id && isRoot ? "v.$type !== undefined" : "true";
    f.print(`      write${x.names.type(id)}(w, ns, local, v, ${xsi});`);
    f.print("      return;");
  }
  f.print("    default:");
  const message = code`"unknown $type " + String((v as { $type?: unknown }).$type) + ${stringLiteral(` for ${t.name}`)}`;
  f.print(code`      throw new ${x.rt("XmlEncodeError")}(${message});`);
  f.print("  }");
  f.print("}");
}

/** The record and its subtypes that can be instantiated (abstract types only appear through a subtype). */
export function familyMembers(t: RecordType, x: XmlContext): string[] {
  return [t.id, ...(x.types.subtypes.get(t.id) ?? [])].filter((id) => !(lookupType(x.types, id) as RecordType).abstract);
}
