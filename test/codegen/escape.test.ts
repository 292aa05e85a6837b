import { describe, expect, it } from "vitest";
import { docLines, lineCommentText, propertyKey, stringLiteral } from "../../src/codegen/escape.js";

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
