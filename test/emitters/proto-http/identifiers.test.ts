import { describe, expect, it } from "vitest";
import { nameClaimer, propertyAccess } from "../../../src/emitters/proto-http/identifiers.js";
import { plural, stemOf } from "../../../src/naming/derived.js";

describe("identifiers for derived names", () => {
  it.each([["Entry", "Entries"], ["Item", "Items"], ["Status", "Statuses"], ["Box", "Boxes"], ["Day", "Days"], ["Batch", "Batches"]])(
    "plural(%s) = %s",
    (word, want) => expect(plural(word)).toBe(want),
  );

  it("drops the naming pass's clash marker from stems only", () => {
    expect(stemOf("Response$")).toBe("Response");
    expect(stemOf("A$b")).toBe("A$b");
  });

  it("claims unique names, avoiding taken ones", () => {
    const claim = nameClaimer(["fetchPage"]);
    expect([claim("fetchPage"), claim("fetchPage"), claim("other")]).toEqual(["fetchPage_2", "fetchPage_3", "other"]);
  });

  it("quotes property access for names that are not identifiers", () => {
    expect(propertyAccess("page", "entry")).toBe("page.entry");
    expect(propertyAccess("page", 'a"b')).toBe('page["a\\"b"]');
  });
});
