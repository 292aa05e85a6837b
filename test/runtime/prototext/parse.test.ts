/**
 * The runtime text reader on hand-written tables: hostile sizes and nesting give TextFormatError or the right
 * bytes, never a stack overflow; printing and reading the same table agree.
 */
import { describe, expect, it } from "vitest";
import { parseTextToBinary, printText, TextFormatError, type TextMessage } from "../../../src/runtime/prototext/index.js";

const node: TextMessage = {
  fields: [
    { name: "data", number: 1, prop: "data", value: { kind: "scalar", scalar: "bytes" } },
    { name: "child", number: 2, prop: "child", value: { kind: "message", message: () => node } },
    { name: "Grp", number: 3, prop: "grp", value: { kind: "message", message: () => node, group: true } },
  ],
  unknownProp: "$unknown",
};

describe("parseTextToBinary", () => {
  it("writes a 300 kB string and a group holding it without spreading them onto the stack", () => {
    const big = "a".repeat(300_000);
    const bytes = parseTextToBinary(`Grp { data: "${big}" "b" }`, node);
    // group start (3<<3|3), data tag + 3-byte length, payload, group end (3<<3|4)
    expect(bytes.length).toBe(1 + 1 + 3 + 300_001 + 1);
    expect([bytes[0], bytes.at(-1)]).toEqual([0x1b, 0x1c]);
  });

  it("refuses nesting deeper than 100 with a position instead of overflowing", () => {
    const deep = "child { ".repeat(200) + "}".repeat(200);
    expect(() => parseTextToBinary(deep, node)).toThrow(TextFormatError);
    expect(() => parseTextToBinary(deep, node)).toThrow(/^1:\d+: messages nested deeper than 100$/);
  });

  it("prints what it reads", () => {
    const value = { data: new Uint8Array([0, 0x22, 0xe9]), child: { data: new Uint8Array([0x41]) } };
    const text = printText(value, node);
    expect(text).toBe('data: "\\000\\"\\351"\nchild {\n  data: "A"\n}\n');
    expect([...parseTextToBinary(text, node)]).toEqual([0x0a, 3, 0, 0x22, 0xe9, 0x12, 3, 0x0a, 1, 0x41]);
  });
});
