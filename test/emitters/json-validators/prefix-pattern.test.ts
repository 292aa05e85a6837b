import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { prefixPattern, prefixPatternBody } from "../../../src/emitters/json-validators/prefix-pattern.js";

function compiled(source: string): (s: string) => boolean {
  const p = prefixPattern(source);
  if (!p) throw new Error(`not a prefix pattern: ${source}`);
  return new Function("s", prefixPatternBody(p).join("\n")) as (s: string) => boolean;
}

describe("fixed-prefix patterns", () => {
  it("are recognized only when matching without backtracking decides what the RegExp decides", () => {
    for (const ok of ["^https?://", "^v", "^ab$", "^a?b", "^x-y_z:", "^a/b"]) expect([ok, prefixPattern(ok) !== undefined]).toEqual([ok, true]);
    for (const no of ["https?://", "^a?a", "^a?b?", "^a*", "^[ab]", "^a.b", "^(a)", "^a|b", "^\\d", "^é", "^", "^$", "^a{2}"]) {
      expect([no, prefixPattern(no) !== undefined]).toEqual([no, false]);
    }
  });

  it("match exactly the strings the RegExp matches", () => {
    const item = fc.constantFrom("a", "b", "s", ":", "/", "a?", "b?", "s?", "-");
    const text = fc.array(fc.constantFrom("a", "b", "s", ":", "/", "-", "x", "\u{1F600}", ""), { maxLength: 7 });
    let checked = 0;
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 5 }), fc.boolean(), text, (items, dollar, parts) => {
        const source = "^" + items.join("") + (dollar ? "$" : "");
        if (!prefixPattern(source)) return;
        checked++;
        const s = parts.join("");
        expect(compiled(source)(s)).toBe(new RegExp(source, "u").test(s));
      }),
      { seed: 20261122, numRuns: 4000 },
    );
    expect(checked).toBeGreaterThan(1000);
  });

  it("take a literal prefix longer than V8 takes as call arguments (a hostile spec's pattern)", () => {
    const literal = "a".repeat(200_000);
    const body = prefixPatternBody(prefixPattern(`^${literal}`)!);
    expect(body.join("\n")).toContain(JSON.stringify(literal));
  });
});
