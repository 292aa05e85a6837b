/**
 * Wire-format writing primitives. One growable buffer per encode call (reused between calls), written front to
 * back. Length-delimited values reserve one length byte, are written in place, and are shifted right in the rare
 * case their length needs more than one byte (`pbFork` / `pbJoin`), so no size pass over the message is needed.
 */
import { ProtobufEncodeError } from "./errors.js";
import { utf8Write } from "./utf8.js";

export interface PbWriter {
  buf: Uint8Array;
  pos: number;
  view: DataView;
  /** Where the current encode call started writing: large results handed out before it lie below, untouched. */
  start: number;
}

const INITIAL_SIZE = 4096;
/** Buffers up to this size are kept for the next encode call; bigger ones are left to the garbage collector. */
const KEEP_SIZE = 4 * 1024 * 1024;
/** A fresh buffer is made to hold about this many results as large as the last one (see pbFinish). */
const RESULTS_PER_BUFFER = 4;

let spare: PbWriter | undefined;
/** Length of the last result handed out as a view of the writer's buffer. */
let lastLarge = 0;

function newWriter(size: number): PbWriter {
  const buf = new Uint8Array(size);
  return { buf, pos: 0, view: new DataView(buf.buffer), start: 0 };
}

/** A writer for one encode call (the shared one when it is free). */
export function pbWriter(): PbWriter {
  let w = spare;
  spare = undefined;
  if (w === undefined) w = newWriter(INITIAL_SIZE);
  else if (w.start !== 0 && w.buf.length - w.start < lastLarge) {
    // What is left after the results handed out is unlikely to hold the next one: start a buffer of our own rather
    // than grow (and copy) in the middle of the encode. The old buffer stays with the results that are views of it.
    let size = w.buf.length;
    while (size < RESULTS_PER_BUFFER * lastLarge && size < KEEP_SIZE) size *= 2;
    w = newWriter(size);
  }
  w.pos = w.start;
  return w;
}

/**
 * Results up to SLAB_RESULT_MAX bytes are cut from a shared slab, as Node's Buffer.allocUnsafe does with its pool:
 * every new ArrayBuffer bigger than 64 bytes is allocated outside the JS heap, which cost more than encoding a
 * small message (about 550 ns for 79 bytes, against 100 ns for a view into the slab). Such a result is a view:
 * its bytes are its own, but its `.buffer` is shared, so read it through byteOffset/byteLength (everything in
 * the runtime and in web APIs such as Response and fetch does). A slab is retired once full; a kept result keeps
 * its slab (16 KiB) alive.
 */
const SLAB_SIZE = 16 * 1024;
const SLAB_RESULT_MAX = 1024;
let slab: ArrayBuffer | undefined;
let slabPos = SLAB_SIZE;

function fromSlab(src: Uint8Array, start: number, length: number): Uint8Array {
  if (slabPos + length > SLAB_SIZE) {
    slab = new ArrayBuffer(SLAB_SIZE);
    slabPos = 0;
  }
  const out = new Uint8Array(slab!, slabPos, length);
  if (length <= 64) for (let i = 0; i < length; i++) out[i] = src[start + i]!;
  else out.set(src.subarray(start, start + length));
  slabPos += (length + 7) & ~7; // 8-byte aligned, so a DataView or Float64Array over a result stays cheap
  return out;
}

/**
 * Results from SLAB_RESULT_MAX to COPY_MAX bytes are copied out into a buffer of their own and the writer's buffer
 * stays for the next call. Handing such a result out as a view of the writer's buffer (as larger ones are) meant a
 * fresh 512 KiB buffer every four 125 KB vector tiles, and under the bench's rounds (a full GC, then steady
 * encoding) those fresh buffers cost more than the copy: copying out was 9-17% faster on the vector tile and 10%
 * on buf_perf (16 KB), in the same process against the view build. For 800 KB results it was the other way round
 * (7-27% slower: the copy itself, and a fresh allocation that size per call), so those stay views.
 */
const COPY_MAX = 256 * 1024;

/**
 * The bytes written, as a new array; the writer goes back for reuse. Small results are copied into the slab above,
 * mid-sized ones into a buffer of their own (COPY_MAX). A larger result is the part of the writer's buffer this call
 * wrote, handed out as it is: the next call writes after it (8-byte aligned), and once the buffer is full the writer
 * moves to a fresh one sized for a few results like the last (pbWriter), leaving the old buffer to the results
 * that are views of it (no copy of a result that large per call). Like slab results, such a result shares its
 * `.buffer` (with at most RESULTS_PER_BUFFER - 1 others like it): read it through byteOffset/byteLength.
 */
export function pbFinish(w: PbWriter): Uint8Array {
  const start = w.start;
  const end = w.pos;
  const length = end - start;
  if (length <= SLAB_RESULT_MAX) {
    const out = fromSlab(w.buf, start, length);
    spare = w;
    return out;
  }
  if (length <= COPY_MAX) {
    const out = w.buf.slice(start, end);
    if (w.buf.length <= KEEP_SIZE) spare = w;
    return out;
  }
  const out = w.buf.subarray(start, end);
  lastLarge = length;
  w.start = (end + 7) & ~7;
  if (w.buf.length <= KEEP_SIZE) spare = w;
  return out;
}

/**
 * A bigger buffer, the bytes of this call copied to the same offsets (lengths reserved by pbFork are positions in
 * the buffer). Bytes below `start` belong to results already handed out and stay in the old buffer.
 */
function grow(w: PbWriter, need: number): void {
  let size = w.buf.length * 2;
  while (size < w.pos + need) size *= 2;
  const buf = new Uint8Array(size);
  buf.set(w.buf.subarray(w.start, w.pos), w.start);
  w.buf = buf;
  w.view = new DataView(buf.buffer);
}

/** Make room for `n` more bytes. */
export function pbReserve(w: PbWriter, n: number): void {
  if (w.pos + n > w.buf.length) grow(w, n);
}

export function pbWriteVarint32(w: PbWriter, v: number): void {
  if (w.pos + 5 > w.buf.length) grow(w, 5);
  const buf = w.buf;
  let pos = w.pos;
  v >>>= 0;
  while (v > 0x7f) {
    buf[pos++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  buf[pos++] = v;
  w.pos = pos;
}

/** A tag (or any uint32 known to fit). Most tags are one byte. */
export function pbWriteTag(w: PbWriter, tag: number): void {
  if (tag < 0x80) {
    if (w.pos >= w.buf.length) grow(w, 1);
    w.buf[w.pos++] = tag;
  } else pbWriteVarint32(w, tag);
}

export function pbWriteUint32(w: PbWriter, v: number): void {
  pbWriteVarint32(w, v);
}

/** int32 (and enum numbers): negative values are sign-extended to 64 bits, ten bytes on the wire. */
export function pbWriteInt32(w: PbWriter, v: number): void {
  v |= 0;
  if (v >= 0) pbWriteVarint32(w, v);
  else writeVarint64(w, v, -1);
}

export function pbWriteSint32(w: PbWriter, v: number): void {
  v |= 0;
  pbWriteVarint32(w, (v << 1) ^ (v >> 31));
}

export function pbWriteBool(w: PbWriter, v: boolean): void {
  if (w.pos >= w.buf.length) grow(w, 1);
  w.buf[w.pos++] = v ? 1 : 0;
}

export function pbWriteFixed32(w: PbWriter, v: number): void {
  if (w.pos + 4 > w.buf.length) grow(w, 4);
  const buf = w.buf;
  const pos = w.pos;
  buf[pos] = v;
  buf[pos + 1] = v >>> 8;
  buf[pos + 2] = v >>> 16;
  buf[pos + 3] = v >>> 24;
  w.pos = pos + 4;
}

export function pbWriteSfixed32(w: PbWriter, v: number): void {
  pbWriteFixed32(w, v);
}

export function pbWriteFloat(w: PbWriter, v: number): void {
  if (w.pos + 4 > w.buf.length) grow(w, 4);
  w.view.setFloat32(w.pos, v, true);
  w.pos += 4;
}

export function pbWriteDouble(w: PbWriter, v: number): void {
  if (w.pos + 8 > w.buf.length) grow(w, 8);
  w.view.setFloat64(w.pos, v, true);
  w.pos += 8;
}

/** A string with its length prefix. */
export function pbWriteString(w: PbWriter, s: string): void {
  const n = s.length;
  // At most 3 UTF-8 bytes per UTF-16 unit, plus the prefix.
  if (w.pos + 3 * n + 5 > w.buf.length) grow(w, 3 * n + 5);
  const buf = w.buf;
  const start = w.pos;
  if (n < 43) {
    // 3 * 42 < 128: the prefix is one byte whatever the content. Short ASCII strings are copied right here.
    let pos = start + 1;
    if (n < 28) {
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        buf[pos++] = c;
      }
      if (i < n) pos = utf8Write(s, buf, start + 1);
    } else pos = utf8Write(s, buf, start + 1);
    buf[start] = pos - start - 1;
    w.pos = pos;
    return;
  }
  // Reserve the prefix for the longest possible encoding, write, then close the gap if the prefix is shorter.
  const room = varintSize(3 * n);
  const end = utf8Write(s, buf, start + room);
  const len = end - start - room;
  const size = varintSize(len);
  if (size !== room) buf.copyWithin(start + size, start + room, end);
  w.pos = start;
  writeVarintNoGrow(w, len);
  w.pos = start + size + len;
}

export function pbWriteBytes(w: PbWriter, b: Uint8Array): void {
  pbWriteVarint32(w, b.length);
  pbWriteRaw(w, b);
}

/** Bytes as they are (unknown fields). */
export function pbWriteRaw(w: PbWriter, b: Uint8Array): void {
  if (w.pos + b.length > w.buf.length) grow(w, b.length);
  w.buf.set(b, w.pos);
  w.pos += b.length;
}

/** Start a length-delimited value: reserve one byte for its length and return where it starts. */
export function pbFork(w: PbWriter): number {
  if (w.pos >= w.buf.length) grow(w, 1);
  return w.pos++;
}

/**
 * A one-byte tag and the start of its length-delimited value (pbWriteTag then pbFork, with one capacity check):
 * every nested message of a field numbered up to 15 starts this way.
 */
export function pbForkTag(w: PbWriter, tag: number): number {
  let pos = w.pos;
  if (pos + 2 > w.buf.length) grow(w, 2);
  w.buf[pos++] = tag;
  w.pos = pos + 1;
  return pos;
}

/** End the value started at `at`: write its length, moving the value right when the length needs more bytes. */
export function pbJoin(w: PbWriter, at: number): void {
  const len = w.pos - at - 1;
  if (len < 0x80) {
    w.buf[at] = len;
    return;
  }
  const size = varintSize(len);
  if (w.pos + size > w.buf.length) grow(w, size);
  w.buf.copyWithin(at + size, at + 1, w.pos);
  const end = w.pos + size - 1;
  w.pos = at;
  writeVarintNoGrow(w, len);
  w.pos = end;
}

function varintSize(v: number): number {
  return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5;
}

function writeVarintNoGrow(w: PbWriter, v: number): void {
  const buf = w.buf;
  let pos = w.pos;
  while (v > 0x7f) {
    buf[pos++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  buf[pos++] = v;
  w.pos = pos;
}

// ---- 64-bit -----------------------------------------------------------------------------------------------------
// Values arrive as bigint, decimal string or number (whichever int64 mode the code was generated for); they are split
// into two 32-bit halves here.

let bitsLo = 0;
let bitsHi = 0;
const TWO_32 = 4294967296;

/**
 * A bigint goes through a 64-bit typed array: the store wraps it to 64 bits (as BigInt.asUintN(64) would) and the
 * two halves are read back as uint32s. That is about three times faster than Number(v) and splitting the double
 * (which also needed a bigint path above 2^53), and it is the same for every value, small or large.
 */
const scratch64 = /* @__PURE__ */ new BigUint64Array(1);
const scratch32 = /* @__PURE__ */ new Uint32Array(scratch64.buffer);
const LITTLE_ENDIAN = /* @__PURE__ */ (() => new Uint8Array(new Uint16Array([1]).buffer)[0] === 1)();
const LO = LITTLE_ENDIAN ? 0 : 1;
const HI = 1 - LO;

function split(v: bigint | string | number): void {
  if (typeof v === "bigint") return splitBig(v);
  let n: number;
  if (typeof v === "number") n = Math.trunc(v);
  else {
    n = /^-?\d{1,15}$/.test(v) ? Number(v) : NaN;
    if (Number.isNaN(n)) return splitBig(parseBig(v));
  }
  if (Number.isSafeInteger(n)) {
    bitsLo = n >>> 0;
    bitsHi = Math.floor(n / TWO_32) >>> 0;
  } else if (Number.isFinite(n)) splitBig(BigInt(n));
  else throw new ProtobufEncodeError(`${String(v)} is not a 64-bit integer`);
}

function parseBig(v: string): bigint {
  try {
    return BigInt(v);
  } catch {
    throw new ProtobufEncodeError(`"${v}" is not a 64-bit integer`);
  }
}

function splitBig(v: bigint): void {
  scratch64[0] = v;
  bitsLo = scratch32[LO]!;
  bitsHi = scratch32[HI]!;
}

function writeVarint64(w: PbWriter, lo: number, hi: number): void {
  if (w.pos + 10 > w.buf.length) grow(w, 10);
  const buf = w.buf;
  let pos = w.pos;
  lo >>>= 0;
  hi >>>= 0;
  if (hi === 0) {
    while (lo > 0x7f) {
      buf[pos++] = (lo & 0x7f) | 0x80;
      lo >>>= 7;
    }
    buf[pos++] = lo;
    w.pos = pos;
    return;
  }
  // At least 2^32: the four bytes of the low 28 bits all continue (a byte store keeps the low 8 bits), the fifth
  // takes the low half's top 4 bits and 3 bits of the high half, and the rest of the high half follows.
  buf[pos] = lo | 0x80;
  buf[pos + 1] = (lo >>> 7) | 0x80;
  buf[pos + 2] = (lo >>> 14) | 0x80;
  buf[pos + 3] = (lo >>> 21) | 0x80;
  pos += 4;
  let v = (lo >>> 28) | ((hi & 0x7) << 4);
  hi >>>= 3;
  while (hi !== 0) {
    buf[pos++] = v | 0x80;
    v = hi & 0x7f;
    hi >>>= 7;
  }
  buf[pos++] = v;
  w.pos = pos;
}

function writeFixed64(w: PbWriter): void {
  pbWriteFixed32(w, bitsLo);
  pbWriteFixed32(w, bitsHi);
}

// Each writer takes the bigint path first, reading the halves into locals: storing them in the module's bitsLo/bitsHi
// boxed every half at or above 2^31 as a heap number (a context slot holds no raw uint32), which was most of the cost
// of a uint64 id. Decimal strings and numbers (the other int64 modes) go through split().

export function pbWriteInt64(w: PbWriter, v: bigint | string | number): void {
  if (typeof v === "bigint") {
    scratch64[0] = v;
    writeVarint64(w, scratch32[LO]!, scratch32[HI]!);
    return;
  }
  split(v);
  writeVarint64(w, bitsLo, bitsHi);
}
export function pbWriteUint64(w: PbWriter, v: bigint | string | number): void {
  if (typeof v === "bigint") {
    scratch64[0] = v;
    writeVarint64(w, scratch32[LO]!, scratch32[HI]!);
    return;
  }
  split(v);
  writeVarint64(w, bitsLo, bitsHi);
}
export function pbWriteSint64(w: PbWriter, v: bigint | string | number): void {
  let lo: number;
  let hi: number;
  if (typeof v === "bigint") {
    scratch64[0] = v;
    lo = scratch32[LO]!;
    hi = scratch32[HI]!;
  } else {
    split(v);
    lo = bitsLo;
    hi = bitsHi;
  }
  const sign = hi >> 31;
  writeVarint64(w, (lo << 1) ^ sign, ((hi << 1) | (lo >>> 31)) ^ sign);
}
export function pbWriteFixed64(w: PbWriter, v: bigint | string | number): void {
  if (typeof v === "bigint") {
    scratch64[0] = v;
    pbWriteFixed32(w, scratch32[LO]!);
    pbWriteFixed32(w, scratch32[HI]!);
    return;
  }
  split(v);
  writeFixed64(w);
}
export function pbWriteSfixed64(w: PbWriter, v: bigint | string | number): void {
  pbWriteFixed64(w, v);
}

/** Whether a 64-bit value in any mode is zero (proto3 implicit-presence fields are not written then). */
export function pbIsZero64(v: bigint | string | number): boolean {
  if (typeof v === "string") {
    split(v);
    return (bitsLo | bitsHi) === 0;
  }
  return v == 0;
}
