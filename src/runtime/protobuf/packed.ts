/**
 * Packed repeated varints, written in one pass: room for the longest possible run is reserved once (so there is one
 * capacity check per run, not per value), the length prefix gets the bytes that bound needs, and the values are
 * written straight after it. When the real length needs a shorter prefix, the values move left (a short memmove;
 * runs under 26 values always fit a one-byte prefix and never move). Other packed types use the per-value writers.
 */
import { pbReserve, type PbWriter } from "./writer.js";

function varintSize(v: number): number {
  return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5;
}

/** Reserve `room` prefix bytes plus `max` value bytes; the values start at the returned position. */
function begin(w: PbWriter, room: number, max: number): number {
  pbReserve(w, room + max);
  return w.pos + room;
}

/** Write the length of the run that went from `start + room` to `end` in front of it. */
function finish(w: PbWriter, room: number, end: number): void {
  const buf = w.buf;
  const start = w.pos;
  let len = end - start - room;
  if (room === 1) {
    buf[start] = len;
    w.pos = end;
    return;
  }
  const size = varintSize(len);
  if (size !== room) buf.copyWithin(start + size, start + room, end);
  w.pos = start + size + len;
  let pos = start;
  while (len > 0x7f) {
    buf[pos++] = (len & 0x7f) | 0x80;
    len >>>= 7;
  }
  buf[pos] = len;
}

/** Length prefix and values of a packed uint32 run. */
export function pbWritePackedUint32(w: PbWriter, list: readonly number[]): void {
  const n = list.length;
  const room = varintSize(5 * n);
  let pos = begin(w, room, 5 * n);
  const buf = w.buf;
  for (let i = 0; i < n; i++) {
    let v = list[i]! >>> 0;
    if (v < 0x80) buf[pos++] = v;
    else {
      do {
        buf[pos++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      } while (v > 0x7f);
      buf[pos++] = v;
    }
  }
  finish(w, room, pos);
}

export function pbWritePackedSint32(w: PbWriter, list: readonly number[]): void {
  const n = list.length;
  const room = varintSize(5 * n);
  let pos = begin(w, room, 5 * n);
  const buf = w.buf;
  for (let i = 0; i < n; i++) {
    const s = list[i]! | 0;
    let v = ((s << 1) ^ (s >> 31)) >>> 0;
    while (v > 0x7f) {
      buf[pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    buf[pos++] = v;
  }
  finish(w, room, pos);
}

/** int32 (and enum numbers): negative values take ten bytes (sign-extended to 64 bits). */
export function pbWritePackedInt32(w: PbWriter, list: readonly number[]): void {
  const n = list.length;
  const room = varintSize(10 * n);
  let pos = begin(w, room, 10 * n);
  const buf = w.buf;
  for (let i = 0; i < n; i++) {
    let v = list[i]! | 0;
    if (v < 0) {
      // Low 32 bits as five groups of seven (the fifth with the sign bits), then five bytes of sign extension.
      let u = v >>> 0;
      for (let k = 0; k < 4; k++) {
        buf[pos++] = (u & 0x7f) | 0x80;
        u >>>= 7;
      }
      buf[pos++] = u | 0xf0;
      buf[pos++] = 0xff;
      buf[pos++] = 0xff;
      buf[pos++] = 0xff;
      buf[pos++] = 0xff;
      buf[pos++] = 0x01;
      continue;
    }
    while (v > 0x7f) {
      buf[pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    buf[pos++] = v;
  }
  finish(w, room, pos);
}
