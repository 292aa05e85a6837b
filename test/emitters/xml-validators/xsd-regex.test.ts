import { describe, expect, it } from "vitest";
import { translateXsdPattern } from "../../../src/emitters/xml-validators/xsd-regex.js";

function matcher(pattern: string): RegExp {
  const t = translateXsdPattern(pattern);
  if (!("source" in t)) throw new Error(t.unsupported);
  return new RegExp(t.source, "u");
}

describe("XSD patterns -> JavaScript", () => {
  it("anchors implicitly", () => {
    const id = matcher("[a-zA-Z0-9]{18}");
    expect(id.test("001000000000000AAA")).toBe(true);
    expect(id.test("x001000000000000AAA")).toBe(false);
    expect(id.test("001000000000000AAA\n")).toBe(false);
  });

  it("treats ^ and $ as ordinary characters and . as any character but line ends", () => {
    expect(matcher("a^b$").test("a^b$")).toBe(true);
    expect(matcher(".+").test("a\nb")).toBe(false);
    expect(matcher(".+").test("a\u2028b")).toBe(true);
  });

  it("maps \\d, \\s, \\w to XSD's meanings", () => {
    expect(matcher("\\d+").test("١٢٣")).toBe(true); // Arabic-Indic digits are \p{Nd}
    expect(matcher("\\s").test("\u00a0")).toBe(false); // XSD \s is only space, tab, CR, LF
    expect(matcher("\\w+").test("abc")).toBe(true);
    expect(matcher("\\w").test("-")).toBe(false);
    expect(matcher("\\d{5}(\\-\\d{4})?").test("12345-6789")).toBe(true);
    expect(matcher("[\\-]?\\d{1,2}\\.\\d+").test("-12.5")).toBe(true);
  });

  it("translates XSD-only syntax exactly: \\i, \\c, blocks, class subtraction, negated escapes in a class", () => {
    const vowelless = matcher("[a-z-[aeiou]]+");
    expect(["bcd", "xyz", "abc", "e", "B"].map((s) => vowelless.test(s))).toEqual([true, true, false, false, false]);
    const name = matcher("\\i\\c*");
    expect(["_a1", "x:y-z.0", "a\u00b7", "\u00e9t\u00e9", "1a", "-a", "a b", ""].map((s) => name.test(s))).toEqual([true, true, true, true, false, false, false, false]);
    expect(["ab", "a1", "1"].map((s) => matcher("\\I\\C").test(s))).toEqual([false, false, false]);
    expect(["  ", "1 ", "\u00b7a"].map((s) => matcher("\\I\\C").test(s))).toEqual([true, true, false]);
    const latin = matcher("\\p{IsBasicLatin}+");
    expect(["abc~\u007f", "caf\u00e9"].map((s) => latin.test(s))).toEqual([true, false]);
    expect(["\u03b1", "\u0400", "a"].map((s) => matcher("[\\p{IsGreek}\\p{IsCyrillic}]").test(s))).toEqual([true, true, false]);
    expect(["\u00e9", "a"].map((s) => matcher("\\P{IsBasicLatin}").test(s))).toEqual([true, false]);
    // Negated escapes inside a class and nested subtraction, evaluated into ranges.
    expect([" ", "\t", "a"].map((s) => matcher("[^\\S]").test(s))).toEqual([true, true, false]);
    expect(["a", "_", "5", "\u0663", "-"].map((s) => matcher("[\\w-[\\d]]").test(s))).toEqual([true, false, false, false, false]);
    expect(["b", "a", "e", "z"].map((s) => matcher("[a-z-[a-f-[e]]]").test(s))).toEqual([false, false, true, true]);
    expect(["+", "-", "a"].map((s) => matcher("[+-]").test(s))).toEqual([true, true, false]);
  });

  it("reports what it cannot read instead of miscompiling it", () => {
    expect(translateXsdPattern("\\p{IsNoSuchBlock}")).toEqual({ unsupported: "unknown Unicode block \\p{IsNoSuchBlock}" });
    expect(translateXsdPattern("[a-z")).toEqual({ unsupported: "unterminated character class" });
    expect(translateXsdPattern("\\q")).toEqual({ unsupported: "unknown escape \\q" });
    expect("unsupported" in translateXsdPattern("a{2")).toBe(true);
  });
});
