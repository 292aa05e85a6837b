/**
 * Packed 32-bit varint runs read in one call (packed-read.ts), checked against encodings computed here with bigint
 * arithmetic: values at every byte-count boundary, runs of 0, 1, 127 and 128 values, runs that end within ten bytes
 * of the input's end (where the unchecked loop hands over to the checked reader), appending to an existing list,
 * and malformed runs, which must fail with the same reason and offset as reading value by value.
 */
import { describe, expect, it } from "vitest";
import { varint } from "../../helpers/varint.js";
import {
  ProtobufDecodeError, pbOverrun, pbReader, pbReadInt32, pbReadPackedInt32, pbReadPackedSint32, pbReadPackedUint32, pbReadSint32, pbReadUint32,
  type PbReader,
} from "../../../src/runtime/protobuf/index.js";


const edges = (p: number) => [p - 1, p, p + 1];
const UINT32 = [0, 1, 126, 127, 128, 129, ...edges(2 ** 14), ...edges(2 ** 21), ...edges(2 ** 28), ...edges(2 ** 31), 2 ** 32 - 2, 2 ** 32 - 1];
const INT32 = [...UINT32.filter((v) => v < 2 ** 31), -1, -2, -127, -128, -129, -(2 ** 14), -(2 ** 21), -(2 ** 28), -(2 ** 31)];

const uint32Bytes = (vs: number[]) => vs.flatMap((v) => varint(BigInt(v)));
/** int32: negative values sign-extended to 64 bits (ten bytes). */
const int32Bytes = (vs: number[]) => vs.flatMap((v) => varint(BigInt.asUintN(64, BigInt(v))));
const sint32Bytes = (vs: number[]) => vs.flatMap((v) => varint(BigInt((v << 1) ^ (v >> 31)) & 0xffffffffn));

type PackedReader = (r: PbReader, end: number, list: number[] | undefined) => number[];

/** Reads a run laid out as `before` bytes, the run, then `after` bytes; returns the values and checks the position. */
function readRun(read: PackedReader, run: number[], before = 0, after = 0): number[] {
  const r = pbReader(new Uint8Array([...new Array<number>(before).fill(0x55), ...run, ...new Array<number>(after).fill(0x55)]));
  r.pos = before;
  const out = read(r, before + run.length, undefined);
  expect(r.pos).toBe(before + run.length);
  return out;
}

describe("packed 32-bit varint runs", () => {
  const kinds: [string, PackedReader, number[], (vs: number[]) => number[]][] = [
    ["uint32", pbReadPackedUint32, UINT32, uint32Bytes],
    ["int32", pbReadPackedInt32, INT32, int32Bytes],
    ["sint32", pbReadPackedSint32, INT32, sint32Bytes],
  ];

  for (const [name, read, values, bytesOf] of kinds) {
    it(`${name}: every boundary value, wherever the run ends relative to the end of the input`, () => {
      // after = 0..12 moves the run's tail across the ten-byte margin of the unchecked loop.
      for (let after = 0; after <= 12; after++) expect(readRun(read, bytesOf(values), 3, after), `${after} bytes after`).toEqual(values);
      // Each value alone, last in the input (only the checked reader) and followed by padding (only the fast loop).
      for (const v of values) {
        expect(readRun(read, bytesOf([v])), `${v} last`).toEqual([v]);
        expect(readRun(read, bytesOf([v]), 0, 16), `${v} padded`).toEqual([v]);
      }
    });

    it(`${name}: runs of 0, 1, 127 and 128 values`, () => {
      for (const n of [0, 1, 127, 128]) {
        const vs = Array.from({ length: n }, (_, i) => values[i % values.length]!);
        expect(readRun(read, bytesOf(vs), 1, 11)).toEqual(vs);
        expect(readRun(read, bytesOf(vs))).toEqual(vs);
      }
    });
  }

  it("appends to a list that is already there (a field repeated in several runs) and returns it", () => {
    const list = [7, 8];
    const r = pbReader(new Uint8Array([...uint32Bytes([1, 300, 2 ** 31]), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
    const out = pbReadPackedUint32(r, 8, list);
    expect(out).toBe(list);
    expect(list).toEqual([7, 8, 1, 300, 2 ** 31]);
  });

  it("agrees with reading value by value on random runs", () => {
    let seed = 12345;
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    for (let k = 0; k < 200; k++) {
      const vs = Array.from({ length: Math.floor(rand() * 40) }, () => Math.floor(2 ** (rand() * 32)) | 0);
      const bytes = new Uint8Array([...int32Bytes(vs), ...new Array<number>(Math.floor(rand() * 12)).fill(0)]);
      const end = int32Bytes(vs).length;
      for (const [packed, one] of [[pbReadPackedInt32, pbReadInt32], [pbReadPackedUint32, pbReadUint32], [pbReadPackedSint32, pbReadSint32]] as const) {
        const a = pbReader(bytes);
        const b = pbReader(bytes);
        const want: number[] = [];
        while (b.pos < end) want.push(one(b));
        expect(packed(a, end, undefined)).toEqual(want);
      }
    }
  });
});

describe("malformed packed runs fail as reading value by value does", () => {
  function failure(read: () => void): [string, number] {
    try {
      read();
    } catch (e) {
      if (e instanceof ProtobufDecodeError) return [e.reason, e.offset];
      throw e;
    }
    return ["no error", -1];
  }

  /** The error reading the run [0, end) value by value (as generated readers did), and in one call. */
  function errors(bytes: number[], end: number): [[string, number], [string, number]] {
    const byValue = failure(() => {
      const r = pbReader(new Uint8Array(bytes));
      while (r.pos < end) pbReadUint32(r);
      if (r.pos !== end) pbOverrun(r, end);
    });
    const packed = failure(() => pbReadPackedUint32(pbReader(new Uint8Array(bytes)), end, undefined));
    return [byValue, packed];
  }

  it("a varint longer than ten bytes, far from the end of the input and near it", () => {
    const eleven = [...new Array<number>(10).fill(0xff), 0x01];
    for (const pad of [0, 5, 20]) {
      const [byValue, packed] = errors([0x05, ...eleven, ...new Array<number>(pad).fill(0)], 12);
      expect(packed).toEqual(byValue);
      expect(packed).toEqual(["varint longer than 10 bytes", 1]);
    }
  });

  it("a varint cut off by the end of the input, short or nine bytes long (the longest the fast loop could start)", () => {
    for (const bytes of [[0x05, 0x80, 0x80], [0x05, ...new Array<number>(9).fill(0xff)]]) {
      const [byValue, packed] = errors(bytes, bytes.length);
      expect(packed).toEqual(byValue);
      expect(packed[0]).toBe("truncated varint");
    }
  });

  it("a last value that runs past the end of the run", () => {
    for (const pad of [0, 12]) {
      const [byValue, packed] = errors([0x05, 0xac, 0x02, ...new Array<number>(pad).fill(0)], 2);
      expect(packed).toEqual(byValue);
      expect(packed).toEqual(["field runs 1 bytes past the end of its enclosing message", 2]);
    }
  });
});
