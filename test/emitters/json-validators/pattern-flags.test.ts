import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compilesWithUnicodeFlag, unicodeFlagChangesNothing } from "../../../src/emitters/json-validators/context.js";
import { diagnostics, fn, generateInline, v31 } from "./helpers.js";

describe("patterns compiled without the u flag", () => {
  const plain = ["^https?://", "^[a-z0-9_-]+$", "^(ab|cd)*x?$", "^[A-Z]{2,3}$", "b+", "^$", "(?<y>[0-9]{4})-(?=[0-9])", "a|[]|b"];
  const needsU = ["^.$", "^[^a]$", "\\u{1F600}", "\\p{L}+", "^\\S$", "é", "^\\w+$"];

  it("are only the ASCII patterns without escapes, '.' or negated classes", () => {
    for (const p of plain) expect([p, unicodeFlagChangesNothing(p)]).toEqual([p, true]);
    for (const p of needsU) expect([p, unicodeFlagChangesNothing(p)]).toEqual([p, false]);
  });

  it("match exactly the strings they match with it, astral characters and lone surrogates included", () => {
    const text = fc.array(fc.constantFrom("a", "b", "x", "-", "_", "0", "9", "AB", "https://", "\u{1F600}", "\ud800", "\udc00", "é", "", "ab"), { maxLength: 8 });
    fc.assert(
      fc.property(fc.constantFrom(...plain), text, (pattern, parts) => {
        const s = parts.join("");
        expect(new RegExp(pattern).test(s)).toBe(new RegExp(pattern, "u").test(s));
      }),
      { seed: 20261122, numRuns: 3000 },
    );
  });
});

describe("patterns only JavaScript's legacy syntax accepts", () => {
  // DigitalOcean's tag names: `\:` escapes a character that needs no escape, which the `u` flag refuses.
  const LEGACY = "^[a-zA-Z0-9_\\-\\:]+$";

  it("are compiled without the u flag instead of refusing the document", async () => {
    expect(compilesWithUnicodeFlag(LEGACY)).toBe(false);
    expect(compilesWithUnicodeFlag("^\\p{L}+$")).toBe(true);
    const g = await generateInline(v31(`paths: {}
components:
  schemas:
    Tag: {type: string, pattern: "${LEGACY.replaceAll("\\", "\\\\")}"}
`));
    // The OpenAPI reader drops the needless escape (src/parsers/openapi/pattern.ts), so the pattern keeps the u flag;
    // a pattern that reaches the emitter in legacy syntax anyway is compiled without it (compilesWithUnicodeFlag).
    expect(g.files.get([...g.files.keys()].find((k) => k.endsWith("validate.ts"))!)).toContain(`new RegExp(${JSON.stringify("^[a-zA-Z0-9_\\-:]+$")}, "u");`);
    const is = fn<(v: unknown) => boolean>(g.validate, "isTag");
    expect(["env:prod", "a-b_c", "", "a b", "é"].map(is)).toEqual([true, true, false, false, false]);
    expect(diagnostics(g)).toEqual([]);
  });

  it("a pattern that compiles neither way is not checked (a parser warning), and the rest of the type still is", async () => {
    const g = await generateInline(v31(`paths: {}\ncomponents: {schemas: {Tag: {type: string, maxLength: 3, pattern: "[a-"}}}\n`));
    const is = fn<(v: unknown) => boolean>(g.validate, "isTag");
    expect(["[a-", "zzz", "", "abcd", 5].map(is)).toEqual([true, true, true, false, false]);
    expect(g.files.get([...g.files.keys()].find((k) => k.endsWith("types.ts"))!)).toContain("@pattern [a- (not checked: not a JavaScript regular expression)");
    expect(diagnostics(g)).toEqual([]);
  });
});
