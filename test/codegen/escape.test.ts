import { describe, expect, it } from "vitest";
import { docLines, lineCommentText, propertyKey, stringLiteral, valueLiteral } from "../../src/codegen/escape.js";

describe("stringLiteral", () => {
  it.each([
    ["plain", '"plain"'],
    ['quote " and \\ backslash', '"quote \\" and \\\\ backslash"'],
    ["${injection}`", '"${injection}`"'],
    ["line\nbreak\r", '"line\\nbreak\\r"'],
    ["sep\u2028para\u2029", '"sep\\u2028para\\u2029"'],
    ["nul\u0000", '"nul\\u0000"'],
  ])("escapes %j", (value, want) => {
    expect(stringLiteral(value)).toBe(want);
    // The literal evaluates back to the same value.
    expect(new Function(`return ${want};`)()).toBe(value);
  });
});

describe("propertyKey", () => {
  it("keeps identifiers bare and quotes everything else", () => {
    expect(propertyKey("sessionId")).toBe("sessionId");
    expect(propertyKey("$type")).toBe("$type");
    expect(propertyKey("mime-type")).toBe('"mime-type"');
    expect(propertyKey("1st")).toBe('"1st"');
    expect(propertyKey("a\"b")).toBe('"a\\"b"');
  });
});

describe("docLines", () => {
  it("cannot close the comment early", () => {
    expect(docLines("evil */ alert(1) /*")).toEqual(["evil *\\/ alert(1) /*"]);
  });
  it("turns line separators into lines and drops control characters", () => {
    expect(docLines("a\u2028b\u2029c\r\nd\u0007")).toEqual(["a", "b", "c", "d"]);
  });
  it("trims blank edges and trailing space", () => {
    expect(docLines("\n\n  first  \nsecond\n\n")).toEqual(["  first", "second"]);
  });
  it("flattens to one line for line comments", () => {
    expect(lineCommentText("a\nb\u2028c")).toBe("a b c");
  });
});

describe("valueLiteral", () => {
  /** Evaluate a literal the way the generated module would. */
  const run = (code: string): unknown => new Function(`return (${code});`)() as unknown;

  it.each<[string, unknown]>([
    ["JSON data", { a: [1, -2.5, "x\u2028y", true, null], "b-c": { "": "" }, "*/": "</script>" }],
    ["in-memory values", { n: 12345678901234567890n, d: new Date("2020-02-29T12:00:00Z"), bytes: new Uint8Array([0, 255]), neg: -0 }],
    ["numbers JSON cannot hold", [Number.NaN, Infinity, -Infinity]],
    ["a __proto__ key as an own property", JSON.parse('{"__proto__": {"polluted": true}}') as unknown],
    ["nesting wider than a line", { list: Array.from({ length: 30 }, (_, i) => ({ id: i, name: `item ${i}` })) }],
  ])("%s evaluate back to the value", (_, value) => {
    const code = valueLiteral(value);
    expect(run(code)).toEqual(value);
    expect(code).not.toContain("\u2028");
  });

  it("keeps spec text inside string literals", () => {
    const code = valueLiteral({ "x: 1 }); process.exit(); ({ y": "\"); process.exit(); (\"" });
    expect(run(code)).toEqual({ "x: 1 }); process.exit(); ({ y": "\"); process.exit(); (\"" });
  });

  it("spreads a long value over indented lines and keeps a short one on one", () => {
    expect(valueLiteral({ a: 1, b: [true] })).toBe("{ a: 1, b: [true] }");
    expect(valueLiteral({}), "empty").toBe("{}");
    const long = valueLiteral({ text: "x".repeat(120) }, "    ");
    expect(long).toBe(`{\n      text: "${"x".repeat(120)}",\n    }`);
  });

  it("refuses cycles, functions and class instances", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => valueLiteral(cyclic)).toThrow(TypeError);
    expect(() => valueLiteral({ f: () => 1 })).toThrow(TypeError);
    expect(() => valueLiteral(new Map())).toThrow(/Map/);
    // A shared (not cyclic) value is fine.
    const shared = { x: 1 };
    expect(run(valueLiteral([shared, shared]))).toEqual([{ x: 1 }, { x: 1 }]);
  });
});
