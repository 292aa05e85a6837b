/**
 * Writers: one `write<T>` per message, fields in field-number order (extensions interleaved, unknown fields last)
 * as protoc writes them, so that decode -> encode of protoc's output is byte for byte the same.
 */
import { stringLiteral } from "../../codegen/escape.js";
import { code, type CodecContext } from "./code.js";
import { member, type FieldPlan, type MessagePlan } from "./plan.js";
import { scalarWire, tagOf, WIRE } from "./scalars.js";
import { isDateValue, isPackable, nonZeroTest, wireTypeOf, writeValue } from "./values.js";

/** Packed varint runs the runtime writes in one call (one pass, into a length prefix reserved for the longest run). */
const PACKED_WRITERS: Partial<Record<string, string>> = {
  int32: "pbWritePackedInt32",
  uint32: "pbWritePackedUint32",
  sint32: "pbWritePackedSint32",
};

export function emitWriter(c: CodecContext, plan: MessagePlan): void {
  const { f } = c;
  const id = plan.record.id;
  f.print(code`function ${c.local("write", id)}(w: ${c.rt("PbWriter")}, m: ${c.type(id)}): void {`);
  if (plan.extensionsProp !== undefined) f.print(`  const ext = ${member("m", plan.extensionsProp)};`);
  const fields = plan.fields;
  for (let i = 0; i < fields.length; ) {
    const p = fields[i]!;
    if (p.oneof !== undefined) {
      // Consecutive members of one oneof (in number order) share one switch on the case.
      let j = i;
      while (j + 1 < fields.length && fields[j + 1]!.oneof === p.oneof) j++;
      emitOneofRun(c, fields.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    emitField(c, plan, p);
    i++;
  }
  const unknown = member("m", plan.unknownProp);
  f.print(code`  if (${unknown} !== undefined) ${c.rt("pbWriteRaw")}(w, ${unknown});`);
  f.print("}");
  f.print();
}

function emitField(c: CodecContext, plan: MessagePlan, p: FieldPlan): void {
  const { f } = c;
  const expr = p.extension !== undefined ? member("ext?.", p.extension).replace("?..", "?.") : member("m", p.prop);
  if (p.mapKey !== undefined) return emitMap(c, p, expr);
  if (p.repeated) {
    f.print("  {");
    f.print(`    const list = ${expr};`);
    if (p.packed && isPackable(c, p.value)) {
      f.print("    if (list !== undefined && list.length !== 0) {");
      f.print(code`      ${c.rt("pbWriteTag")}(w, ${tagOf(p.number, WIRE.len)});`);
      const fixed = p.value.kind === "scalar" ? scalarWire(p.value.scalar, c.emit.int64, false).fixedSize : undefined;
      const bulk = p.value.kind === "scalar" ? PACKED_WRITERS[p.value.scalar] : undefined;
      if (bulk !== undefined) {
        f.print(code`      ${c.rt(bulk)}(w, list);`);
        f.print("    }");
        f.print("  }");
        return;
      }
      if (fixed !== undefined) f.print(code`      ${c.rt("pbWriteVarint32")}(w, list.length * ${fixed});`);
      else f.print(code`      const at = ${c.rt("pbFork")}(w);`);
      f.print(code`      for (let i = 0; i < list.length; i++) ${writeValue(c, p.value, "list[i]!")}`);
      if (fixed === undefined) f.print(code`      ${c.rt("pbJoin")}(w, at);`);
      f.print("    }");
    } else {
      f.print("    if (list !== undefined) {");
      f.print("      for (let i = 0; i < list.length; i++) {");
      emitTagged(c, p, "list[i]!", "        ");
      f.print("      }");
      f.print("    }");
    }
    f.print("  }");
    return;
  }
  if (p.extension !== undefined) {
    f.print("  {");
    f.print(`    const v = ${expr};`);
    f.print("    if (v !== undefined) {");
    emitTagged(c, p, "v", "      ");
    f.print("    }");
    f.print("  }");
    return;
  }
  if (p.presence === "required") {
    f.print(code`  if (${expr} === undefined) ${c.rt("pbEncodeMissingRequired")}(${stringLiteral(plan.name)}, ${stringLiteral(p.prop)});`);
    emitTagged(c, p, expr, "  ");
    return;
  }
  if (p.presence === "implicit") f.print(code`  if (${nonZeroTest(c, p.value, expr)}) {`);
  else f.print(`  if (${expr} !== undefined) {`);
  emitTagged(c, p, expr, "    ");
  f.print("  }");
}

/** Tag, value, and for groups the end tag. */
function emitTagged(c: CodecContext, p: FieldPlan, expr: string, indent: string): void {
  const { f } = c;
  const wire = wireTypeOf(c, p.value);
  if (p.value.kind === "message" && tagOf(p.number, wire) < 0x80) {
    // One-byte tag and the reserved length byte in one call.
    const write = isDateValue(c, p.value) ? c.rt("pbWriteDate") : c.local("write", p.value.type.id);
    f.print(code`${indent}{ const at = ${c.rt("pbForkTag")}(w, ${tagOf(p.number, wire)}); ${write}(w, ${expr}); ${c.rt("pbJoin")}(w, at); }`);
    return;
  }
  f.print(code`${indent}${c.rt("pbWriteTag")}(w, ${tagOf(p.number, wire)});`);
  f.print(code`${indent}${writeValue(c, p.value, expr)}`);
  if (p.value.kind === "group") f.print(code`${indent}${c.rt("pbWriteTag")}(w, ${tagOf(p.number, WIRE.endGroup)});`);
}

function emitOneofRun(c: CodecContext, members: readonly FieldPlan[]): void {
  const { f } = c;
  f.print("  {");
  f.print(`    const o = ${member("m", members[0]!.oneof!)};`);
  f.print("    if (o !== undefined) {");
  f.print("      switch (o.case) {");
  for (const p of members) {
    f.print(`        case ${stringLiteral(p.prop)}:`);
    emitTagged(c, p, "o.value", "          ");
    f.print("          break;");
  }
  f.print("      }");
  f.print("    }");
  f.print("  }");
}

/** Map entries: key (1) and value (2) are always both written, as protoc does. */
function emitMap(c: CodecContext, p: FieldPlan, expr: string): void {
  const { f } = c;
  const key = p.mapKey!;
  const keyWire = scalarWire(key, c.emit.int64, false);
  const numberKey = !keyWire.is64 && key !== "boolean" && key !== "string";
  const keyValue = numberKey ? "Number(key)" : key === "boolean" ? 'key === "true"' : "key";
  f.print("  {");
  f.print(`    const map = ${expr};`);
  f.print("    if (map !== undefined) {");
  f.print("      for (const key of Object.keys(map)) {");
  f.print(`        const value = map[${numberKey ? "Number(key)" : "key"}]!;`);
  if (tagOf(p.number, WIRE.len) < 0x80) f.print(code`        const at = ${c.rt("pbForkTag")}(w, ${tagOf(p.number, WIRE.len)});`);
  else {
    f.print(code`        ${c.rt("pbWriteTag")}(w, ${tagOf(p.number, WIRE.len)});`);
    f.print(code`        const at = ${c.rt("pbFork")}(w);`);
  }
  f.print(code`        ${c.rt("pbWriteTag")}(w, ${tagOf(1, keyWire.wireType)});`);
  f.print(code`        ${c.rt(keyWire.write)}(w, ${keyValue});`);
  f.print(code`        ${c.rt("pbWriteTag")}(w, ${tagOf(2, wireTypeOf(c, p.value))});`);
  f.print(code`        ${writeValue(c, p.value, "value")}`);
  f.print(code`        ${c.rt("pbJoin")}(w, at);`);
  f.print("      }");
  f.print("    }");
  f.print("  }");
}
