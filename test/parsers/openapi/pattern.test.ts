/** Schema patterns written for non-unicode engines are read as their authors' engines read them. */
import { describe, expect, it } from "vitest";
import { javaScriptPattern, unicodePattern, withoutIdentityEscapes } from "../../../src/parsers/openapi/pattern.js";
import { parse, type, v30, v31 } from "./helpers.js";

describe("withoutIdentityEscapes", () => {
  const rows: [source: string, want: string][] = [
    ["^[a-zA-Z0-9_\\-\\:]+$", "^[a-zA-Z0-9_\\-:]+$"], // DigitalOcean's tag pattern: `\-` stays in a class, `\:` goes
    ["a\\-b", "a-b"], // outside a class `-` is not special
    ["\\@\\#\\%\\&\\=\\,\\;\\'\\\"\\<\\>\\~\\`", "@#%&=,;'\"<>~`"],
    ["\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\/\\^\\$\\\\", "\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\/\\^\\$\\\\"], // syntax characters stay escaped
    ["\\d\\w\\s\\b\\u0041\\x41\\n", "\\d\\w\\s\\b\\u0041\\x41\\n"], // letter escapes are not touched
    ["[\\]\\:]", "[\\]:]"],
  ];
  it.each(rows)("%s -> %s", (source, want) => {
    expect(withoutIdentityEscapes(source)).toBe(want);
  });

  it("means the same strings as the original without the u flag", () => {
    const source = "^[a-zA-Z0-9_\\-\\:]+$";
    const before = new RegExp(source);
    const after = new RegExp(withoutIdentityEscapes(source), "u");
    for (const s of ["a:b", "a-b_c:9", "a b", "a\\b", "", "é", "a]"]) expect(after.test(s)).toBe(before.test(s));
  });
});

describe("unicodePattern", () => {
  it("keeps a valid pattern as written", () => {
    expect(unicodePattern("^\\p{L}+$")).toEqual({ source: "^\\p{L}+$" });
  });
  it("rewrites one that only fails for needless escapes", () => {
    expect(unicodePattern("^\\:$")).toEqual({ source: "^:$" });
  });
  it("still refuses one that is invalid either way", () => {
    expect(unicodePattern("^(\\:$")).toMatchObject({ error: expect.stringContaining("Invalid regular expression") });
  });
  it("translates Java's POSIX classes and anchors (AWS documents of the APIs.guru directory)", () => {
    expect(unicodePattern("\\A\\S[\\p{Print}]*\\z")).toEqual({ source: "^\\S[\\x20-\\x7E]*$" });
  });
  it("keeps a pattern only the legacy syntax reads as is (generated code compiles it without `u`)", () => {
    const source = "^[\\w-\\.]+$"; // a range from `\w` is an error with `u`; without, the class is \w, `-` and `.`
    expect(unicodePattern(source)).toEqual({ source });
    expect(() => new RegExp(source, "u")).toThrow();
  });
  it("refuses a legacy-only pattern with `\\p`: the legacy syntax reads the letter p, not the property meant", () => {
    expect(unicodePattern("^(\\p{LD}|x)+$")).toMatchObject({ error: expect.stringContaining("Invalid property name") });
  });
});

describe("javaScriptPattern: Java, PCRE and Python constructs as the author's engine read them", () => {
  const rows: [source: string, want: string][] = [
    ["\\p{Alnum}+", "[a-zA-Z0-9]+"],
    ["[\\p{Upper}\\p{Digit}_]+", "[A-Z0-9_]+"], // inside a class: the class's contents
    ["\\P{Digit}", "[^0-9]"],
    ["\\p{^Digit}", "[^0-9]"],
    ["[^\\p{Cntrl}]*", "[^\\x00-\\x1F\\x7F]*"],
    ["[\\p{Print}\\p{Blank}]", "[\\x20-\\x7E \\t]"],
    ["\\p{XDigit}{8}", "[0-9a-fA-F]{8}"],
    ["[\\p{all}]*", "[\\u0000-\\u{10FFFF}]*"],
    ["(\\p{IsLetter}|\\p{IsLatin})", "(\\p{L}|\\p{Script=Latin})"],
    ["[\\p{Han}\\p{Katakana}]", "[\\p{Script=Han}\\p{Script=Katakana}]"],
    ["\\p{L}\\p{Lu}", "\\p{L}\\p{Lu}"], // already JavaScript
    ["\\A[a-z]+\\z", "^[a-z]+$"],
    ["\\Aa\\Z", "^a(?=\\n?$)"],
    ["[\\A]", "[\\A]"], // not an anchor inside a class
    ["[[:alnum:]_]", "[a-zA-Z0-9_]"],
    ["[\\x{60}]", "[\\u{60}]"],
    ["(?P<name>\\d+)-(?P=name)", "(?<name>\\d+)-\\k<name>"],
    ["\\p{constructor}", "\\p{constructor}"], // names are looked up as own properties only
  ];
  it.each(rows)("%s -> %s", (source, want) => {
    expect(javaScriptPattern(source)).toBe(want);
  });

  it("the POSIX classes match exactly the ASCII characters Java's do", () => {
    const ascii = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i));
    const java: Record<string, (c: string) => boolean> = {
      Alnum: (c) => /[a-zA-Z0-9]/.test(c),
      Punct: (c) => "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".includes(c),
      Graph: (c) => c > " " && c < "\x7f",
      Print: (c) => c >= " " && c < "\x7f",
      Space: (c) => " \t\n\x0B\f\r".includes(c),
      Cntrl: (c) => c < " " || c === "\x7f",
    };
    for (const [name, member] of Object.entries(java)) {
      const re = new RegExp(`^${javaScriptPattern(`\\p{${name}}`)}$`, "u");
      expect(ascii.filter((c) => re.test(c)), name).toEqual(ascii.filter(member));
    }
  });
});

describe("patterns in schemas", () => {
  it("lowers the rewritten pattern into the facets", () => {
    const doc = parse(v30(`components:\n  schemas:\n    Tag: {type: string, pattern: "^[a-z\\\\-\\\\:]+$"}\n`));
    expect(type(doc, "#/components/schemas/Tag")).toMatchObject({ facets: { patterns: ["^[a-z\\-:]+$"] } });
  });
  it("drops an untranslatable one with a warning located at the pattern, keeping the type's other facets", () => {
    const doc = parse(v30(`components:\n  schemas:\n    Tag: {type: string, maxLength: 9, pattern: "^(\\\\:"}\n`));
    expect(type(doc, "#/components/schemas/Tag")).toMatchObject({ facets: { maxLength: 9, uncheckedPatterns: ["^(\\:"] } });
    expect((type(doc, "#/components/schemas/Tag") as { facets?: { patterns?: unknown } }).facets?.patterns).toBeUndefined();
    expect(doc.warnings).toEqual([{ file: "/spec/api.yaml", line: 5, column: 39, detail: expect.stringMatching(/^pattern "\^\(\\\\:" is not a JavaScript regular expression in any reading specforge knows \(Invalid regular expression: .*\): it is not checked$/) }]);
  });
  it("drops the AWS directory's untranslatable ones (a Java `\\p{LD}`, escaped property braces)", () => {
    for (const p of ["^(\\\\p{LD}|\\\\p{Punct}| )+$", "[^\\\\p\\\\{C\\\\}]*\\\\+"]) {
      const doc = parse(v30(`components:\n  schemas:\n    Tag: {type: string, pattern: "${p}"}\n`));
      expect(doc.warnings?.map((w) => w.detail)).toEqual([expect.stringContaining("it is not checked")]);
    }
  });
  it("drops an untranslatable patternProperties key with a warning, and additionalProperties beside it", () => {
    const doc = parse(v31(`components:\n  schemas:\n    M: {type: object, patternProperties: {"(x": {type: integer}, "^a": {type: string}}, additionalProperties: false}\n`));
    expect(doc.warnings?.map((w) => w.detail)).toEqual([expect.stringMatching(/^patternProperties key "\(x" is not a JavaScript regular expression .*nor is additionalProperties beside it$/)]);
  });
});
