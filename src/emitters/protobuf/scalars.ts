/**
 * How each proto scalar travels on the wire and which runtime primitive reads or writes it.
 */
import type { ScalarKind } from "../../ir/model.js";
import type { Int64Mode } from "../types/context.js";

export const WIRE = { varint: 0, fixed64: 1, len: 2, startGroup: 3, endGroup: 4, fixed32: 5 } as const;

export interface ScalarWire {
  readonly wireType: number;
  /** Runtime reader name for this scalar in the given int64 mode. */
  readonly read: string;
  readonly write: string;
  /** Varint and fixed-width scalars may be packed; strings and bytes may not. */
  readonly packable: boolean;
  /** Bytes per value when fixed-width (for packed runs). */
  readonly fixedSize?: number;
  readonly is64: boolean;
}

const TABLE: Readonly<Partial<Record<ScalarKind, { wire: number; name: string; fixed?: number }>>> = {
  int32: { wire: WIRE.varint, name: "Int32" },
  uint32: { wire: WIRE.varint, name: "Uint32" },
  sint32: { wire: WIRE.varint, name: "Sint32" },
  fixed32: { wire: WIRE.fixed32, name: "Fixed32", fixed: 4 },
  sfixed32: { wire: WIRE.fixed32, name: "Sfixed32", fixed: 4 },
  float: { wire: WIRE.fixed32, name: "Float", fixed: 4 },
  double: { wire: WIRE.fixed64, name: "Double", fixed: 8 },
  boolean: { wire: WIRE.varint, name: "Bool" },
  int64: { wire: WIRE.varint, name: "Int64" },
  uint64: { wire: WIRE.varint, name: "Uint64" },
  sint64: { wire: WIRE.varint, name: "Sint64" },
  fixed64: { wire: WIRE.fixed64, name: "Fixed64", fixed: 8 },
  sfixed64: { wire: WIRE.fixed64, name: "Sfixed64", fixed: 8 },
  string: { wire: WIRE.len, name: "String" },
  bytes: { wire: WIRE.len, name: "Bytes" },
};

export const INT64_SCALARS: ReadonlySet<ScalarKind> = new Set(["int64", "uint64", "sint64", "fixed64", "sfixed64"]);

/** `strictUtf8`: proto3 strings must be valid UTF-8; proto2 strings are read leniently. */
export function scalarWire(scalar: ScalarKind, int64: Int64Mode, strictUtf8: boolean): ScalarWire {
  const t = TABLE[scalar];
  if (!t) throw new Error(`internal: ${scalar} is not a protobuf scalar`);
  const is64 = INT64_SCALARS.has(scalar);
  let read = `pbRead${t.name}`;
  if (is64 && int64 !== "bigint") read += int64 === "string" ? "String" : "Number";
  if (scalar === "string" && strictUtf8) read = "pbReadStringStrict";
  return {
    wireType: t.wire,
    read,
    write: `pbWrite${t.name}`,
    packable: t.wire !== WIRE.len,
    ...(t.fixed !== undefined ? { fixedSize: t.fixed } : {}),
    is64,
  };
}

/** The wire type of a value of this scalar, message or enum when not packed. */
export function tagOf(number: number, wireType: number): number {
  return number * 8 + wireType;
}
