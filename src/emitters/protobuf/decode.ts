/**
 * Readers: one `read<T>` per message, a loop with one `switch` over whole tags (field number and wire type), so a
 * field is one integer comparison away. A known field number with a wire type its declaration does not allow falls
 * through to `default` and is kept as an unknown field, as protoc and the C++ runtime keep it (docs/protobuf.md).
 * Errors get their field path from the catch block around the loop (no path tracking in the hot path).
 */
import { propertyKey, stringLiteral } from "../../codegen/escape.js";
import type { Printable } from "../../codegen/generated-file.js";
import { code, type CodecContext } from "./code.js";
import { member, type FieldPlan, type MessagePlan } from "./plan.js";
import { scalarWire, tagOf, WIRE } from "./scalars.js";
import { isDateValue, isPackable, readScalar, wireTypeOf, zeroLiteral } from "./values.js";

/** Packed 32-bit varint runs the runtime reads in one call (see packed-read.ts). */
const PACKED_READERS: Partial<Record<string, string>> = {
  int32: "pbReadPackedInt32",
  uint32: "pbReadPackedUint32",
  sint32: "pbReadPackedSint32",
};

/** Where a decoded value goes: assignment for singular fields, push for repeated ones. */
interface Target {
  /** Statement storing `value`. */
  set(value: Printable[]): Printable[];
  /** The value already there (merged into for message fields), or undefined. */
  current: string;
  /** An expression for the array of a repeated field (created if absent). */
  list: string;
}

function targetOf(p: FieldPlan, plan: MessagePlan): Target {
  if (p.extension !== undefined) {
    const holder = `(m.${plan.extensionsProp} ??= {})`;
    const slot = member(holder, p.extension);
    return {
      set: (v) => [`${slot} = `, ...v, ";"],
      current: member(`m.${plan.extensionsProp}?.`, p.extension).replace("?..", "?."),
      list: `(${slot} ??= [])`,
    };
  }
  if (p.oneof !== undefined) {
    const slot = member("m", p.oneof);
    return {
      set: (v) => [`${slot} = { case: ${stringLiteral(p.prop)}, value: `, ...v, " };"],
      current: `(${slot}?.case === ${stringLiteral(p.prop)} ? ${slot}.value : undefined)`,
      list: "",
    };
  }
  const slot = member("m", p.prop);
  return { set: (v) => [`${slot} = `, ...v, ";"], current: slot, list: `(${slot} ??= [])` };
}

export function emitReader(c: CodecContext, plan: MessagePlan): void {
  const { f } = c;
  const id = plan.record.id;
  const T = c.type(id);
  const asGroup = c.model.groupTypes.has(id);
  const reader = c.rt("PbReader");
  const fieldNames = c.local("fieldNames", id);

  f.print(`const ${fieldNames}: { readonly [n: number]: string } = {`);
  for (const p of plan.fields) f.print(`  ${p.number}: ${stringLiteral(p.extension ?? p.prop)},`);
  f.print("};");
  f.print();

  const hasRequired = plan.fields.some((p) => p.presence === "required" && p.oneof === undefined);
  const implicit = plan.fields.filter((p) => p.presence === "implicit" && p.oneof === undefined && p.extension === undefined);
  const init: Printable[] = ["{ "];
  implicit.forEach((p, i) => init.push(i > 0 ? ", " : "", `${propertyKey(p.prop)}: `, zeroLiteral(c, p.value)));
  init.push(" }");
  if (implicit.length === 0) init.splice(0, init.length, "{}");
  const params = code`r: ${reader}, end: number, depth: number, into: ${T} | undefined${asGroup ? ", endTag: number" : ""}`;
  f.print(code`function ${c.local("read", id)}(${params}): ${T} {`);
  f.print(code`  if (depth > r.maxDepth) ${c.rt("pbTooDeep")}(r);`);
  f.print(code`  const m: ${T} = into ?? ${hasRequired ? code`(${init} as ${T})` : init};`);
  f.print("  let unknown: Uint8Array[] | undefined;");
  f.print("  let tag = 0;");
  f.print("  try {");
  f.print(asGroup ? "    loop: while (r.pos < end) {" : "    while (r.pos < end) {");
  f.print("      const start = r.pos;");
  f.print(code`      tag = ${c.rt("pbReadTag")}(r);`);
  f.print("      switch (tag) {");
  for (const p of plan.fields) emitFieldCases(c, plan, p);
  f.print("        default:");
  if (asGroup) f.print("          if (tag === endTag) break loop;");
  f.print(code`          ${c.rt("pbSkipField")}(r, tag, depth);`);
  f.print("          (unknown ??= []).push(r.buf.subarray(start, r.pos));");
  f.print("      }");
  f.print("    }");
  f.print(code`    if (r.pos > end) ${c.rt("pbOverrun")}(r, end);`);
  f.print("  } catch (e) {");
  f.print(code`    throw ${c.rt("pbFieldError")}(e, ${fieldNames}[tag >>> 3], m);`);
  f.print("  }");
  if (asGroup) f.print(code`  if (endTag !== -1 && tag !== endTag) ${c.rt("pbUnterminatedGroup")}(r);`);
  for (const p of plan.fields) {
    if (p.presence !== "required" || p.oneof !== undefined) continue;
    f.print(code`  if (${member("m", p.prop)} === undefined) ${c.rt("pbMissingRequired")}(r.pos, ${stringLiteral(p.prop)});`);
  }
  f.print(code`  if (unknown !== undefined) ${member("m", plan.unknownProp)} = ${c.rt("pbJoinUnknown")}(${member("m", plan.unknownProp)}, unknown);`);
  f.print("  return m;");
  f.print("}");
  f.print();
  for (const p of plan.fields) if (p.mapKey !== undefined) emitMapEntryReader(c, plan, p);
}

function emitFieldCases(c: CodecContext, plan: MessagePlan, p: FieldPlan): void {
  const { f } = c;
  const t = targetOf(p, plan);
  const v = p.value;
  const indent = "          ";
  if (p.mapKey !== undefined) {
    f.print(`        case ${tagOf(p.number, WIRE.len)}: {`);
    f.print(code`${indent}const sub = ${c.rt("pbReadEnd")}(r);`);
    f.print(code`${indent}if (!${c.local("readEntry", plan.record.id, p.prop)}(r, sub, depth + 1, ${t.list.replace("[]", "{}")})) {`);
    f.print(`${indent}  (unknown ??= []).push(r.buf.subarray(start, r.pos));`);
    f.print(`${indent}}`);
    f.print(`${indent}break;`);
    f.print("        }");
    return;
  }
  const closedEnum = v.kind === "enum" && v.type.closed !== false;
  const bulk = p.repeated && v.kind === "scalar" ? PACKED_READERS[v.scalar] : undefined;
  if (bulk !== undefined && p.extension === undefined) {
    // Packed and unpacked encodings are both accepted, whatever the declaration says; a packed run in one call.
    f.print(`        case ${tagOf(p.number, WIRE.len)}:`);
    f.print(code`${indent}${member("m", p.prop)} = ${c.rt(bulk)}(r, ${c.rt("pbReadEnd")}(r), ${member("m", p.prop)});`);
    f.print(`${indent}break;`);
  } else if (p.repeated && isPackable(c, v)) {
    // Packed and unpacked encodings are both accepted, whatever the declaration says.
    f.print(`        case ${tagOf(p.number, WIRE.len)}: {`);
    f.print(code`${indent}const sub = ${c.rt("pbReadEnd")}(r);`);
    f.print(`${indent}const list = ${t.list};`);
    if (closedEnum && v.kind === "enum") {
      f.print(`${indent}while (r.pos < sub) {`);
      f.print(code`${indent}  const n = ${c.rt("pbReadInt32")}(r);`);
      f.print(`${indent}  const value = ${c.local("nameOf", v.type.id)}(n);`);
      f.print(code`${indent}  if (value === undefined) (unknown ??= []).push(${c.rt("pbVarintField")}(${p.number}, n));`);
      f.print(`${indent}  else list.push(value);`);
      f.print(`${indent}}`);
      f.print(code`${indent}if (r.pos !== sub) ${c.rt("pbOverrun")}(r, sub);`);
    } else {
      f.print(code`${indent}while (r.pos < sub) list.push(${readOne(c, plan, p)});`);
      f.print(code`${indent}if (r.pos !== sub) ${c.rt("pbOverrun")}(r, sub);`);
    }
    f.print(`${indent}break;`);
    f.print("        }");
  }
  const wire = wireTypeOf(c, v);
  f.print(`        case ${tagOf(p.number, wire)}:`);
  if (closedEnum && v.kind === "enum") {
    f.print(`${indent}{`);
    f.print(code`${indent}  const value = ${c.local("nameOf", v.type.id)}(${c.rt("pbReadInt32")}(r));`);
    f.print(`${indent}  if (value === undefined) (unknown ??= []).push(r.buf.subarray(start, r.pos));`);
    f.print(code`${indent}  else ${p.repeated ? [`${t.list}.push(value);`] : t.set(["value"])}`);
    f.print(`${indent}}`);
  } else if (p.repeated) f.print(code`${indent}${t.list}.push(${readOne(c, plan, p)});`);
  else f.print(code`${indent}${t.set(readOne(c, plan, p, t.current))}`);
  f.print(`${indent}break;`);
}

/** An expression reading one value of a (non-map) field; messages and groups merge into `current` if given. */
function readOne(c: CodecContext, plan: MessagePlan, p: FieldPlan, current = "undefined"): Printable[] {
  const v = p.value;
  switch (v.kind) {
    case "scalar":
      return readScalar(c, v.scalar, p.strictUtf8);
    case "enum":
      return code`${c.local("nameOf", v.type.id)}(${c.rt("pbReadInt32")}(r))`;
    case "message":
      if (isDateValue(c, v)) return code`${c.rt("pbReadDate")}(r, ${c.rt("pbReadEnd")}(r), depth + 1, ${current})`;
      return code`${c.local("read", v.type.id)}(r, ${c.rt("pbReadEnd")}(r), depth + 1, ${current}${groupArg(c, v.type.id, -1)})`;
    case "group":
      return code`${c.local("read", v.type.id)}(r, r.len, depth + 1, ${current}, ${tagOf(p.number, WIRE.endGroup)})`;
  }
}

function groupArg(c: CodecContext, id: string, endTag: number): string {
  return c.model.groupTypes.has(id) ? `, ${endTag}` : "";
}

/** Map entries are small messages (key = 1, value = 2); absent key or value means its zero value. */
function emitMapEntryReader(c: CodecContext, plan: MessagePlan, p: FieldPlan): void {
  const { f } = c;
  const key = p.mapKey!;
  const v = p.value;
  const mapType = code`NonNullable<${c.type(plan.record.id)}[${stringLiteral(p.prop)}]>`;
  f.print(code`/** One entry of {@link ${c.type(plan.record.id)}}.${p.prop}; false when its value is a closed-enum number the schema does not list. */`);
  f.print(code`function ${c.local("readEntry", plan.record.id, p.prop)}(r: ${c.rt("PbReader")}, end: number, depth: number, map: ${mapType}): boolean {`);
  const keyWire = scalarWire(key, c.emit.int64, p.strictUtf8);
  const numberKey = !keyWire.is64 && key !== "boolean" && key !== "string";
  const keyRead: Printable[] =
    key === "boolean" ? code`(${c.rt("pbReadBool")}(r) ? "true" : "false")`
    : keyWire.is64 ? code`${c.rt(keyWire.read.replace(/(String|Number)?$/, "String"))}(r)`
    : readScalar(c, key, p.strictUtf8);
  const keyZero = key === "boolean" ? '"false"' : keyWire.is64 ? '"0"' : key === "string" ? '""' : "0";
  f.print(`  let key = ${keyZero};`);
  const isMessage = v.kind === "message" || v.kind === "group";
  const isDate = isDateValue(c, v);
  if (isDate) f.print("  let value: Date | undefined;");
  else if (isMessage) f.print(code`  let value: ${c.type(v.type.id)} | undefined;`);
  else f.print(code`  let value: ${mapType}[${numberKey ? "number" : "string"}] = ${zeroLiteral(c, v)};`);
  f.print("  let known = true;");
  f.print("  while (r.pos < end) {");
  f.print(code`    const tag = ${c.rt("pbReadTag")}(r);`);
  f.print("    switch (tag) {");
  f.print(`      case ${tagOf(1, keyWire.wireType)}:`);
  f.print(code`        key = ${keyRead};`);
  f.print("        break;");
  f.print(`      case ${tagOf(2, wireTypeOf(c, v))}:`);
  if (v.kind === "enum" && v.type.closed !== false) {
    f.print("        {");
    f.print(code`          const n = ${c.local("nameOf", v.type.id)}(${c.rt("pbReadInt32")}(r));`);
    f.print("          if (n === undefined) known = false;");
    f.print("          else value = n;");
    f.print("        }");
  } else if (isDate) {
    f.print(code`        value = ${c.rt("pbReadDate")}(r, ${c.rt("pbReadEnd")}(r), depth + 1, value);`);
  } else if (v.kind === "message") {
    f.print(code`        value = ${c.local("read", v.type.id)}(r, ${c.rt("pbReadEnd")}(r), depth + 1, value${groupArg(c, v.type.id, -1)});`);
  } else if (v.kind === "enum") f.print(code`        value = ${c.local("nameOf", v.type.id)}(${c.rt("pbReadInt32")}(r));`);
  else if (v.kind === "scalar") f.print(code`        value = ${readScalar(c, v.scalar, p.strictUtf8)};`);
  else throw new Error("internal: a map value cannot be a group");
  f.print("        break;");
  f.print("      default:");
  // Unknown fields of an entry, and a key or value with the wrong wire type, are skipped (as the C++ runtime does).
  f.print(code`        ${c.rt("pbSkipField")}(r, tag, depth);`);
  f.print("    }");
  f.print("  }");
  f.print(code`  if (r.pos > end) ${c.rt("pbOverrun")}(r, end);`);
  f.print("  if (!known) return false;");
  // An absent message value is an empty message: read one from an empty range.
  const stored = isDate ? ["value ?? new Date(0)"] : isMessage ? code`value ?? ${c.local("read", v.type.id)}(r, r.pos, depth + 1, undefined${groupArg(c, v.type.id, -1)})` : ["value"];
  if (key === "string") f.print(code`  ${c.rt("pbMapSet")}(map, key, ${stored});`);
  else f.print(code`  map[key] = ${stored};`);
  f.print("  return true;");
  f.print("}");
  f.print();
}
