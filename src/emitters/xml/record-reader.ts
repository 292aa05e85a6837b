import type { Printable } from "../../codegen/generated-file.js";
import { propertyKey, stringLiteral } from "../../codegen/escape.js";
import type { RecordType } from "../../ir/model.js";
import { lookupType } from "../types/context.js";
import { isList } from "../types/properties.js";
import { parenthesize, typeExprTs, unionOf } from "../types/type-expr.js";
import { code, typeRef, type XmlContext } from "./context.js";
import { OPEN_TYPES, readElement, segment } from "./element-values.js";
import { familyRootOf, type AnySlot, type FieldSlot } from "./record-layout.js";
import { familyMembers } from "./record-writer.js";
import { valueOf } from "./simple-values.js";

/**
 * `read<Name>(node, path)`: one pass over the element's attributes and children, matching by namespace and local
 * name (order is not enforced when reading; unknown children are skipped), then the required checks and the object.
 * A record with a wildcard beside fixed elements reads by position instead (emitPositionalCase), so open content
 * keeps its document order.
 * A family root takes a third argument: whether the value was named by xsi:type (then `$type` is set).
 */
export function emitRecordReader(t: RecordType, x: XmlContext): void {
  const { f } = x;
  const name = x.names.type(t.id);
  const layout = x.layout(t.id);
  const root = layout.familyRoot;
  const isRoot = root === t.id;
  const node = x.rt("XmlElementNode", true);
  f.print(code`function read${name}(node: ${node}, path: string${isRoot ? ", typed: boolean" : ""}): ${x.ts(name)} {`);
  const vars = new Map<FieldSlot | AnySlot, string>();
  layout.slots.forEach((s, i) => vars.set(s, `f${i}`));
  for (const s of layout.slots) f.print(code`  let ${vars.get(s)!}: ${localType(s, x)} | undefined;`);
  if (layout.attributesKey) f.print(code`  let attributes: { [name: string]: string } | undefined;`);
  emitAttributeLoop(layout.slots.filter((s): s is FieldSlot => s.kind === "attribute"), vars, !!layout.attributesKey, x);
  for (const s of layout.slots) {
    if (s.kind === "text") f.print(code`  ${vars.get(s)!} = ${valueOf("node.text", "path", s.field.type, x)};`);
  }
  emitChildLoop(layout.slots, vars, x);
  const props: Printable[] = [];
  const optional: Printable[] = [];
  if (root !== undefined && !isRoot) props.push(`$type: ${stringLiteral(t.name)}`);
  for (const s of layout.slots) {
    const v = vars.get(s)!;
    const key = propertyKey(s.key);
    if (s.occurs.min >= 1 && s.kind !== "any") {
      // Absent is an error, thrown as the object is built (in schema order, as the properties are evaluated).
      const what = `${s.kind === "attribute" ? "attribute" : "element"} ${s.local}`;
      // A single required + nillable element may be read as nil when absent (XmlDecodeOptions.lenientNillable).
      const lenient = s.kind === "element" && !s.list && s.field.nullable;
      const present = code`${x.rt(lenient ? "xmlRequiredNillable" : "xmlRequired")}(${v}, path, ${stringLiteral(what)})`;
      const item = itemType(s, x);
      props.push(s.kind === "element" && s.list ? code`${key}: ${present} as [${typeRef(item, x)}, ...${typeRef(item, x)}[]]` : code`${key}: ${present}`);
    } else optional.push(`  if (${v} !== undefined) out${accessKey(s.key)} = ${v};`);
  }
  if (layout.attributesKey) optional.push(`  if (attributes !== undefined) out${accessKey(layout.attributesKey)} = attributes;`);
  if (isRoot) optional.push(`  if (typed) out.$type = ${stringLiteral(t.name)};`);
  const literal: Printable[] = [];
  props.forEach((p, i) => literal.push(i === 0 ? "" : ", ", p));
  f.print(code`  const out: ${x.ts(name)} = { ${literal} };`);
  for (const line of optional) f.print(line);
  f.print("  return out;");
  f.print("}");
}

function accessKey(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `.${key}` : `[${stringLiteral(key)}]`;
}

function itemType(s: FieldSlot, x: XmlContext): string {
  const ts = typeExprTs(s.field.type, x.types);
  return parenthesize(s.field.nullable ? unionOf([ts, "null"]) : ts);
}

/** The type of the local that collects a slot (lists collect into a plain array). */
function localType(s: FieldSlot | AnySlot, x: XmlContext): Printable {
  if (s.kind === "any") return code`${x.rt("OpenContentItem", true)}[]`;
  if (s.kind === "element" && s.list) return typeRef(`${itemType(s, x)}[]`, x);
  const ts = typeExprTs(s.field.type, x.types);
  return typeRef(s.field.nullable && s.kind === "element" ? unionOf([ts, "null"]) : ts, x);
}

function groupByNs<T extends { ns: string }>(slots: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const s of slots) out.set(s.ns, [...(out.get(s.ns) ?? []), s]);
  return out;
}

function emitAttributeLoop(slots: readonly FieldSlot[], vars: Map<FieldSlot | AnySlot, string>, any: boolean, x: XmlContext): void {
  if (slots.length === 0 && !any) return;
  const { f } = x;
  f.print("  const attrs = node.attrs;");
  f.print("  for (let i = 0; i < attrs.length; i++) {");
  f.print("    const a = attrs[i]!;");
  for (const [ns, group] of groupByNs(slots)) {
    f.print(`    if (a.ns === ${x.ns(ns)}) {`);
    f.print("      switch (a.local) {");
    const seen = new Set<string>();
    for (const s of group) {
      if (seen.has(s.local)) continue;
      seen.add(s.local);
      f.print(code`        case ${stringLiteral(s.local)}: ${vars.get(s)!} = ${valueOf("a.value", code`path + ${segment(s.key)}`, s.field.type, x)}; continue;`);
    }
    f.print("      }");
    f.print("    }");
  }
  if (any) f.print(code`    if (a.ns !== ${x.rt("XSI_NS")}) attributes = ${x.rt("collectXmlAttribute")}(attributes, a);`);
  f.print("  }");
}

function emitChildLoop(all: readonly (FieldSlot | AnySlot)[], vars: Map<FieldSlot | AnySlot, string>, x: XmlContext): void {
  const particles = all.filter((s): s is FieldSlot | AnySlot => s.kind === "element" || s.kind === "any");
  const elements = particles.filter((s): s is FieldSlot => s.kind === "element");
  const anys = particles.filter((s): s is AnySlot => s.kind === "any");
  if (particles.length === 0) return;
  const { f } = x;
  // When a wildcard admits some fixed element's name, position decides where it goes: see emitPositionalCase.
  const positional = elements.some((e) => anys.some((a) => wildcardAdmits(a, e.ns)));
  if (positional) f.print("  let pos = 0;");
  f.print("  for (const c of node.children) {");
  for (const [ns, group] of groupByNs(elements)) {
    f.print(`    if (c.ns === ${x.ns(ns)}) {`);
    f.print("      switch (c.local) {");
    const byLocal = new Map<string, FieldSlot[]>();
    for (const s of group) byLocal.set(s.local, [...(byLocal.get(s.local) ?? []), s]);
    for (const [local, slots] of byLocal) {
      // The common case on one line (`case "name": f3 = ...; continue;`): schemas have thousands of fields.
      if (anys.some((a) => wildcardAdmits(a, ns))) {
        f.print(`        case ${stringLiteral(local)}:`);
        emitPositionalCase(slots, particles, vars, x);
      } else f.print(code`        case ${stringLiteral(local)}: ${elementRead(slots[0]!, vars, x)} continue;`);
    }
    f.print("      }");
    f.print("    }");
  }
  for (const s of anys) {
    const v = vars.get(s)!;
    const at = particles.indexOf(s);
    f.print(`    if (${namespaceTest("c.ns", s, x)}) {`);
    if (positional) f.print(`      if (pos < ${at}) pos = ${isList(s.occurs) ? at : at + 1};`);
    f.print(`      ${v} ??= [];`);
    f.print(code`      ${v}.push(${x.rt("decodeOpenItem")}(c, path, ${stringLiteral(s.key)}, ${v}.length, ${OPEN_TYPES}));`);
    f.print("      continue;");
    f.print("    }");
  }
  f.print("  }");
}

/**
 * One element name of a record whose wildcard also admits it. The element goes to its fixed field only at its schema
 * position: while the reader has not yet passed that particle (`pos`, the index of the next particle the content can
 * be at). Later the wildcard keeps it in `$any`, in document order, as the real partner service's records need
 * (`Id` is the sObject's own element and again among the queried fields). A fixed element ahead of a wildcard wins
 * over it (XSD 1.1's rule for element declarations versus wildcards). Elements no wildcard admits are read into
 * their field wherever they stand, as in records without wildcards (order not enforced).
 */
function emitPositionalCase(slots: readonly FieldSlot[], particles: readonly (FieldSlot | AnySlot)[], vars: Map<FieldSlot | AnySlot, string>, x: XmlContext): void {
  const { f } = x;
  for (const s of slots) {
    const at = particles.indexOf(s);
    f.print(`          if (pos <= ${at}) {`);
    f.print(`            pos = ${s.list ? at : at + 1};`);
    f.print(code`            ${elementRead(s, vars, x)}`);
    f.print("            continue;");
    f.print("          }");
  }
  f.print("          break;");
}

/** Whether an xsd:any's namespace constraint admits elements of namespace `ns` ("" = no namespace). */
function wildcardAdmits(s: AnySlot, ns: string): boolean {
  const tokens = s.any.namespace.trim().split(/\s+/).filter(Boolean);
  if (tokens.length === 0 || tokens.includes("##any")) return true;
  if (tokens.length === 1 && tokens[0] === "##other") return ns !== s.tns && ns !== "";
  return tokens.some((tok) => (tok === "##local" ? ns === "" : tok === "##targetNamespace" ? ns === s.tns : ns === tok));
}

/** The statement reading child `c` into the slot's local (a list appends). */
function elementRead(s: FieldSlot, vars: Map<FieldSlot | AnySlot, string>, x: XmlContext): Printable {
  const v = vars.get(s)!;
  if (s.list) {
    const read = readElement("c", code`path + ${segment(s.key)} + "/" + ${v}.length`, s.field.type, x);
    return code`(${v} ??= []).push(${s.field.nullable ? code`${x.rt("isNil")}(c) ? null : ${read}` : read});`;
  }
  const read = readElement("c", code`path + ${segment(s.key)}`, s.field.type, x);
  return code`${v} = ${s.field.nullable ? code`${x.rt("isNil")}(c) ? null : ${read}` : read};`;
}

/** The namespace constraint of an xsd:any as a JS condition on `ns`. */
export function namespaceTest(ns: string, s: AnySlot, x: XmlContext): string {
  const tokens = s.any.namespace.trim().split(/\s+/).filter(Boolean);
  if (tokens.length === 0 || tokens.includes("##any")) return "true";
  if (tokens.length === 1 && tokens[0] === "##other") return `${ns} !== ${x.ns(s.tns)} && ${ns} !== ""`;
  const alternatives = tokens.map((tok) => {
    if (tok === "##local") return `${ns} === ""`;
    if (tok === "##targetNamespace") return `${ns} === ${x.ns(s.tns)}`;
    return `${ns} === ${x.ns(tok)}`;
  });
  return alternatives.join(" || ");
}

/** `read<AnyName>(node, path)`: picks the reader by xsi:type (the declared type when there is none). */
export function emitFamilyReader(t: RecordType, x: XmlContext): void {
  const { f } = x;
  const family = x.names.family(t.id)!;
  const isRoot = familyRootOf(t, x.types) === t.id;
  f.print(code`function read${family}(node: ${x.rt("XmlElementNode", true)}, path: string): ${x.ts(family)} {`);
  f.print(code`  const type = ${x.rt("xsiType")}(node);`);
  if (t.abstract) {
    const message = `abstract type ${t.name} needs an xsi:type naming a type derived from it`;
    f.print(code`  if (type === undefined) throw new ${x.rt("XmlDecodeError")}(path, ${stringLiteral(message)});`);
  } else f.print(`  if (type === undefined) return read${x.names.type(t.id)}(node, path${isRoot ? ", false" : ""});`);
  const members = familyMembers(t, x).map((id) => lookupType(x.types, id) as RecordType);
  for (const [ns, group] of groupByNs(members.map((m) => ({ ns: m.scope, m })))) {
    f.print(`  if (type.ns === ${x.ns(ns)}) {`);
    f.print("    switch (type.local) {");
    for (const { m } of group) {
      f.print(`      case ${stringLiteral(m.name)}:`);
      f.print(`        return read${x.names.type(m.id)}(node, path${m.id === t.id && isRoot ? ", true" : ""});`);
    }
    f.print("    }");
    f.print("  }");
  }
  const message = code`"xsi:type {" + type.ns + "}" + type.local + ${stringLiteral(` is not ${t.name} or a type derived from it`)}`;
  f.print(code`  throw new ${x.rt("XmlDecodeError")}(path, ${message});`);
  f.print("}");
}
