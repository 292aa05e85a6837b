import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pbUtf8Decode, pbUtf8Length, pbUtf8Write } from "../../../src/runtime/protobuf/index.js";

describe("UTF-8", () => {
  it("decodes like TextDecoder (lenient) on arbitrary bytes, short and long", () => {
    const td = new TextDecoder();
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        expect(pbUtf8Decode(bytes, 0, bytes.length, false)).toBe(td.decode(bytes));
      }),
      { numRuns: 500 },
    );
  });

  it("strict decoding returns undefined exactly when TextDecoder (fatal) throws", () => {
    const fatal = new TextDecoder("utf-8", { fatal: true });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        let want: string | undefined;
        try {
          want = fatal.decode(bytes);
        } catch {
          want = undefined;
        }
        expect(pbUtf8Decode(bytes, 0, bytes.length, true)).toBe(want);
      }),
      { numRuns: 500 },
    );
    // Overlong, surrogate and beyond-U+10FFFF sequences.
    for (const bad of [[0xc0, 0x80], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]]) {
      expect(pbUtf8Decode(new Uint8Array(bad), 0, bad.length, true)).toBeUndefined();
    }
  });

  it("decodes valid text of every length both ways, including real U+FFFD characters (strict keeps them)", () => {
    const fatal = new TextDecoder("utf-8", { fatal: true });
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 120 }), fc.boolean(), (s, withReplacement) => {
        const text = withReplacement ? `${s}\uFFFD${s}` : s;
        const bytes = new TextEncoder().encode(text);
        expect(fatal.decode(bytes)).toBe(text);
        expect(pbUtf8Decode(bytes, 0, bytes.length, true)).toBe(text);
        expect(pbUtf8Decode(bytes, 0, bytes.length, false)).toBe(text);
      }),
      { numRuns: 500 },
    );
    // A long run that is invalid only at its end, and one with an encoded surrogate in the middle.
    const long = [...new TextEncoder().encode("x".repeat(200))];
    for (const bad of [[...long, 0xc3], [...long.slice(0, 100), 0xed, 0xa0, 0x80, ...long.slice(100)]]) {
      const bytes = new Uint8Array(bad);
      expect(pbUtf8Decode(bytes, 0, bytes.length, true)).toBeUndefined();
      expect(pbUtf8Decode(bytes, 0, bytes.length, false)).toBe(new TextDecoder().decode(bytes));
    }
  });

  it("decodes by hand up to 12 bytes and with the platform decoder above, the same either side of the switch", () => {
    for (let n = 0; n <= 20; n++) {
      for (const text of ["abcdefghijklmnopqrst".slice(0, n), "é".repeat(n >> 1) + "x".repeat(n & 1)]) {
        const bytes = new TextEncoder().encode(text);
        const padded = new Uint8Array([0xff, ...bytes, 0xff]);
        expect(pbUtf8Decode(padded, 1, 1 + bytes.length, false), `${bytes.length} bytes`).toBe(text);
        expect(pbUtf8Decode(padded, 1, 1 + bytes.length, true), `${bytes.length} bytes strict`).toBe(text);
      }
    }
  });

  it("encodes like TextEncoder and measures the same length", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 120 }), (s) => {
        const buf = new Uint8Array(s.length * 3);
        const end = pbUtf8Write(s, buf, 0);
        const want = new TextEncoder().encode(s);
        expect(Buffer.from(buf.subarray(0, end)).equals(Buffer.from(want))).toBe(true);
        expect(pbUtf8Length(s)).toBe(want.length);
      }),
      { numRuns: 500 },
    );
  });
});
