import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonParse, JsonSyntaxError } from "../../../src/runtime/json/parse.js";

function syntaxError(text: string, options?: Parameters<typeof jsonParse>[1]): string {
  try {
    jsonParse(text, options);
  } catch (e) {
    expect(e).toBeInstanceOf(JsonSyntaxError);
    return (e as Error).message;
  }
  throw new Error(`parsed: ${text}`);
}

describe("jsonParse", () => {
  it("agrees with JSON.parse on any JSON text without duplicate keys (property test)", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        expect(jsonParse(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 500, seed: 3 },
    );
    const escapes = '"\\u00e9\\ud83d\\ude00\\n\\t\\"\\\\\\/\\b\\f\\r"';
    expect(jsonParse(escapes)).toBe(JSON.parse(escapes));
  });

  it.each([
    ["", "unexpected end of text"],
    ["{", "expected a property name"],
    ['{"a" 1}', "expected ':'"],
    ['{"a":1,}', "expected a property name"],
    ["[1,]", "unexpected character"],
    ["[1 2]", "expected ',' or ']'"],
    ["01", "unexpected text after"],
    ["1.", "expected digits after the decimal point"],
    ["-", "expected digits"],
    ["1e", "expected digits in the exponent"],
    ["tru", "unexpected character"],
    ['"a', "unterminated string"],
    ['"a\nb"', "control character"],
    ['"\\x"', "invalid escape"],
    ['"\\u12"', "invalid \\u escape"],
    ["NaN", "unexpected character"],
    ["\uFEFF{}", "unexpected character"],
  ])("rejects %j (%s) like JSON.parse does", (text, reason) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(syntaxError(text)).toContain(reason);
  });

  it("says where the error is", () => {
    const e = (() => {
      try {
        jsonParse('{\n  "a": 1,\n  "a": 2\n}');
      } catch (err) {
        return err as JsonSyntaxError;
      }
      throw new Error("no error");
    })();
    expect([e.line, e.column, e.message]).toEqual([3, 3, 'invalid JSON at line 3 column 3: duplicate key "a"']);
  });

  it("rejects duplicate keys, which JSON.parse would silently resolve to the last", () => {
    expect(JSON.parse('{"a":1,"a":2}')).toEqual({ a: 2 });
    expect(syntaxError('{"a":1,"a":2}')).toContain('duplicate key "a"');
    expect(syntaxError('{"__proto__":1,"__proto__":2}')).toContain("duplicate key");
  });

  it("limits depth, also when the caller asks for more than the stack holds", () => {
    expect(syntaxError("[".repeat(129) + "]".repeat(129))).toContain("nesting deeper than 128 levels");
    expect(jsonParse("[".repeat(128) + "]".repeat(128))).toBeInstanceOf(Array);
    expect(syntaxError('{"a":{"b":[]}}', { maxDepth: 2 })).toContain("deeper than 2");
    const huge = "[".repeat(1_000_000) + "]".repeat(1_000_000);
    expect(syntaxError(huge, { maxDepth: 10_000_000 })).toMatch(/nesting too deep/);
  });

  it("rejects numbers beyond a double; keeps big integers exact when asked", () => {
    expect(syntaxError("1e400")).toContain("out of range");
    expect(syntaxError("-" + "9".repeat(400))).toContain("out of range");
    expect(jsonParse("9007199254740993")).toBe(9007199254740992);
    expect(jsonParse("[9007199254740993, -9223372036854775808, 1.5, 1e2, 12]", { bigints: true })).toEqual([9007199254740993n, -9223372036854775808n, 1.5, 100, 12]);
  });

  it("makes __proto__ an own property, never a prototype", () => {
    const value = jsonParse('{"__proto__": {"polluted": true}, "a": {"__proto__": []}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["__proto__", "a"]);
    expect(value).toEqual(JSON.parse('{"__proto__": {"polluted": true}, "a": {"__proto__": []}}'));
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});
