/** XSD's order of date/time values and durations (range facets on values kept as lexical strings). */
import { describe, expect, it } from "vitest";
import { xsdCompare } from "../../../src/runtime/xml/checks.js";
import { compareXsdTemporal } from "../../../src/runtime/xml/temporal-order.js";

describe("compareXsdTemporal", () => {
  it.each([
    ["1970-01-01", "1970-01-02", -1],
    ["2016-09-05", "2016-09-05", 0],
    ["10000-01-01", "9999-12-31", 1],
    ["-0001-01-01", "0000-01-01", -1],
    ["1970-01-01T00:00:00", "1970-01-01T00:00:01", -1],
    ["1970-01-01T00:00:00.5", "1970-01-01T00:00:00.25", 1],
    ["2000-01-01T12:00:00+02:00", "2000-01-01T10:00:00Z", 0],
    ["13:20:00-05:00", "18:20:00Z", 0],
    ["---24", "---25", -1],
    ["--12", "--01", 1],
    ["--02-29", "--03-01", -1],
    ["1999-12", "2000-01", -1],
    ["2001", "2000", 1],
    ["P1Y", "P12M", 0],
    ["P1970Y01M01DT00H00M00S", "P1970Y01M01DT00H00M01S", -1],
    ["-P1D", "PT0S", -1],
    ["P1D", "PT24H", 0],
  ])("%s vs %s: %i", (a, b, want) => {
    expect(compareXsdTemporal(a, b)).toBe(want);
  });

  it("leaves indeterminate and mixed comparisons undefined", () => {
    expect(compareXsdTemporal("P1M", "P30D")).toBeUndefined();
    expect(compareXsdTemporal("1970-01-01", "1970-01-01T00:00:00")).toBeUndefined();
    expect(compareXsdTemporal("---01", "--01")).toBeUndefined();
    expect(compareXsdTemporal("abc", "1970-01-01")).toBeUndefined();
  });

  it("is what xsdCompare uses for strings that are not decimals", () => {
    expect(xsdCompare("1970-01-01", "1970-01-02")).toBe(-1);
    expect(xsdCompare("---25", "---25")).toBe(0);
    expect(xsdCompare("12.5", "12.25")).toBe(1);
  });
});
