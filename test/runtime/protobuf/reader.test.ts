import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ProtobufDecodeError, pbReadBool, pbReadDouble, pbReadEnd, pbReader, pbReadFixed32, pbReadFixed64, pbReadFloat, pbReadInt32,
  pbReadInt64, pbReadInt64Number, pbReadInt64String, pbReadSfixed64, pbReadSint32, pbReadSint64, pbReadSint64String,
  pbReadString, pbReadStringStrict, pbReadUint32, pbReadUint64, pbReadUint64String, pbReadVarint32, pbSkipField,
} from "../../../src/runtime/protobuf/index.js";

const r = (...bytes: number[]) => pbReader(new Uint8Array(bytes));

function decodeError(fn: () => unknown): ProtobufDecodeError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ProtobufDecodeError) return e;
    throw e;
  }
  throw new Error("expected a ProtobufDecodeError");
}

describe("varints", () => {
  it.each([
    [[0x00], 0],
    [[0x7f], 127],
    [[0x80, 0x01], 128],
    [[0xac, 0x02], 300],
    [[0xff, 0xff, 0xff, 0xff, 0x0f], 0xffffffff],
  ])("%j reads as %d", (bytes, want) => {
    const reader = r(...bytes);
    expect(pbReadUint32(reader)).toBe(want);
    expect(reader.pos).toBe(bytes.length);
  });

  it("reads negative int32 from its ten-byte sign extension", () => {
    const reader = r(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
    expect(pbReadInt32(reader)).toBe(-1);
    expect(reader.pos).toBe(10);
  });

  it("reads the same with and without room for the fast path", () => {
    const padded = pbReader(new Uint8Array([0xac, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
    expect(pbReadVarint32(padded)).toBe(300);
    expect(pbReadVarint32(r(0xac, 0x02))).toBe(300);
  });

  it("rejects varints longer than ten bytes, with or without room for the fast path", () => {
    const eleven = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
    expect(decodeError(() => pbReadVarint32(r(...eleven))).reason).toBe("varint longer than 10 bytes");
    expect(decodeError(() => pbReadVarint32(r(...eleven, 0, 0, 0, 0))).reason).toBe("varint longer than 10 bytes");
    expect(decodeError(() => pbReadInt64(r(...eleven))).reason).toBe("varint longer than 10 bytes");
  });

  it("rejects truncated varints with the offset", () => {
    const e = decodeError(() => pbReadVarint32(r(0x80, 0x80)));
    expect(e.reason).toBe("truncated varint");
    expect(e.offset).toBe(2);
    expect(decodeError(() => pbReadInt64(r(0xff))).reason).toBe("truncated varint");
    expect(decodeError(() => pbReadBool(r())).reason).toBe("truncated varint");
  });

  it("zigzag", () => {
    expect(pbReadSint32(r(0x00))).toBe(0);
    expect(pbReadSint32(r(0x01))).toBe(-1);
    expect(pbReadSint32(r(0x02))).toBe(1);
    expect(pbReadSint32(r(0xff, 0xff, 0xff, 0xff, 0x0f))).toBe(-2147483648);
    expect(pbReadSint32(r(0xfe, 0xff, 0xff, 0xff, 0x0f))).toBe(2147483647);
    expect(pbReadSint64(r(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01))).toBe(-(2n ** 63n));
    expect(pbReadSint64String(r(0x03))).toBe("-2");
  });

  it("64-bit values in each representation", () => {
    const max = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
    expect(pbReadUint64(r(...max))).toBe(2n ** 64n - 1n);
    expect(pbReadUint64String(r(...max))).toBe("18446744073709551615");
    expect(pbReadInt64(r(...max))).toBe(-1n);
    expect(pbReadInt64String(r(...max))).toBe("-1");
    expect(pbReadInt64Number(r(...max))).toBe(-1);
    // 2^53 + 1 needs bigint arithmetic.
    expect(pbReadInt64(r(0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10))).toBe(2n ** 53n + 1n);
  });

  it("bool reads any non-zero varint as true, also beyond 32 bits", () => {
    expect(pbReadBool(r(0x00))).toBe(false);
    expect(pbReadBool(r(0x01))).toBe(true);
    expect(pbReadBool(r(0x80, 0x80, 0x80, 0x80, 0x10))).toBe(true);
  });
});

describe("fixed width", () => {
  it("fixed32, fixed64, float, double, little-endian", () => {
    expect(pbReadFixed32(r(0x78, 0x56, 0x34, 0x12))).toBe(0x12345678);
    expect(pbReadFixed32(r(0xff, 0xff, 0xff, 0xff))).toBe(0xffffffff);
    expect(pbReadFixed64(r(1, 0, 0, 0, 0, 0, 0, 0x80))).toBe(2n ** 63n + 1n);
    expect(pbReadSfixed64(r(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff))).toBe(-1n);
    expect(pbReadFloat(r(0, 0, 0x80, 0x3f))).toBe(1);
    expect(pbReadDouble(r(0, 0, 0, 0, 0, 0, 0xf0, 0xbf))).toBe(-1);
  });

  it("reads floats from a view that does not start at offset 0 of its buffer", () => {
    const backing = new Uint8Array([9, 9, 9, 0, 0, 0x80, 0x3f]);
    expect(pbReadFloat(pbReader(backing.subarray(3)))).toBe(1);
  });

  it("rejects truncated values", () => {
    expect(decodeError(() => pbReadFixed32(r(1, 2, 3))).reason).toBe("truncated fixed32");
    expect(decodeError(() => pbReadDouble(r(1, 2, 3, 4, 5, 6, 7))).reason).toBe("truncated double");
  });
});

describe("length-delimited", () => {
  it("strings and bounds", () => {
    expect(pbReadString(r(3, 0x61, 0x62, 0x63))).toBe("abc");
    expect(decodeError(() => pbReadString(r(4, 0x61))).reason).toBe("length 4 runs past the end of the input");
    // A declared length of 2^32 - 1 fails at once instead of allocating.
    expect(decodeError(() => pbReadEnd(r(0xff, 0xff, 0xff, 0xff, 0x0f))).reason).toMatch(/^length 4294967295 runs past/);
  });

  it("strict strings reject invalid UTF-8, lenient ones replace it", () => {
    expect(pbReadString(r(2, 0xc3, 0x28))).toBe("\ufffd(");
    expect(decodeError(() => pbReadStringStrict(r(2, 0xc3, 0x28))).reason).toBe("invalid UTF-8 in a string field");
  });
});

describe("skipping unknown fields", () => {
  it("skips every wire type", () => {
    const reader = r(0x96, 0x01, 1, 2, 3, 4, 5, 6, 7, 8, 2, 0x61, 0x62, 1, 2, 3, 4);
    pbSkipField(reader, 0x08, 0);
    expect(reader.pos).toBe(2);
    pbSkipField(reader, 0x09, 0);
    expect(reader.pos).toBe(10);
    pbSkipField(reader, 0x0a, 0);
    expect(reader.pos).toBe(13);
    pbSkipField(reader, 0x0d, 0);
    expect(reader.pos).toBe(17);
  });

  it("skips groups to their matching end tag, nested", () => {
    // group 1 { varint 2: 5; group 3 { } } then end of group 1
    const reader = r(0x10, 0x05, 0x1b, 0x1c, 0x0c, 0x99);
    pbSkipField(reader, 0x0b, 0);
    expect(reader.pos).toBe(5);
  });

  it("limits group nesting", () => {
    const deep = new Uint8Array(2000).fill(0x0b);
    const e = decodeError(() => pbSkipField(pbReader(deep), 0x0b, 0));
    expect(e.reason).toBe("nesting deeper than 100");
  });

  it("rejects end-group without start, bad wire types, field number 0 and unterminated groups", () => {
    expect(decodeError(() => pbSkipField(r(), 0x0c, 0)).reason).toBe("unexpected end-group tag");
    expect(decodeError(() => pbSkipField(r(), 0x0e, 0)).reason).toBe("invalid wire type 6");
    expect(decodeError(() => pbSkipField(r(), 0x00, 0)).reason).toBe("invalid field number 0");
    expect(decodeError(() => pbSkipField(r(0x10, 0x01), 0x0b, 0)).reason).toBe("unterminated group");
  });

  it("never loops or throws anything but ProtobufDecodeError on random input", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const reader = pbReader(bytes);
        try {
          while (reader.pos < reader.len) {
            const before = reader.pos;
            pbSkipField(reader, pbReadVarint32(reader), 0);
            expect(reader.pos).toBeGreaterThan(before);
          }
        } catch (e) {
          expect(e).toBeInstanceOf(ProtobufDecodeError);
        }
      }),
    );
  });
});
