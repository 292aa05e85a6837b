import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  pbFinish, pbFork, pbForkTag, pbJoin, pbWriteTag, pbReadDouble, pbReadEnd, pbReader, pbReadFixed64, pbReadFloat, pbReadInt32, pbReadInt64,
  pbReadSint32, pbReadSint64, pbReadString, pbReadUint32, pbReadUint64, pbWriteDouble, pbWriteFixed64, pbWriteFloat,
  pbWriteInt32, pbWriteInt64, pbWriter, pbWriteSint32, pbWriteSint64, pbWriteString, pbWriteUint32, pbWriteUint64,
  pbIsZero64, ProtobufEncodeError, type PbWriter,
} from "../../../src/runtime/protobuf/index.js";

function bytesOf(write: (w: PbWriter) => void): Uint8Array {
  const w = pbWriter();
  write(w);
  return pbFinish(w);
}

describe("writer", () => {
  it("varints: canonical encodings", () => {
    expect([...bytesOf((w) => pbWriteUint32(w, 300))]).toEqual([0xac, 0x02]);
    expect([...bytesOf((w) => pbWriteInt32(w, -1))]).toEqual([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    expect([...bytesOf((w) => pbWriteSint32(w, -2))]).toEqual([0x03]);
    expect([...bytesOf((w) => pbWriteUint64(w, 2n ** 64n - 1n))]).toEqual([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    expect([...bytesOf((w) => pbWriteInt64(w, "-1"))]).toHaveLength(10);
  });

  it("round-trips every 32-bit and 64-bit integer type through the reader", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        (i32, u32, i64, u64) => {
          const b = bytesOf((w) => {
            pbWriteInt32(w, i32);
            pbWriteSint32(w, i32);
            pbWriteUint32(w, u32);
            pbWriteInt64(w, i64);
            pbWriteSint64(w, i64);
            pbWriteInt64(w, i64.toString());
            pbWriteSint64(w, Number(BigInt.asIntN(52, i64)));
            pbWriteUint64(w, u64);
            pbWriteFixed64(w, u64);
          });
          const r = pbReader(b);
          expect(pbReadInt32(r)).toBe(i32);
          expect(pbReadSint32(r)).toBe(i32);
          expect(pbReadUint32(r)).toBe(u32);
          expect(pbReadInt64(r)).toBe(i64);
          expect(pbReadSint64(r)).toBe(i64);
          expect(pbReadInt64(r)).toBe(i64);
          expect(pbReadSint64(r)).toBe(BigInt.asIntN(52, i64));
          expect(pbReadUint64(r)).toBe(u64);
          expect(pbReadFixed64(r)).toBe(u64);
          expect(r.pos).toBe(b.length);
        },
      ),
    );
  });

  it("floats and doubles", () => {
    fc.assert(
      fc.property(fc.float(), fc.double(), (f, d) => {
        const r = pbReader(bytesOf((w) => (pbWriteFloat(w, f), pbWriteDouble(w, d))));
        expect(Object.is(pbReadFloat(r), f)).toBe(true);
        expect(Object.is(pbReadDouble(r), d)).toBe(true);
      }),
    );
  });

  it("strings match TextEncoder, lone surrogates become U+FFFD, at every length (prefix sizes 1 to 3)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), fc.nat({ max: 20_000 }), (s, repeat) => {
        const text = repeat > 19_000 ? s.repeat(60) : s;
        const r = pbReader(bytesOf((w) => pbWriteString(w, text)));
        const end = pbReadEnd(r);
        expect(Buffer.from(r.buf.subarray(r.pos, end)).equals(Buffer.from(new TextEncoder().encode(text)))).toBe(true);
        expect(end).toBe(r.len);
      }),
    );
    const long = "é".repeat(100_000);
    expect(pbReadString(pbReader(bytesOf((w) => pbWriteString(w, long))))).toBe(long);
  });

  it("fork/join moves content right when the length needs more than one byte", () => {
    for (const size of [0, 127, 128, 16383, 16384, 300_000]) {
      const b = bytesOf((w) => {
        pbWriteUint32(w, 7);
        const at = pbFork(w);
        for (let i = 0; i < size; i++) pbWriteUint32(w, i & 0x7f);
        pbJoin(w, at);
        pbWriteUint32(w, 9);
      });
      const r = pbReader(b);
      expect(pbReadUint32(r)).toBe(7);
      const end = pbReadEnd(r);
      expect(end - r.pos).toBe(size);
      expect(b[r.pos + size - 1] ?? 0).toBe(size === 0 ? 0 : (size - 1) & 0x7f);
      r.pos = end;
      expect(pbReadUint32(r)).toBe(9);
    }
  });

  it("pbForkTag writes the tag and reserves the length as pbWriteTag and pbFork do, at any buffer fill", () => {
    // Nested values of 0, 127, 128 and 16384 bytes, starting at every offset around the 4 KiB initial buffer's end
    // (the tag and the length byte straddle the point where the buffer grows).
    for (const size of [0, 127, 128, 16384]) {
      for (let lead = 4085; lead <= 4097; lead++) {
        const body = (w: PbWriter) => {
          for (let i = 0; i < lead; i++) pbWriteUint32(w, 1);
        };
        const fused = bytesOf((w) => {
          body(w);
          const at = pbForkTag(w, 26);
          for (let i = 0; i < size; i++) pbWriteUint32(w, i & 0x7f);
          pbJoin(w, at);
          pbWriteUint32(w, 9);
        });
        const separate = bytesOf((w) => {
          body(w);
          pbWriteTag(w, 26);
          const at = pbFork(w);
          for (let i = 0; i < size; i++) pbWriteUint32(w, i & 0x7f);
          pbJoin(w, at);
          pbWriteUint32(w, 9);
        });
        expect([...fused], `${size} bytes after ${lead}`).toEqual([...separate]);
        const r = pbReader(fused);
        r.pos = lead;
        expect(pbReadUint32(r)).toBe(26);
        expect(pbReadEnd(r) - r.pos).toBe(size);
      }
    }
  });

  it("returns a fresh copy each time (the buffer is reused between calls)", () => {
    const a = bytesOf((w) => pbWriteUint32(w, 1));
    const b = bytesOf((w) => pbWriteUint32(w, 2));
    expect([...a, ...b]).toEqual([1, 2]);
  });

  it("small results are independent views cut from a shared slab; large ones own their buffer", () => {
    // Enough results of varied sizes to cross several slab boundaries, each checked after all were made.
    const results: { bytes: Uint8Array; fill: number; length: number }[] = [];
    for (let i = 0; i < 400; i++) {
      const length = [0, 1, 7, 63, 64, 65, 200, 1023, 1024][i % 9]!;
      const fill = i % 251;
      results.push({ bytes: bytesOf((w) => { for (let k = 0; k < length; k++) pbWriteUint32(w, fill % 128); }), fill: fill % 128, length });
    }
    for (const r of results) {
      expect(r.bytes.length).toBe(r.length);
      expect(r.bytes.every((b) => b === r.fill)).toBe(true);
      expect(r.bytes.byteOffset % 8).toBe(0);
    }
    // Writing into one result never shows in another.
    results[1]!.bytes[0] = 255;
    expect(results[10]!.bytes[0]).toBe(results[10]!.fill);
    const big = bytesOf((w) => { for (let k = 0; k < 5000; k++) pbWriteUint32(w, 1); });
    expect([big.length, big.byteOffset % 8, big.every((b) => b === 1)]).toEqual([5000, 0, true]);
  });

  it("results from 1 KiB to 256 KiB are copied into a buffer of their own; larger ones are views", () => {
    for (const length of [1025, 125_000, 256 * 1024]) {
      const bytes = bytesOf((w) => { for (let k = 0; k < length; k++) pbWriteUint32(w, 3); });
      expect([bytes.byteOffset, bytes.buffer.byteLength], `${length}`).toEqual([0, length]);
    }
    const view = bytesOf((w) => { for (let k = 0; k < 256 * 1024 + 1; k++) pbWriteUint32(w, 3); });
    expect(view.buffer.byteLength).toBeGreaterThan(view.length);
  });

  it("large results (views of the writer's buffer) and copied ones are never written over by later encodes", () => {
    // Sizes around the slab limit and the pool's buffer sizes, so results land at the start, middle and end of a
    // buffer, some calls start a fresh buffer and some grow one in the middle of the encode; small results between.
    const sizes = [1025, 5000, 200_000, 150_000, 3, 400_000, 1025, 1_100_000, 70_000, 70_000, 70_000, 70_000, 70_000, 700, 2_000_000, 10];
    const results = sizes.map((length, i) => ({
      length,
      fill: (i * 37) % 128,
      bytes: bytesOf((w) => { for (let k = 0; k < length; k++) pbWriteUint32(w, (i * 37) % 128); }),
    }));
    for (const r of results) {
      expect(r.bytes.length).toBe(r.length);
      expect(r.bytes.byteOffset % 8).toBe(0);
      expect(r.bytes.every((b) => b === r.fill)).toBe(true);
    }
    // Results sharing a buffer do not overlap.
    const spans = results.map((r) => ({ buffer: r.bytes.buffer, from: r.bytes.byteOffset, to: r.bytes.byteOffset + r.length }));
    for (const a of spans) for (const b of spans) if (a !== b && a.buffer === b.buffer) expect(a.to <= b.from || b.to <= a.from).toBe(true);
  });

  it("a message that grows the buffer after results were handed out keeps its nested lengths", () => {
    bytesOf((w) => { for (let k = 0; k < 3000; k++) pbWriteUint32(w, 5); }); // leaves the writer's start above 0
    // Longer than any buffer the writer keeps (4 MiB), so this encode grows its buffer whatever ran before.
    const inner = "x".repeat(5_000_000);
    const b = bytesOf((w) => {
      pbWriteUint32(w, 7);
      const at = pbFork(w);
      pbWriteString(w, inner);
      pbJoin(w, at);
    });
    const r = pbReader(b);
    expect(pbReadUint32(r)).toBe(7);
    const end = pbReadEnd(r);
    expect(pbReadString(r)).toBe(inner);
    expect([r.pos, end, b.length]).toEqual([b.length, b.length, r.pos]);
  });

  it("rejects 64-bit strings that are not integers and tells zero apart in every form", () => {
    expect(() => bytesOf((w) => pbWriteInt64(w, "12abc"))).toThrow(ProtobufEncodeError);
    expect(pbIsZero64(0n)).toBe(true);
    expect(pbIsZero64("0")).toBe(true);
    expect(pbIsZero64("-0")).toBe(true);
    expect(pbIsZero64(0)).toBe(true);
    expect(pbIsZero64("18446744073709551616")).toBe(true);
    expect(pbIsZero64(1n)).toBe(false);
  });
});
