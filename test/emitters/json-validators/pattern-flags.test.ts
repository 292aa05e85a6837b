import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { unicodeFlagChangesNothing } from "../../../src/emitters/json-validators/context.js";

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
