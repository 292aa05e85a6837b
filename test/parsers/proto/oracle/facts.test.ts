import { describe, expect, it } from "vitest";
import { canonicalDefault, diffFacts, put, type Facts } from "./facts.js";

describe("oracle facts", () => {
  it("diffFacts names facts only one side has and values that differ, sorted", () => {
    const ours: Facts = new Map([["field .a.M.x number", "1"], ["field .a.M.y number", "2"], ["field .a.M.z packed", "true"]]);
    const theirs: Facts = new Map([["field .a.M.x number", "1"], ["field .a.M.y number", "3"], ["field .a.M.w number", "4"]]);
    expect(diffFacts(ours, theirs, "buf")).toEqual([
      "field .a.M.w number: only in buf (4)",
      "field .a.M.y number: ours 2, buf 3",
      "field .a.M.z packed: only in our IR (true)",
    ]);
    expect(diffFacts(ours, new Map(ours), "buf")).toEqual([]);
  });

  it("put refuses a second value for one fact", () => {
    const facts: Facts = new Map();
    put(facts, "message .a.M", "deprecated", false);
    expect(() => put(facts, "message .a.M", "deprecated", true)).toThrow("recorded twice");
  });

  it("canonicalDefault spells equal defaults alike", () => {
    expect(canonicalDefault("double", "9e9")).toBe(canonicalDefault("double", 9e9));
    expect(canonicalDefault("float", "1.1")).toBe(canonicalDefault("float", Math.fround(1.1)));
    expect(canonicalDefault("double", "-inf")).toBe("-Infinity");
    expect(canonicalDefault("float", "nan")).toBe("NaN");
    expect(canonicalDefault("int64", "-9123456789123456789")).toBe(canonicalDefault("int64", -9123456789123456789n));
    expect(canonicalDefault("bytes", "\u0000\u00fe")).toBe(canonicalDefault("bytes", new Uint8Array([0, 0xfe])));
    expect(canonicalDefault("bytes", "a")).not.toBe(canonicalDefault("bytes", new Uint8Array([0x62])));
  });
});
