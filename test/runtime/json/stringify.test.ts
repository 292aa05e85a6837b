import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonBase64Decode, jsonBase64Encode } from "../../../src/runtime/json/base64.js";
import { JsonEncodeError } from "../../../src/runtime/json/errors.js";
import { jsonStringify } from "../../../src/runtime/json/stringify.js";
import { jsonFirstDuplicate } from "../../../src/runtime/json/values.js";

describe("jsonStringify", () => {
  it("writes what JSON.stringify writes for JSON values (property test)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonStringify(value)).toBe(JSON.stringify(value));
      }),
      { numRuns: 500, seed: 5 },
    );
  });

  it("writes bigint, Date and bytes; refuses NaN, functions and cycles", () => {
    expect(jsonStringify({ n: 2n ** 70n, d: new Date(0), b: new Uint8Array([1, 2, 3]), u: undefined, a: [undefined] })).toBe(
      `{"n":${2n ** 70n},"d":"1970-01-01T00:00:00.000Z","b":"AQID","a":[null]}`,
    );
    expect(() => jsonStringify({ x: Number.NaN })).toThrow(JsonEncodeError);
    expect(() => jsonStringify({ f: () => 1 })).toThrow(JsonEncodeError);
    const cycle: Record<string, unknown> = {};
    cycle["self"] = cycle;
    expect(() => jsonStringify(cycle)).toThrow(/nested too deeply/);
  });
});

describe("base64", () => {
  it("round-trips and matches Buffer", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        const text = jsonBase64Encode(bytes);
        expect(text).toBe(Buffer.from(bytes).toString("base64"));
        expect(jsonBase64Decode(text)).toEqual(bytes);
      }),
      { numRuns: 300, seed: 9 },
    );
    expect(jsonBase64Decode("abc")).toBeUndefined();
    expect(jsonBase64Decode("ab=c")).toBeUndefined();
  });
});

describe("jsonFirstDuplicate", () => {
  it("compares as JSON: key order does not matter, types do", () => {
    expect(jsonFirstDuplicate([1, "1", true, "true", null, "null"])).toBe(-1);
    expect(jsonFirstDuplicate([{ a: 1, b: [2] }, { b: [2], a: 1 }])).toBe(1);
    expect(jsonFirstDuplicate([1, 2, 1n])).toBe(2);
    expect(jsonFirstDuplicate([["a"], ['"a"']])).toBe(-1);
    expect(jsonFirstDuplicate([{ a: "1" }, { a: 1 }])).toBe(-1);
  });
});
