import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { restQuery, type RestQuery } from "../../../src/runtime/rest/query.js";

function pairs(query: RestQuery): [string, string][] {
  const out: [string, string][] = [];
  query.forEach((value, key) => out.push([key, value]));
  return out;
}

describe("restQuery", () => {
  it("reads exactly what URLSearchParams reads, for any query string", () => {
    // Built from the characters that matter to splitting and decoding, so the hand-split path and the
    // URLSearchParams fallback are both exercised on their edges (empty pieces, '=' in values, '%', '+', '?').
    const piece = fc.constantFrom("a", "b", "=", "&", "%", "%41", "%zz", "+", "?", "é", "", "[x]");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.constantFrom("a", "b", "", "a[x]"), (parts, name) => {
        const search = parts.join("");
        const ours = restQuery(search);
        const web = new URLSearchParams(search);
        expect(pairs(ours)).toEqual([...web]);
        expect(ours.get(name)).toBe(web.get(name));
        expect(ours.getAll(name)).toEqual(web.getAll(name));
      }),
      { seed: 20261122, numRuns: 2000 },
    );
  });

  it("splits a plain query by hand and leaves anything to decode to URLSearchParams", () => {
    expect(restQuery("fields=id,name&page=2")).not.toBeInstanceOf(URLSearchParams);
    expect(restQuery("q=a%20b")).toBeInstanceOf(URLSearchParams);
    expect(restQuery("q=a+b").get("q")).toBe("a b");
    expect(restQuery("?q=1").get("q")).toBe("1");
    expect(pairs(restQuery("a&&b=&=c&d=1=2"))).toEqual([["a", ""], ["b", ""], ["", "c"], ["d", "1=2"]]);
  });
});
