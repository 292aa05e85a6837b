import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base64Decode, base64Encode } from "../../../src/runtime/protojson/base64.js";
import {
  durationFromJson, durationToJson, fieldMaskFromJson, fieldMaskToJson, floatFromJson, floatToJson, int64FromJson,
  int32FromJson, ProtoJsonError, timestampFromJson, timestampToJson, uint64FromJson,
} from "../../../src/runtime/index.js";

describe("base64", () => {
  it("matches Node's encoder and reads standard, URL-safe, padded and unpadded text", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const std = Buffer.from(bytes).toString("base64");
        expect(base64Encode(bytes)).toBe(std);
        expect(base64Decode(std)).toEqual(bytes);
        expect(base64Decode(Buffer.from(bytes).toString("base64url"))).toEqual(bytes);
        expect(base64Decode(std.replace(/=+$/, ""))).toEqual(bytes);
      }),
    );
  });

  it("rejects what is not base64", () => {
    for (const bad of ["a", "ab!c", "ab=c", "abcde", "YQ=", "é", "YQ===", "====", "Y Q==", "YQ==\n"]) expect(base64Decode(bad)).toBeUndefined();
  });

  it("accepts and decodes exactly what a strict check in front of atob accepts, for any text", () => {
    // The decoder is one hand-written pass; the oracle is the platform's atob behind the rules of ProtoJSON base64
    // (either alphabet, at most two '=' and only on a multiple of four, no whitespace).
    const oracle = (text: string): Uint8Array | undefined => {
      if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) return undefined;
      if (text.endsWith("=") && text.length % 4 !== 0) return undefined;
      let standard = text.replace(/-/g, "+").replace(/_/g, "/");
      if (!text.endsWith("=")) standard += "===".slice(0, (4 - (standard.length % 4)) % 4);
      try {
        return Uint8Array.from(atob(standard), (ch) => ch.charCodeAt(0));
      } catch {
        return undefined;
      }
    };
    const piece = fc.constantFrom("A", "Q", "z", "0", "+", "/", "-", "_", "=", "==", " ", "!", "é", "YQ", "YWJj");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (parts) => {
        const text = parts.join("");
        expect(base64Decode(text)).toEqual(oracle(text));
      }),
      { seed: 20261122, numRuns: 5000 },
    );
  });
});

describe("numbers", () => {
  it("reads integers from numbers and numeric strings, exactly for 64 bits", () => {
    expect(int32FromJson("-2147483648", "")).toBe(-2147483648);
    expect(int32FromJson(1e2, "")).toBe(100);
    expect(int32FromJson("1e2", "")).toBe(100);
    expect(int64FromJson("-9223372036854775808", "")).toBe(-9223372036854775808n);
    expect(uint64FromJson("18446744073709551615", "")).toBe(18446744073709551615n);
    for (const bad of ["", " 1", "0x10", "1.5", "+1", "01", true, null, [], 2 ** 31]) {
      expect(() => int32FromJson(bad, "/p", "k")).toThrow(ProtoJsonError);
    }
    expect(() => int64FromJson("9223372036854775808", "")).toThrow(/out of range/);
  });

  it("floats: shortest text that reads back as the same float32", () => {
    fc.assert(
      fc.property(fc.float({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const json = floatToJson(x);
        expect(typeof json).toBe("number");
        expect(Math.fround(json as number)).toBe(Math.fround(x));
        expect(floatFromJson(json, "")).toBe(Math.fround(x));
      }),
    );
    expect(floatToJson(NaN)).toBe("NaN");
    expect(floatToJson(-Infinity)).toBe("-Infinity");
    expect(() => floatFromJson(3.5e38, "")).toThrow(/out of range/);
  });
});

describe("Timestamp", () => {
  const range = { min: -62135596800, max: 253402300799 };
  it("round-trips every second and nanos in range, and agrees with Date", () => {
    fc.assert(
      fc.property(fc.integer(range), fc.integer({ min: 0, max: 999_999_999 }), (s, nanos) => {
        const text = timestampToJson(BigInt(s), nanos);
        expect(text.slice(0, 19)).toBe(new Date(s * 1000).toISOString().slice(0, 19));
        expect(text).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3}|\.\d{6}|\.\d{9})?Z$/);
        expect(timestampFromJson(text, "")).toEqual({ seconds: BigInt(s), nanos });
      }),
    );
  });
  it("applies offsets and rejects what RFC 3339 does not allow", () => {
    expect(timestampFromJson("1970-01-01T08:00:01+08:00", "")).toEqual({ seconds: 1n, nanos: 0 });
    expect(timestampFromJson("1970-01-01T00:00:00.5-00:30", "")).toEqual({ seconds: 1800n, nanos: 500_000_000 });
    for (const bad of ["1970-01-01 00:00:00Z", "1970-1-01T00:00:00Z", "1970-01-01T00:00:60Z", "10000-01-01T00:00:00Z", "9999-12-31T23:59:59-01:00"]) {
      expect(() => timestampFromJson(bad, "")).toThrow(ProtoJsonError);
    }
    expect(() => timestampToJson(0n, 1_000_000_000)).toThrow(ProtoJsonError);
  });
});

describe("Duration", () => {
  it("round-trips and writes 0, 3, 6 or 9 fractional digits", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -315576000000n, max: 315576000000n }), fc.integer({ min: 0, max: 999_999_999 }), (s, n) => {
        const nanos = s < 0n ? -n : s > 0n ? n : n;
        const text = durationToJson(s, nanos);
        expect(durationFromJson(text, "")).toEqual({ seconds: s, nanos: nanos === 0 ? 0 : nanos });
      }),
    );
    expect(durationToJson(0n, -500_000_000)).toBe("-0.500s");
    expect(durationToJson(1n, 10_000)).toBe("1.000010s");
    expect(() => durationFromJson("1.0000000001s", "")).toThrow(ProtoJsonError);
  });
});

describe("FieldMask", () => {
  it("converts snake_case paths and refuses the ones that do not round-trip", () => {
    expect(fieldMaskToJson(["user.display_name", "photo"])).toBe("user.displayName,photo");
    expect(fieldMaskFromJson("user.displayName,photo", "")).toEqual(["user.display_name", "photo"]);
    expect(fieldMaskFromJson("", "")).toEqual([]);
    for (const bad of [["fooBar"], ["foo_3_bar"], ["foo_"]]) expect(() => fieldMaskToJson(bad)).toThrow(ProtoJsonError);
  });
});
