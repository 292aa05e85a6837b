/**
 * Skipping fields the schema does not know, and keeping their wire bytes so that encode writes them back.
 */
import { pbFail } from "./errors.js";
import { pbReadEnd, pbReadTag, pbReadVarint32, type PbReader } from "./reader.js";

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LEN = 2;
export const WIRE_START_GROUP = 3;
export const WIRE_END_GROUP = 4;
export const WIRE_FIXED32 = 5;

/** Skip the value of a field whose tag was just read. Groups are skipped to their matching end tag. */
export function pbSkipField(r: PbReader, tag: number, depth: number): void {
  if (tag >>> 3 === 0) pbFail("invalid field number 0", r.pos);
  switch (tag & 7) {
    case WIRE_VARINT:
      pbReadVarint32(r);
      return;
    case WIRE_FIXED64:
      return advance(r, 8);
    case WIRE_LEN:
      r.pos = pbReadEnd(r);
      return;
    case WIRE_START_GROUP: {
      if (depth >= r.maxDepth) pbFail(`nesting deeper than ${r.maxDepth}`, r.pos);
      const endTag = (tag & ~7) | WIRE_END_GROUP;
      for (;;) {
        if (r.pos >= r.len) pbFail("unterminated group", r.pos);
        const inner = pbReadTag(r);
        if (inner === endTag) return;
        pbSkipField(r, inner, depth + 1);
      }
    }
    case WIRE_END_GROUP:
      return pbFail("unexpected end-group tag", r.pos);
    case WIRE_FIXED32:
      return advance(r, 4);
    default:
      return pbFail(`invalid wire type ${tag & 7}`, r.pos);
  }
}

function advance(r: PbReader, n: number): void {
  if (r.pos + n > r.len) pbFail("truncated fixed-width value", r.pos);
  r.pos += n;
}

/** A known field arrived with a wire type its declaration does not allow. */
export function pbWrongWireType(r: PbReader, tag: number): never {
  return pbFail(`wrong wire type ${tag & 7} for field ${tag >>> 3}`, r.pos);
}

export function pbTooDeep(r: PbReader): never {
  return pbFail(`nesting deeper than ${r.maxDepth}`, r.pos);
}

/** A field ran past the end of its enclosing message or packed run. */
export function pbOverrun(r: PbReader, end: number): never {
  return pbFail(`field runs ${r.pos - end} bytes past the end of its enclosing message`, end);
}

export function pbUnterminatedGroup(r: PbReader): never {
  return pbFail("unterminated group", r.pos);
}

/**
 * Join the unknown-field chunks of one read (views into the input, or synthesized bytes) after what the message
 * already carried, into one new array.
 */
export function pbJoinUnknown(previous: Uint8Array | undefined, chunks: readonly Uint8Array[]): Uint8Array {
  let size = previous?.length ?? 0;
  for (const c of chunks) size += c.length;
  const out = new Uint8Array(size);
  let at = 0;
  if (previous !== undefined) {
    out.set(previous, 0);
    at = previous.length;
  }
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * The wire bytes of a varint field, for closed-enum values the schema does not list that arrived inside a packed
 * run (protoc keeps them as separate unknown varint fields).
 */
export function pbVarintField(fieldNumber: number, value: number): Uint8Array {
  const bytes: number[] = [];
  let tag = (fieldNumber << 3) >>> 0;
  while (tag > 0x7f) {
    bytes.push((tag & 0x7f) | 0x80);
    tag >>>= 7;
  }
  bytes.push(tag);
  // Negative int32 values are sign-extended to 64 bits on the wire: ten bytes.
  let lo = value >>> 0;
  let hi = value < 0 ? 0xffffffff : 0;
  while (hi !== 0 || lo > 0x7f) {
    bytes.push((lo & 0x7f) | 0x80);
    lo = ((lo >>> 7) | (hi << 25)) >>> 0;
    hi >>>= 7;
  }
  bytes.push(lo);
  return new Uint8Array(bytes);
}

/** Set a key of a string-keyed map object without ever touching its prototype ("__proto__" is a valid key). */
export function pbMapSet<V>(map: { [key: string]: V }, key: string, value: V): void {
  if (key === "__proto__") Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
  else map[key] = value;
}
