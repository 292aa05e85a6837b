/** Schema patterns written for non-unicode engines are read as their authors' engines read them. */
import { describe, expect, it } from "vitest";
import { unicodePattern, withoutIdentityEscapes } from "../../../src/parsers/openapi/pattern.js";
import { parseError, parse, type, v30 } from "./helpers.js";

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
});

describe("patterns in schemas", () => {
  it("lowers the rewritten pattern into the facets", () => {
    const doc = parse(v30(`components:\n  schemas:\n    Tag: {type: string, pattern: "^[a-z\\\\-\\\\:]+$"}\n`));
    expect(type(doc, "#/components/schemas/Tag")).toMatchObject({ facets: { patterns: ["^[a-z\\-:]+$"] } });
  });
  it("reports an invalid one at the pattern", () => {
    expect(parseError(v30(`components:\n  schemas:\n    Tag: {type: string, pattern: "^(\\\\:"}\n`))).toMatch(
      /^\/spec\/api\.yaml:5:25: pattern "\^\(\\\\:" is not a valid regular expression: /,
    );
  });
});
