/**
 * Packed repeated 32-bit varints, read in one call per run: the loop keeps its position in a local and writes it
 * back once, instead of a call per value that loads and stores `r.pos` (a vector tile is mostly such runs, and the
 * per-value calls were also the first thing the inliner dropped from a large generated reader). Values that start
 * at least ten bytes before the end of the input cannot run off it, so they are read with no bounds check; the
 * last few, and any malformed varint, go through pbReadVarint32, so errors and their offsets are the ones a
 * per-value read reports.
 */
import { pbFail } from "./errors.js";
import { pbReadVarint32, type PbReader } from "./reader.js";
import { pbOverrun } from "./skip.js";

/** Where the unchecked loop stops: the run's end, or the last start from which ten bytes are still in the input. */
function fastEnd(r: PbReader, end: number): number {
  return end < r.len - 9 ? end : r.len - 9;
}

/**
 * The low 32 bits of a varint whose first byte `b` (at pos - 1) has its continuation bit set; `pos` is moved past
 * the varint through `r.pos`. Bytes 6 to 10 carry only bits above 32 (sign extension of negative int32s).
 */
function readRest(r: PbReader, pos: number, b: number): number {
  const buf = r.buf;
  let v = b & 0x7f;
  b = buf[pos++]!;
  v |= (b & 0x7f) << 7;
  if (b >= 0x80) {
    b = buf[pos++]!;
    v |= (b & 0x7f) << 14;
    if (b >= 0x80) {
      b = buf[pos++]!;
      v |= (b & 0x7f) << 21;
      if (b >= 0x80) {
        b = buf[pos++]!;
        v |= b << 28;
        for (let i = 5; b >= 0x80; i++) {
          if (i === 10) pbFail("varint longer than 10 bytes", pos - 10);
          b = buf[pos++]!;
        }
      }
    }
  }
  r.pos = pos;
  return v;
}

/** The values of the run from r.pos to `end` appended to `list` as uint32 (a new list when there is none). */
export function pbReadPackedUint32(r: PbReader, end: number, list: number[] | undefined): number[] {
  const out = list ?? [];
  const buf = r.buf;
  const fast = fastEnd(r, end);
  let pos = r.pos;
  while (pos < fast) {
    const b = buf[pos++]!;
    if (b < 0x80) out.push(b);
    else {
      out.push(readRest(r, pos, b) >>> 0);
      pos = r.pos;
    }
  }
  r.pos = pos;
  while (r.pos < end) out.push(pbReadVarint32(r));
  if (r.pos !== end) pbOverrun(r, end);
  return out;
}

/** As pbReadPackedUint32, as int32 (ten-byte negative values included). */
export function pbReadPackedInt32(r: PbReader, end: number, list: number[] | undefined): number[] {
  const out = list ?? [];
  const buf = r.buf;
  const fast = fastEnd(r, end);
  let pos = r.pos;
  while (pos < fast) {
    const b = buf[pos++]!;
    if (b < 0x80) out.push(b);
    else {
      out.push(readRest(r, pos, b) | 0);
      pos = r.pos;
    }
  }
  r.pos = pos;
  while (r.pos < end) out.push(pbReadVarint32(r) | 0);
  if (r.pos !== end) pbOverrun(r, end);
  return out;
}

/** As pbReadPackedUint32, zigzag-decoded (sint32). */
export function pbReadPackedSint32(r: PbReader, end: number, list: number[] | undefined): number[] {
  const out = list ?? [];
  const buf = r.buf;
  const fast = fastEnd(r, end);
  let pos = r.pos;
  while (pos < fast) {
    const b = buf[pos++]!;
    if (b < 0x80) out.push((b >>> 1) ^ -(b & 1));
    else {
      const v = readRest(r, pos, b);
      out.push((v >>> 1) ^ -(v & 1));
      pos = r.pos;
    }
  }
  r.pos = pos;
  while (r.pos < end) {
    const v = pbReadVarint32(r);
    out.push((v >>> 1) ^ -(v & 1));
  }
  if (r.pos !== end) pbOverrun(r, end);
  return out;
}
