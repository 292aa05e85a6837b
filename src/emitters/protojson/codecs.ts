import type { Printable } from "../../codegen/generated-file.js";
import type { EnumType, ScalarKind, TypeExpr } from "../../ir/model.js";
import { isDateRef, lookupType } from "../types/context.js";
import { literalTs } from "../types/type-expr.js";
import { fnNames, jsonFunction, rt, type ProtoJsonContext } from "./context.js";
import { importPublic, importShared } from "../modules.js";

/**
 * How one proto value type (a scalar, an enum or a message) is written to and read from JSON, as expressions of
 * generated code. `read` gets the JSON value, the parent's pointer and the key/index under it.
 */
export interface ValueCodec {
  write(value: string): Printable;
  read(json: string, path: string, key: string): Printable;
  /** Reads may give undefined: an enum name the enum lacks, with ignoreUnknownFields. */
  readonly mayBeSkipped: boolean;
  /** JSON null is a value of this type (google.protobuf.Value, NullValue) rather than "not set". */
  readonly nullIsValue: boolean;
  /** JSON needs no conversion (numbers, strings, booleans): lists can be copied as they are. */
  readonly identity: boolean;
  /** For implicit-presence fields: the default and a test that a value differs from it. */
  readonly zero?: { readonly literal: Printable; notDefault(value: string): Printable };
}

const INT32: readonly ScalarKind[] = ["int32", "sint32", "sfixed32"];
const UINT32: readonly ScalarKind[] = ["uint32", "fixed32"];
const INT64: readonly ScalarKind[] = ["int64", "sint64", "sfixed64"];
const UINT64: readonly ScalarKind[] = ["uint64", "fixed64"];

export function valueCodec(type: TypeExpr, ctx: ProtoJsonContext): ValueCodec {
  if (type.kind === "scalar") return scalarCodec(type.scalar, ctx);
  if (type.kind !== "ref") throw new Error(`internal: ProtoJSON cannot map a ${type.kind} value`);
  if (isDateRef(type.id, ctx.types.options.dates)) {
    // google.protobuf.Timestamp held as a Date: RFC 3339 text straight from and to the Date.
    return {
      write: (v) => [rt(ctx, "dateToJson"), `(${v})`],
      read: (j, p, k) => [rt(ctx, "dateFromJson"), `(${j}, `, rt(ctx, "pointerJoin"), `(${p}, ${k}))`],
      mayBeSkipped: false,
      nullIsValue: false,
      identity: false,
    };
  }
  const named = lookupType(ctx.types, type.id);
  if (named.kind === "enum") return enumCodec(named, ctx);
  if (named.kind !== "record") throw new Error(`internal: ProtoJSON cannot map ${type.id}`);
  const name = ctx.types.names.type(type.id);
  const pointerJoin = rt(ctx, "pointerJoin");
  // A message of another input file: its module's toJson and (shared) reader.
  const home = ctx.foreign(type.id);
  const toJson: Printable = home ? importPublic(ctx.f, home, "protojson", jsonFunction(ctx, type.id, "toJson")) : jsonFunction(ctx, type.id, "toJson");
  const read = home ? importShared(ctx.f, home, "protojson", ctx.types.names.shared(type.id, "jsonRead")) : fnNames.read(name);
  return {
    write: (v) => [toJson, `(${v}, options)`],
    read: (j, p, k) => [read, `(${j}, options, `, pointerJoin, `(${p}, ${k}))`],
    mayBeSkipped: false,
    nullIsValue: type.id === "proto:.google.protobuf.Value",
    identity: false,
  };
}

function enumCodec(t: EnumType, ctx: ProtoJsonContext): ValueCodec {
  const home = ctx.foreign(t.id);
  const own = fnNames.enumTable(ctx.types.names.type(t.id));
  const table = home ? importShared(ctx.f, home, "protojson", ctx.types.names.shared(t.id, "enumTable")) : own;
  const zero = t.values.find((v) => v.number === 0) ?? t.values[0];
  const zeroLiteral = zero ? literalTs(zero.value) : "0";
  return {
    write: (v) => [rt(ctx, "enumToJson"), `(${v}, ${table}, options)`],
    read: (j, p, k) => [rt(ctx, "enumFromJson"), `(${j}, ${table}, options, ${p}, ${k})`],
    mayBeSkipped: true,
    nullIsValue: t.id === "proto:.google.protobuf.NullValue",
    identity: false,
    zero: { literal: zeroLiteral, notDefault: (v) => `${v} !== ${zeroLiteral}` },
  };
}

function scalarCodec(scalar: ScalarKind, ctx: ProtoJsonContext): ValueCodec {
  const simple = (reader: string, zero: string, writer?: string, notDefault?: (v: string) => string): ValueCodec => ({
    write: (v) => (writer ? [rt(ctx, writer), `(${v})`] : v),
    read: (j, p, k) => [rt(ctx, reader), `(${j}, ${p}, ${k})`],
    mayBeSkipped: false,
    nullIsValue: false,
    identity: writer === undefined,
    zero: { literal: zero, notDefault: notDefault ?? ((v) => `${v} !== ${zero}`) },
  });
  if (INT32.includes(scalar)) return simple("int32FromJson", "0");
  if (UINT32.includes(scalar)) return simple("uint32FromJson", "0");
  if (INT64.includes(scalar) || UINT64.includes(scalar)) return int64Codec(UINT64.includes(scalar) ? "uint64FromJson" : "int64FromJson", ctx);
  switch (scalar) {
    // -0.0 differs from the zero value in its bits, so it is written, as protoc does (binary and text agree).
    case "float":
      return simple("floatFromJson", "0", "floatToJson", negativeZeroToo);
    case "double":
      return simple("doubleFromJson", "0", "doubleToJson", negativeZeroToo);
    case "boolean":
      return simple("boolFromJson", "false", undefined, (v) => v);
    case "string":
      return simple("stringFromJson", '""');
    case "bytes":
      return simple("bytesFromJson", "new Uint8Array(0)", "bytesToJson", (v) => `${v}.length !== 0`);
    default:
      throw new Error(`internal: ${scalar} is not a proto scalar`);
  }
}

const negativeZeroToo = (v: string): string => `(${v} !== 0 || 1 / ${v} < 0)`;

/** 64-bit integers are read as bigint and converted to the TypeScript representation the spec was generated with. */
function int64Codec(reader: string, ctx: ProtoJsonContext): ValueCodec {
  const mode = ctx.types.options.int64;
  const zero = mode === "bigint" ? "0n" : mode === "string" ? '"0"' : "0";
  return {
    write: (v) => [rt(ctx, "int64ToJson"), `(${v})`],
    read: (j, p, k) => {
      const call: Printable = [rt(ctx, reader), `(${j}, ${p}, ${k})`];
      return mode === "bigint" ? call : mode === "string" ? [call, ".toString()"] : ["Number(", call, ")"];
    },
    mayBeSkipped: false,
    nullIsValue: false,
    identity: false,
    zero: { literal: zero, notDefault: (v) => `${v} !== ${zero}` },
  };
}

/** Map keys arrive as JSON object keys (strings); the reader checks and normalises them for the key type. */
export function mapKeyReader(key: TypeExpr, ctx: ProtoJsonContext): Printable | undefined {
  if (key.kind !== "scalar") throw new Error("internal: map keys are scalars");
  const s = key.scalar;
  if (INT32.includes(s)) return rt(ctx, "int32KeyFromJson");
  if (UINT32.includes(s)) return rt(ctx, "uint32KeyFromJson");
  if (INT64.includes(s)) return rt(ctx, "int64KeyFromJson");
  if (UINT64.includes(s)) return rt(ctx, "uint64KeyFromJson");
  if (s === "boolean") return rt(ctx, "boolKeyFromJson");
  // string keys are used as they are
  return undefined;
}
