import { stringLiteral } from "../../codegen/escape.js";
import type { Printable } from "../../codegen/generated-file.js";
import type { EnumType, RecordType, TypeExpr } from "../../ir/model.js";
import { lookupType } from "../types/context.js";
import { typeExprTs } from "../types/type-expr.js";
import { code, typeRef, type XmlContext } from "./context.js";
import { familyRootOf } from "./record-layout.js";
import { isSimple, lexicalOf, valueOf } from "./simple-values.js";

/**
 * The codec tables of xml.ts: one `xmlCodecs.record(...)` per record type with a line per field, which the runtime's
 * XmlRecordCodec walks (see README.md). A field is `[flags, namespace, local name, property key, codec]`, the flags
 * being the kind (0 element, 1 attribute, 2 text, 3 wildcard) plus 4 required, 8 list, 16 nillable; a wildcard's
 * entry is `[flags, target namespace, namespace constraint, key]`.
 */

export const CODECS = "xmlCodecs";

const ELEMENT = 0;
const ATTRIBUTE = 1;
const TEXT = 2;
const ANY = 3;
const REQUIRED = 4;
const LIST = 8;
const NILLABLE = 16;

/** The codec constant of a record (its own fields, no xsi:type dispatch). */
export function recordCodec(id: string, x: XmlContext): string {
  return `r$${x.names.type(id)}`;
}

/**
 * `const r$Name = xmlCodecs.record(ns, "name", "Name", family, fields$Name, attributesKey?);` and the field table as a
 * function declaration `function fields$Name(): readonly XmlFieldSpec[] { return [...]; }` (the runtime calls it once,
 * on first use, so records may refer to each other in any order).
 * A function declaration rather than an arrow function: tsc's control-flow analysis follows each reference to a
 * top-level const from inside an arrow function back through every statement before the arrow, so thousands of
 * record tables cost check time quadratic in the file's length; inside a function declaration the walk stops at its
 * start (sf-partner-v40 schemas x10, see bench/size.bench.ts).
 */
export function emitRecordCodec(t: RecordType, x: XmlContext, simple: SimpleCodecs): void {
  const { f } = x;
  const name = x.names.type(t.id);
  const layout = x.layout(t.id);
  const family = layout.familyRoot === undefined ? 0 : layout.familyRoot === t.id ? 1 : 2;
  const fields = layout.slots.length === 0 ? "() => []" : `fields$${name}`;
  const attributes = layout.attributesKey !== undefined ? `, ${stringLiteral(layout.attributesKey)}` : "";
  f.print(code`const ${recordCodec(t.id, x)} = ${CODECS}.record(${x.ns(t.scope)}, ${stringLiteral(t.name)}, ${stringLiteral(name)}, ${String(family)}, ${fields}${attributes});`);
  if (layout.slots.length === 0) return;
  f.print(code`function ${fields}(): readonly ${x.rt("XmlFieldSpec", true)}[] { return [`);
  for (const s of layout.slots) {
    const occurs = (s.occurs.min >= 1 ? REQUIRED : 0) + (s.kind !== "any" && s.list ? LIST : 0);
    if (s.kind === "any") {
      f.print(`  [${ANY + occurs}, ${x.ns(s.tns)}, ${stringLiteral(s.any.namespace)}, ${stringLiteral(s.key)}],`);
      continue;
    }
    const kind = s.kind === "attribute" ? ATTRIBUTE : s.kind === "text" ? TEXT : ELEMENT;
    const flags = kind + occurs + (s.kind === "element" && s.field.nullable ? NILLABLE : 0);
    f.print(code`  [${String(flags)}, ${x.ns(s.ns)}, ${stringLiteral(s.local)}, ${stringLiteral(s.key)}, ${codecOf(s.field.type, x, simple)}],`);
  }
  f.print("]; }");
}

/** `const f$Family = xmlCodecs.family(r$Name, isRoot, abstract, () => [members]);` (dispatch by xsi:type / $type). */
export function emitFamilyCodec(t: RecordType, x: XmlContext): void {
  const family = x.names.family(t.id)!;
  const isRoot = familyRootOf(t, x.types) === t.id;
  const members = familyMembers(t, x).map((id) => recordCodec(id, x));
  x.f.print(`const f$${family} = ${CODECS}.family(${recordCodec(t.id, x)}, ${isRoot}, ${t.abstract === true}, () => [${members.join(", ")}]);`);
}

/** The record and its subtypes that can be instantiated (abstract types only appear through a subtype). */
export function familyMembers(t: RecordType, x: XmlContext): string[] {
  return [t.id, ...(x.types.subtypes.get(t.id) ?? [])].filter((id) => !(lookupType(x.types, id) as RecordType).abstract);
}

/** `const enum$Name = xmlEnumCodec(NameValues, "Name");` (the values come from the list types.ts exports). */
export function emitEnumCodec(t: EnumType, x: XmlContext): void {
  const list = x.f.import(x.names.enumValues(t.id), "./types.js");
  x.f.print(code`const enum$${x.names.type(t.id)} = ${x.rt("xmlEnumCodec")}(${list}, ${stringLiteral(t.name)});`);
}

/** The codec of values of type `t` in an element: a simple codec, a record's, a family's, or xsd:anyType's. */
export function codecOf(t: TypeExpr, x: XmlContext, simple: SimpleCodecs): string {
  if (t.kind === "ref") {
    const n = x.type(t.id);
    if (n.kind === "enum") return `enum$${x.names.type(n.id)}`;
    if (n.kind === "alias" && isSimple(n.target, x)) return codecOf(n.target, x, simple);
    if (n.kind === "record") {
      const family = x.names.family(t.id);
      return family ? `f$${family}` : recordCodec(t.id, x);
    }
  }
  if (isSimple(t, x)) return simple.of(t);
  return `${CODECS}.any`;
}

/** Simple codecs, one per distinct simple type expression, named `s$1`, `s$2`, ... in order of first use. */
export class SimpleCodecs {
  private readonly byKey = new Map<string, { name: string; line: Printable }>();
  constructor(private readonly x: XmlContext) {}
  of(t: TypeExpr): string {
    const key = JSON.stringify(t);
    const known = this.byKey.get(key);
    if (known) return known.name;
    const name = `s$${this.byKey.size + 1}`;
    const { x } = this;
    const parse = code`(text: string, path: string) => ${valueOf("text", "path", t, x)}`;
    const lexical = lexicalOf("v", t, x);
    const ts = typeRef(typeExprTs(t, x.types), x);
    const line = lexical === "v"
      ? code`const ${name} = ${x.rt("xmlTextCodec")}(${parse});`
      : code`const ${name} = new ${x.rt("XmlSimpleCodec")}(${parse}, (v: ${ts}) => ${lexical});`;
    this.byKey.set(key, { name, line });
    return name;
  }
  lines(): Printable[] {
    return [...this.byKey.values()].map((c) => c.line);
  }
}
