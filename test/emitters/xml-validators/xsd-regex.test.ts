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

  it("reports what JavaScript cannot express instead of miscompiling it", () => {
    expect(translateXsdPattern("[a-z-[aeiou]]")).toEqual({ unsupported: "character class subtraction" });
    expect(translateXsdPattern("\\i\\c*")).toEqual({ unsupported: "XML name-character escape \\i" });
    expect(translateXsdPattern("\\p{IsBasicLatin}+")).toEqual({ unsupported: "Unicode block escape \\p{IsBasicLatin}" });
    expect(translateXsdPattern("[^\\S]")).toEqual({ unsupported: "negated escape \\S inside a character class" });
    expect("unsupported" in translateXsdPattern("a{2")).toBe(true);
  });
});
