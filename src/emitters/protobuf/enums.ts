/**
 * Enum helpers of a codec file. Enum values are their names in TypeScript; the wire carries numbers. Closed (proto2)
 * enums map an unlisted number to `undefined` (the field then goes to `$unknown`); open (proto3) enums keep it as a
 * number.
 */
import { stringLiteral } from "../../codegen/escape.js";
import type { EnumType } from "../../ir/model.js";
import { code, type CodecContext } from "./code.js";

export function emitEnumHelpers(c: CodecContext, t: EnumType): void {
  const { f } = c;
  const E = c.type(t.id);
  const open = t.closed === false;
  const fullName = t.id.replace(/^proto:\./, "");
  f.print(code`function ${c.local("nameOf", t.id)}(n: number): ${E}${open ? "" : " | undefined"} {`);
  f.print("  switch (n) {");
  const seen = new Set<number>();
  for (const v of t.values) {
    if (v.number === undefined || seen.has(v.number)) continue;
    seen.add(v.number);
    f.print(`    case ${v.number}:`);
    f.print(`      return ${stringLiteral(v.name)};`);
  }
  f.print("    default:");
  f.print(`      return ${open ? "n" : "undefined"};`);
  f.print("  }");
  f.print("}");
  f.print();
  f.print(code`function ${c.local("numberOf", t.id)}(v: ${E}): number {`);
  f.print("  switch (v) {");
  for (const v of t.values) {
    if (v.number === undefined) continue;
    f.print(`    case ${stringLiteral(v.name)}:`);
    f.print(`      return ${v.number};`);
  }
  f.print("    default:");
  const fail = code`${c.rt("pbUnknownEnumName")}(${stringLiteral(fullName)}, v)`;
  if (open) f.print(code`      return typeof v === "number" ? v : ${fail};`);
  else f.print(code`      return ${fail};`);
  f.print("  }");
  f.print("}");
  f.print();
}

/** The TypeScript literal of an enum's zero value: the first value numbered 0, else the first value. */
export function enumZeroLiteral(t: EnumType): string {
  const zero = t.values.find((v) => v.number === 0) ?? t.values[0];
  return zero ? stringLiteral(zero.name) : "0";
}
