/**
 * Packed repeated varints, written in two tight loops (sizes, then bytes) with one capacity check, instead of a
 * call and a check per element. Other packed types use the per-value writers.
 */
import { pbReserve, pbWriteVarint32, type PbWriter } from "./writer.js";

function size32(v: number): number {
  return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5;
}

function writeAll(w: PbWriter, list: readonly number[], size: number, map: (v: number) => number): void {
  pbWriteVarint32(w, size);
  pbReserve(w, size);
  const buf = w.buf;
  let pos = w.pos;
  for (let i = 0; i < list.length; i++) {
    let v = map(list[i]!);
    while (v > 0x7f) {
      buf[pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    buf[pos++] = v;
  }
  w.pos = pos;
}

const asUint32 = (v: number) => v >>> 0;
const zigzag32 = (v: number) => ((v << 1) ^ (v >> 31)) >>> 0;

/** Length prefix and values of a packed uint32 run. */
export function pbWritePackedUint32(w: PbWriter, list: readonly number[]): void {
  let size = 0;
  for (let i = 0; i < list.length; i++) size += size32(list[i]! >>> 0);
  writeAll(w, list, size, asUint32);
}

export function pbWritePackedSint32(w: PbWriter, list: readonly number[]): void {
  let size = 0;
  for (let i = 0; i < list.length; i++) size += size32(zigzag32(list[i]!));
  writeAll(w, list, size, zigzag32);
}

/** int32 (and enum numbers): negative values take ten bytes (sign-extended to 64 bits). */
export function pbWritePackedInt32(w: PbWriter, list: readonly number[]): void {
  let size = 0;
  for (let i = 0; i < list.length; i++) {
    const v = list[i]! | 0;
    size += v < 0 ? 10 : size32(v);
  }
  pbWriteVarint32(w, size);
  pbReserve(w, size);
  const buf = w.buf;
  let pos = w.pos;
  for (let i = 0; i < list.length; i++) {
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
  w.pos = pos;
}
