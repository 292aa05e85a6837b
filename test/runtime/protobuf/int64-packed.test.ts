/**
 * The fast paths of the wire writer and reader, checked against encodings computed here with plain bigint
 * arithmetic: 64-bit values through the typed-array split (writer) and join (reader), at every boundary where a
 * path changes (30 bits for the reader's small-value path, 2^32 for the high half, 2^53 where doubles lose
 * integers, the int64/uint64 limits), and packed runs written in one pass into a reserved length prefix, at the run
 * lengths where the reserved prefix is longer than the real one.
 */
import { describe, expect, it } from "vitest";
import { varint } from "../../helpers/varint.js";
import {
  ProtobufDecodeError, pbFinish, pbReader, pbReadFixed64, pbReadInt64, pbReadInt64Number, pbReadInt64String, pbReadInt32, pbReadSfixed64, pbReadSint32, pbReadSint64,
  pbReadSint64String, pbReadUint32, pbReadUint64, pbReadUint64String, pbWriteFixed64, pbWriteInt64, pbWritePackedInt32, pbWritePackedSint32,
  pbWritePackedUint32, pbWriter, pbWriteSfixed64, pbWriteSint64, pbWriteUint64, pbWriteUint32, type PbWriter,
} from "../../../src/runtime/protobuf/index.js";

function bytesOf(write: (w: PbWriter) => void): number[] {
  const w = pbWriter();
  write(w);
  return [...pbFinish(w)];
}


function fixed64(u: bigint): number[] {
  return Array.from({ length: 8 }, (_, i) => Number((u >> BigInt(8 * i)) & 0xffn));
}

const zigzag = (v: bigint) => BigInt.asUintN(64, (v << 1n) ^ (v >> 63n));

const edges = (p: bigint) => [p - 1n, p, p + 1n];
/** Signed values at every edge the fast paths have, and their negations. */
const SIGNED: bigint[] = (() => {
  const positive = [0n, 1n, 127n, 128n, ...edges(2n ** 14n), ...edges(2n ** 21n), ...edges(2n ** 28n), ...edges(2n ** 30n), ...edges(2n ** 31n), ...edges(2n ** 32n), ...edges(2n ** 35n), ...edges(2n ** 53n), 2n ** 62n, 2n ** 63n - 1n];
  return [...positive, ...positive.map((v) => -v), -(2n ** 63n)];
})();
const UNSIGNED: bigint[] = [...SIGNED.filter((v) => v >= 0n), 2n ** 63n, 2n ** 63n + 1n, 2n ** 64n - 2n, 2n ** 64n - 1n];

describe("64-bit values at their boundaries (bigint mode)", () => {
  it("int64, sint64 and sfixed64 write the canonical bytes and read back the same value", () => {
    for (const v of SIGNED) {
      const u = BigInt.asUintN(64, v);
      expect(bytesOf((w) => pbWriteInt64(w, v)), `int64 ${v}`).toEqual(varint(u));
      expect(bytesOf((w) => pbWriteSint64(w, v)), `sint64 ${v}`).toEqual(varint(zigzag(v)));
      expect(bytesOf((w) => pbWriteSfixed64(w, v)), `sfixed64 ${v}`).toEqual(fixed64(u));
      const r = pbReader(new Uint8Array([...varint(u), ...varint(zigzag(v)), ...fixed64(u), ...varint(u), ...varint(zigzag(v))]));
      expect([pbReadInt64(r), pbReadSint64(r), pbReadSfixed64(r), pbReadInt64String(r), pbReadSint64String(r)]).toEqual([v, v, v, String(v), String(v)]);
      expect(r.pos).toBe(r.len);
    }
  });

  it("uint64 and fixed64 write the canonical bytes and read back the same value", () => {
    for (const v of UNSIGNED) {
      expect(bytesOf((w) => pbWriteUint64(w, v)), `uint64 ${v}`).toEqual(varint(v));
      expect(bytesOf((w) => pbWriteFixed64(w, v)), `fixed64 ${v}`).toEqual(fixed64(v));
      const r = pbReader(new Uint8Array([...varint(v), ...fixed64(v), ...varint(v)]));
      expect([pbReadUint64(r), pbReadFixed64(r), pbReadUint64String(r)]).toEqual([v, v, String(v)]);
    }
  });

  it("varints read the same far from the end of the input (unrolled path) and within ten bytes of it (checked path)", () => {
    const pad = new Array<number>(10).fill(0);
    for (const v of SIGNED) {
      const u = BigInt.asUintN(64, v);
      for (const after of [[], pad]) {
        const r = pbReader(new Uint8Array([...varint(u), ...varint(zigzag(v)), ...varint(u), ...after]));
        expect([pbReadInt64(r), pbReadSint64(r), pbReadUint64(r)], `${v}, ${after.length} bytes after`).toEqual([v, v, u]);
        expect(r.pos).toBe(r.len - after.length);
        expect(pbReadInt64String(pbReader(new Uint8Array([...varint(u), ...after])))).toBe(String(v));
      }
    }
    // An eleventh byte is refused at the same offset on both paths (where the eleventh byte starts).
    const eleven = [...new Array<number>(10).fill(0xff), 0x01];
    for (const bytes of [eleven, [...eleven, ...pad]]) {
      const r = pbReader(new Uint8Array([0, ...bytes]));
      r.pos = 1;
      let error: unknown;
      try {
        pbReadUint64(r);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ProtobufDecodeError);
      expect(error).toMatchObject({ reason: "varint longer than 10 bytes", offset: 11 });
    }
  });

  it("the same values as decimal strings and (where exact) numbers write the same bytes as bigints", () => {
    for (const v of SIGNED) {
      const expected = varint(BigInt.asUintN(64, v));
      expect(bytesOf((w) => pbWriteInt64(w, String(v))), `"${v}"`).toEqual(expected);
      if (v >= -(2n ** 53n) && v <= 2n ** 53n) {
        expect(bytesOf((w) => pbWriteInt64(w, Number(v))), `${v} as a number`).toEqual(expected);
        expect(pbReadInt64Number(pbReader(new Uint8Array(expected)))).toBe(Number(v));
      }
    }
  });

  it("bigints outside 64 bits wrap as they always did (the low 64 bits)", () => {
    expect(bytesOf((w) => pbWriteUint64(w, 2n ** 64n + 5n))).toEqual(varint(5n));
    expect(bytesOf((w) => pbWriteInt64(w, -(2n ** 64n) - 1n))).toEqual(varint(2n ** 64n - 1n));
  });
});

/** A packed run of `values` as one-at-a-time writes (the reference): length prefix, then each varint. */
function reference(values: readonly number[], each: (w: PbWriter, v: number) => void): number[] {
  const body = bytesOf((w) => values.forEach((v) => each(w, v)));
  return [...varint(BigInt(body.length)), ...body];
}

describe("packed varint runs, written in one pass", () => {
  // 25 values always fit a one-byte prefix; from 26 the reserved prefix is two bytes and the values move left when
  // they are short; 26 five-byte values need the two-byte prefix they reserved. 3277 five-byte values need three.
  const LENGTHS = [0, 1, 25, 26, 27, 127, 128, 3276, 3277, 30000];
  const runs = (pick: (i: number) => number) => LENGTHS.map((n) => Array.from({ length: n }, (_, i) => pick(i)));

  it("uint32: small values (shifted prefix), large values (full prefix), mixed", () => {
    for (const pick of [() => 1, () => 0xffffffff, (i: number) => (i * 2654435761) >>> (i % 32)]) {
      for (const values of runs(pick)) {
        const out = bytesOf((w) => {
          pbWriteUint32(w, 7); // something before the run, so the run does not start at 0
          pbWritePackedUint32(w, values);
          pbWriteUint32(w, 9); // and after it, to catch a wrong end position
        });
        expect(out, `${values.length} values`).toEqual([7, ...reference(values, pbWriteUint32), 9]);
      }
    }
  });

  it("int32 (negative values take ten bytes) and sint32 read back what was written", () => {
    for (const values of runs((i) => (i % 3 === 0 ? -i : i * 977) | 0)) {
      const out = bytesOf((w) => {
        pbWritePackedInt32(w, values);
        pbWritePackedSint32(w, values);
      });
      const r = pbReader(new Uint8Array(out));
      for (const read of [pbReadInt32, pbReadSint32]) {
        const len = pbReadUint32(r);
        const end = r.pos + len;
        const got: number[] = [];
        while (r.pos < end) got.push(read(r));
        expect(r.pos).toBe(end);
        expect(got).toEqual(values);
      }
      expect(r.pos).toBe(r.len);
    }
  });
});
