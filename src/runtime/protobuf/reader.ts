/**
 * Wire-format reading primitives over a Uint8Array. Generated readers keep one `PbReader` per decode call and pass
 * message ends as plain numbers, so nested messages cost no allocation. Every primitive checks bounds against the
 * whole buffer; generated code checks that a field did not run past the end of its enclosing message.
 */
import { ProtobufDecodeError, pbFail } from "./errors.js";
import { utf8Decode } from "./utf8.js";

export interface ProtobufDecodeOptions {
  /** How deeply messages and groups may nest before decoding fails (default 100, like protoc). */
  readonly maxDepth?: number;
}

export interface PbReader {
  readonly buf: Uint8Array;
  pos: number;
  readonly len: number;
  readonly maxDepth: number;
  /** Created on the first fixed-width float read. */
  view: DataView | undefined;
}

export const PB_DEFAULT_MAX_DEPTH = 100;

/** The zero value of proto3 bytes fields: one shared empty array (it has no contents to change). */
export const pbEmptyBytes: Uint8Array = /* @__PURE__ */ new Uint8Array(0);

export function pbReader(buf: Uint8Array, options?: ProtobufDecodeOptions): PbReader {
  return { buf, pos: 0, len: buf.length, maxDepth: options?.maxDepth ?? PB_DEFAULT_MAX_DEPTH, view: undefined };
}

function truncated(r: PbReader, what: string): never {
  return pbFail(`truncated ${what}`, r.pos);
}

/** The low 32 bits of a varint of up to 10 bytes, as an unsigned number. */
export function pbReadVarint32(r: PbReader): number {
  const buf = r.buf;
  let pos = r.pos;
  if (pos + 10 > r.len) return readVarint32Checked(r);
  let b = buf[pos++]!;
  let v = b & 0x7f;
  if (b < 0x80) {
    r.pos = pos;
    return v;
  }
  b = buf[pos++]!;
  v |= (b & 0x7f) << 7;
  if (b < 0x80) {
    r.pos = pos;
    return v;
  }
  b = buf[pos++]!;
  v |= (b & 0x7f) << 14;
  if (b < 0x80) {
    r.pos = pos;
    return v;
  }
  b = buf[pos++]!;
  v |= (b & 0x7f) << 21;
  if (b < 0x80) {
    r.pos = pos;
    return v;
  }
  b = buf[pos++]!;
  v |= b << 28;
  // Bytes 6 to 10 only carry bits above 32 (the sign extension of negative int32s): skip them.
  for (let i = 5; b >= 0x80; i++) {
    if (i === 10) pbFail("varint longer than 10 bytes", r.pos);
    b = buf[pos++]!;
  }
  r.pos = pos;
  return v >>> 0;
}

function readVarint32Checked(r: PbReader): number {
  const buf = r.buf;
  let v = 0;
  for (let i = 0; ; i++) {
    if (i === 10) pbFail("varint longer than 10 bytes", r.pos);
    if (r.pos >= r.len) truncated(r, "varint");
    const b = buf[r.pos++]!;
    if (i < 5) v |= (b & 0x7f) << (7 * i);
    if (b < 0x80) return v >>> 0;
  }
}

/** A field tag. A fault here belongs to the message being read, not to the field read before it. */
export function pbReadTag(r: PbReader): number {
  const buf = r.buf;
  const pos = r.pos;
  const b = buf[pos]!;
  if (b < 0x80 && pos < r.len) {
    r.pos = pos + 1;
    return b;
  }
  try {
    return pbReadVarint32(r);
  } catch (e) {
    if (e instanceof ProtobufDecodeError) e.detached = true;
    throw e;
  }
}

export function pbReadInt32(r: PbReader): number {
  return pbReadVarint32(r) | 0;
}

export function pbReadUint32(r: PbReader): number {
  return pbReadVarint32(r);
}

export function pbReadSint32(r: PbReader): number {
  const v = pbReadVarint32(r);
  return (v >>> 1) ^ -(v & 1);
}

export function pbReadBool(r: PbReader): boolean {
  const pos = r.pos;
  const b = r.buf[pos]!;
  if (b < 0x80 && pos < r.len) {
    r.pos = pos + 1;
    return b !== 0;
  }
  readVarint64(r);
  return (half[LO]! | half[HI]!) !== 0;
}

export function pbReadFixed32(r: PbReader): number {
  const pos = r.pos;
  if (pos + 4 > r.len) truncated(r, "fixed32");
  const buf = r.buf;
  r.pos = pos + 4;
  return (buf[pos]! | (buf[pos + 1]! << 8) | (buf[pos + 2]! << 16) | (buf[pos + 3]! << 24)) >>> 0;
}

export function pbReadSfixed32(r: PbReader): number {
  return pbReadFixed32(r) | 0;
}

// Floats go through one shared 8-byte scratch area (no DataView per decode call); big-endian hosts use a DataView.
const scratch = /* @__PURE__ */ new Uint8Array(8);
const scratchF32 = /* @__PURE__ */ new Float32Array(scratch.buffer, 0, 1);
const scratchF64 = /* @__PURE__ */ new Float64Array(scratch.buffer);
const LITTLE_ENDIAN = /* @__PURE__ */ (() => new Uint8Array(new Uint16Array([1]).buffer)[0] === 1)();

function viewOf(r: PbReader): DataView {
  return (r.view ??= new DataView(r.buf.buffer, r.buf.byteOffset, r.buf.byteLength));
}

export function pbReadFloat(r: PbReader): number {
  const pos = r.pos;
  if (pos + 4 > r.len) truncated(r, "float");
  r.pos = pos + 4;
  if (!LITTLE_ENDIAN) return viewOf(r).getFloat32(pos, true);
  const buf = r.buf;
  scratch[0] = buf[pos]!;
  scratch[1] = buf[pos + 1]!;
  scratch[2] = buf[pos + 2]!;
  scratch[3] = buf[pos + 3]!;
  return scratchF32[0]!;
}

export function pbReadDouble(r: PbReader): number {
  const pos = r.pos;
  if (pos + 8 > r.len) truncated(r, "double");
  r.pos = pos + 8;
  if (!LITTLE_ENDIAN) return viewOf(r).getFloat64(pos, true);
  const buf = r.buf;
  for (let i = 0; i < 8; i++) scratch[i] = buf[pos + i]!;
  return scratchF64[0]!;
}

/** A length prefix, checked against the rest of the buffer; returns where the delimited data ends. */
export function pbReadEnd(r: PbReader): number {
  const start = r.pos;
  const len = pbReadVarint32(r);
  // pbReadVarint32 keeps the low 32 bits only: a length with higher bits (2^63 would read as 0) is refused here
  // rather than silently wrapped. Lengths up to 2^32 - 1 fail below, as running past the end.
  if (r.pos - start > 5 || (r.pos - start === 5 && r.buf[start + 4]! > 0x0f)) pbFail("length is 2^32 or more", start);
  const end = r.pos + len;
  if (end > r.len) pbFail(`length ${len} runs past the end of the input`, r.pos);
  return end;
}

export function pbReadBytes(r: PbReader): Uint8Array {
  const end = pbReadEnd(r);
  const start = r.pos;
  r.pos = end;
  // A view into the input, not a copy (as protobufjs and protobuf-es do): copying each bytes field costs an
  // allocation per field. Callers that reuse their input buffer must copy what they keep.
  return r.buf.subarray(start, end);
}

/** A proto2 string: invalid UTF-8 becomes U+FFFD, as protoc's parsers do for proto2. */
export function pbReadString(r: PbReader): string {
  const end = pbReadEnd(r);
  const start = r.pos;
  r.pos = end;
  return utf8Decode(r.buf, start, end, false);
}

/** A proto3 string: invalid UTF-8 is an error. */
export function pbReadStringStrict(r: PbReader): string {
  const end = pbReadEnd(r);
  const start = r.pos;
  const s = utf8Decode(r.buf, start, end, true);
  if (s === undefined) pbFail("invalid UTF-8 in a string field", start);
  r.pos = end;
  return s;
}

// ---- 64-bit -----------------------------------------------------------------------------------------------------
// Readers put the two 32-bit halves in a typed array (no allocation); the converters below turn them into
// bigint/string/number. Module variables held them before: a context slot holds no raw int32, so every half
// outside the 31-bit small-integer range (most uint64 ids) was boxed as a heap number, twice per value.

const TWO_32 = 4294967296;

/**
 * The halves share their bytes with a 64-bit element, so a value outside the small range becomes a bigint with one
 * typed-array read, about four times faster than BigInt(number) (and with no second path above 2^53). The values
 * that fit in 30 bits (most of them) take BigInt of a small integer, which is cheaper still.
 */
const big64 = /* @__PURE__ */ new BigInt64Array(1);
const bigU64 = /* @__PURE__ */ new BigUint64Array(big64.buffer);
const half = /* @__PURE__ */ new Int32Array(big64.buffer);
const LO = LITTLE_ENDIAN ? 0 : 1;
const HI = 1 - LO;

function readVarint64(r: PbReader): void {
  const buf = r.buf;
  let pos = r.pos;
  if (pos + 10 > r.len) return readVarint64Checked(r);
  // Unrolled up to the fifth byte, where the low half is complete; bytes 6 to 10 carry the high half.
  let b = buf[pos++]!;
  let lo = b & 0x7f;
  let hi = 0;
  if (b >= 0x80) {
    b = buf[pos++]!;
    lo |= (b & 0x7f) << 7;
    if (b >= 0x80) {
      b = buf[pos++]!;
      lo |= (b & 0x7f) << 14;
      if (b >= 0x80) {
        b = buf[pos++]!;
        lo |= (b & 0x7f) << 21;
        if (b >= 0x80) {
          b = buf[pos++]!;
          lo |= b << 28;
          hi = (b & 0x7f) >>> 4;
          for (let shift = 3; b >= 0x80; shift += 7) {
            if (shift > 31) pbFail("varint longer than 10 bytes", pos);
            b = buf[pos++]!;
            hi |= (b & 0x7f) << shift;
          }
        }
      }
    }
  }
  r.pos = pos;
  half[LO] = lo;
  half[HI] = hi;
}

/** readVarint64 within ten bytes of the end of the input, checking every byte. */
function readVarint64Checked(r: PbReader): void {
  const buf = r.buf;
  let lo = 0;
  let hi = 0;
  let b = 0;
  let pos = r.pos;
  for (let i = 0; ; i++) {
    if (i === 10) pbFail("varint longer than 10 bytes", pos);
    if (pos >= r.len) {
      r.pos = pos;
      truncated(r, "varint");
    }
    b = buf[pos++]!;
    if (i < 4) lo |= (b & 0x7f) << (7 * i);
    else if (i === 4) {
      lo |= (b & 0x7f) << 28;
      hi = (b & 0x7f) >>> 4;
    } else hi |= (b & 0x7f) << (7 * i - 32);
    if (b < 0x80) break;
  }
  r.pos = pos;
  half[LO] = lo;
  half[HI] = hi;
}

function readFixed64(r: PbReader): void {
  const pos = r.pos;
  if (pos + 8 > r.len) truncated(r, "fixed64");
  const buf = r.buf;
  r.pos = pos + 8;
  half[LO] = buf[pos]! | (buf[pos + 1]! << 8) | (buf[pos + 2]! << 16) | (buf[pos + 3]! << 24);
  half[HI] = buf[pos + 4]! | (buf[pos + 5]! << 8) | (buf[pos + 6]! << 16) | (buf[pos + 7]! << 24);
}

function unzigzag64(): void {
  const lo = half[LO]!;
  const hi = half[HI]!;
  const mask = -(lo & 1);
  half[LO] = ((lo >>> 1) | (hi << 31)) ^ mask;
  half[HI] = (hi >>> 1) ^ mask;
}

function signedBigint(): bigint {
  const lo = half[LO]!;
  if (half[HI] === 0 && lo >= 0 && lo < 0x40000000) return BigInt(lo);
  return big64[0]!;
}

function unsignedBigint(): bigint {
  const lo = half[LO]!;
  if (half[HI] === 0 && lo >= 0 && lo < 0x40000000) return BigInt(lo);
  return bigU64[0]!;
}

function signedString(): string {
  const hi = half[HI]!;
  if (hi >= -0x200000 && hi < 0x200000) return String(hi * TWO_32 + (half[LO]! >>> 0));
  return big64[0]!.toString();
}

function unsignedString(): string {
  const hi = half[HI]! >>> 0;
  if (hi < 0x200000) return String(hi * TWO_32 + (half[LO]! >>> 0));
  return bigU64[0]!.toString();
}

export function pbReadInt64(r: PbReader): bigint {
  readVarint64(r);
  return signedBigint();
}
export function pbReadUint64(r: PbReader): bigint {
  readVarint64(r);
  return unsignedBigint();
}
export function pbReadSint64(r: PbReader): bigint {
  readVarint64(r);
  unzigzag64();
  return signedBigint();
}
export function pbReadFixed64(r: PbReader): bigint {
  readFixed64(r);
  return unsignedBigint();
}
export function pbReadSfixed64(r: PbReader): bigint {
  readFixed64(r);
  return signedBigint();
}

export function pbReadInt64String(r: PbReader): string {
  readVarint64(r);
  return signedString();
}
export function pbReadUint64String(r: PbReader): string {
  readVarint64(r);
  return unsignedString();
}
export function pbReadSint64String(r: PbReader): string {
  readVarint64(r);
  unzigzag64();
  return signedString();
}
export function pbReadFixed64String(r: PbReader): string {
  readFixed64(r);
  return unsignedString();
}
export function pbReadSfixed64String(r: PbReader): string {
  readFixed64(r);
  return signedString();
}

/** 64-bit values as numbers lose precision above 2^53 (the "number" int64 mode accepts that). */
export function pbReadInt64Number(r: PbReader): number {
  readVarint64(r);
  return half[HI]! * TWO_32 + (half[LO]! >>> 0);
}
export function pbReadUint64Number(r: PbReader): number {
  readVarint64(r);
  return (half[HI]! >>> 0) * TWO_32 + (half[LO]! >>> 0);
}
export function pbReadSint64Number(r: PbReader): number {
  readVarint64(r);
  unzigzag64();
  return half[HI]! * TWO_32 + (half[LO]! >>> 0);
}
export function pbReadFixed64Number(r: PbReader): number {
  readFixed64(r);
  return (half[HI]! >>> 0) * TWO_32 + (half[LO]! >>> 0);
}
export function pbReadSfixed64Number(r: PbReader): number {
  readFixed64(r);
  return half[HI]! * TWO_32 + (half[LO]! >>> 0);
}
