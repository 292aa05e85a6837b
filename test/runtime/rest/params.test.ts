import { describe, expect, it } from "vitest";
import type { ValidationIssue } from "../../../src/runtime/index.js";
import {
  restBoolean, restDeepObject, restFormArray, restFormNumber, restInteger, restItems, restNumber,
} from "../../../src/runtime/rest/params.js";

describe("parameter coercion", () => {
  it("coerces integers, numbers and booleans, reporting failures with their pointer", () => {
    const issues: ValidationIssue[] = [];
    expect(restInteger("42", "/path/id", issues)).toBe(42);
    expect(restInteger("-3", "/path/id", issues)).toBe(-3);
    expect(restInteger("4.5", "/path/id", issues)).toBeUndefined();
    expect(restInteger("99999999999999999999", "/path/id", issues)).toBeUndefined();
    expect(restNumber("1e3", "/query/x", issues)).toBe(1000);
    expect(restNumber("abc", "/query/x", issues)).toBeUndefined();
    expect(restBoolean("true", "/query/b", issues)).toBe(true);
    expect(restBoolean("yes", "/query/b", issues)).toBeUndefined();
    expect(issues.map((i) => [i.path, i.rule])).toEqual([
      ["/path/id", "type"], ["/path/id", "range"], ["/query/x", "type"], ["/query/b", "type"],
    ]);
  });

  it("reads form arrays exploded and comma-separated", () => {
    const q = new URLSearchParams("tag=a&tag=b&fields=id,name&empty=");
    expect(restFormArray(q, "tag", true)).toEqual(["a", "b"]);
    expect(restFormArray(q, "fields", false)).toEqual(["id", "name"]);
    expect(restFormArray(q, "empty", false)).toEqual([]);
    expect(restFormArray(q, "missing", true)).toBeUndefined();
    const issues: ValidationIssue[] = [];
    expect(restItems(["1", "x", "3"], "/query/n", issues, restInteger)).toEqual([1, 3]);
    expect(issues[0]?.path).toBe("/query/n/1");
  });

  it("reads deepObject parameters without touching prototypes", () => {
    const q = new URLSearchParams("filter[status]=x&filter[__proto__]=polluted&filter[constructor]=c&other=1");
    const filter = restDeepObject(q, "filter")!;
    expect(Object.keys(filter).sort()).toEqual(["__proto__", "constructor", "status"]);
    expect(filter["__proto__"]).toBe("polluted");
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(Object.getPrototypeOf(filter)).toBeNull();
    expect(restDeepObject(q, "nothing")).toBeUndefined();
  });

  it("converts form fields only when they read as numbers", () => {
    expect(restFormNumber("30")).toBe(30);
    expect(restFormNumber("thirty")).toBe("thirty");
  });
});
