/**
 * Reading and writing one value of a field (not the field's tag or presence): scalar, enum, message or group.
 * Shared by message fields, oneof members, extensions and map entries.
 */
import type { Printable } from "../../codegen/generated-file.js";
import type { ScalarKind } from "../../ir/model.js";
import { code, type CodecContext } from "./code.js";
import { enumZeroLiteral } from "./enums.js";
import type { ValueShape } from "./plan.js";
import { scalarWire, WIRE } from "./scalars.js";
import { isDateRef } from "../types/context.js";

/** Whether a value of this shape is a google.protobuf.Timestamp held as a Date (`dates: "Date"`). */
export function isDateValue(c: CodecContext, v: ValueShape): boolean {
  return v.kind === "message" && isDateRef(v.type.id, c.emit.dates);
}

/** The wire type a value of this shape is written with (not packed). */
export function wireTypeOf(c: CodecContext, v: ValueShape): number {
  switch (v.kind) {
    case "scalar":
      return scalarWire(v.scalar, c.emit.int64, false).wireType;
    case "enum":
      return WIRE.varint;
    case "message":
      return WIRE.len;
    case "group":
      return WIRE.startGroup;
  }
}

export function isPackable(c: CodecContext, v: ValueShape): boolean {
  return v.kind === "enum" || (v.kind === "scalar" && scalarWire(v.scalar, c.emit.int64, false).packable);
}

/** An expression reading one scalar. */
export function readScalar(c: CodecContext, scalar: ScalarKind, strictUtf8: boolean): Printable[] {
  return code`${c.rt(scalarWire(scalar, c.emit.int64, strictUtf8).read)}(r)`;
}

/** A statement writing one scalar or enum value (`expr` is evaluated once). */
export function writeValue(c: CodecContext, v: ValueShape, expr: string): Printable[] {
  switch (v.kind) {
    case "scalar":
      return code`${c.rt(scalarWire(v.scalar, c.emit.int64, false).write)}(w, ${expr});`;
    case "enum":
      return code`${c.rt("pbWriteInt32")}(w, ${c.local("numberOf", v.type.id)}(${expr}));`;
    case "message":
      if (isDateValue(c, v)) return code`{ const at = ${c.rt("pbFork")}(w); ${c.rt("pbWriteDate")}(w, ${expr}); ${c.rt("pbJoin")}(w, at); }`;
      return code`{ const at = ${c.rt("pbFork")}(w); ${c.local("write", v.type.id)}(w, ${expr}); ${c.rt("pbJoin")}(w, at); }`;
    case "group":
      return code`${c.local("write", v.type.id)}(w, ${expr});`;
  }
}

/** The zero value of a scalar, as decoded output shows an absent implicit-presence field. */
export function zeroLiteral(c: CodecContext, v: ValueShape): Printable[] | string {
  if (v.kind === "enum") return enumZeroLiteral(v.type);
  if (v.kind !== "scalar") throw new Error("internal: messages have no zero literal");
  switch (v.scalar) {
    case "boolean":
      return "false";
    case "string":
      return '""';
    case "bytes":
      return code`${c.rt("pbEmptyBytes")}`;
    default:
      if (scalarWire(v.scalar, c.emit.int64, false).is64) return c.emit.int64 === "bigint" ? "0n" : c.emit.int64 === "string" ? '"0"' : "0";
      return "0";
  }
}

/**
 * The condition under which an implicit-presence (proto3) value is written: it differs from its zero value.
 * -0.0 and NaN are written for floating point, as protoc does (it compares bit patterns).
 */
export function nonZeroTest(c: CodecContext, v: ValueShape, expr: string): Printable[] {
  if (v.kind === "enum") return code`${expr} !== undefined && ${c.local("numberOf", v.type.id)}(${expr}) !== 0`;
  if (v.kind !== "scalar") throw new Error("internal: messages have explicit presence");
  switch (v.scalar) {
    case "float":
    case "double":
      return [`${expr} !== undefined && (${expr} !== 0 || 1 / ${expr} < 0)`];
    case "bytes":
      return [`${expr} !== undefined && ${expr}.length !== 0`];
    default:
      if (scalarWire(v.scalar, c.emit.int64, false).is64 && c.emit.int64 === "string") return code`${expr} !== undefined && !${c.rt("pbIsZero64")}(${expr})`;
      // Strings, booleans, 32-bit numbers and bigint: zero values are exactly the falsy ones (bar NaN, not an integer).
      return [`${expr}`];
  }
}
