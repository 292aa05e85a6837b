/**
 * Degrade, never refuse: a pattern JavaScript cannot read and CEL outside the compiled subset are located warnings
 * (the rest of the field's rules still apply), not crashes and not silently dropped rules.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepare, type Agreement } from "./harness.js";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");

let a: Agreement;
beforeAll(async () => {
  a = await prepare(FIXTURES, "warnings.proto");
}, 60_000);
afterAll(() => a?.remove());

describe("rules specforge cannot compile", () => {
  it("are located warnings", () => {
    expect(a.specWarnings).toEqual([
      expect.stringMatching(/^warnings\.proto:10:3: pattern "\\\\pL\+" is not checked: JavaScript cannot read it/),
      expect.stringMatching(/^warnings\.proto:11:3: CEL rule "at\.past" of field at is not evaluated: method getHours/),
      expect.stringMatching(/^warnings\.proto:12:3: CEL rule "tag\.lower" of the items of field tags is not evaluated: method lowerAscii/),
      expect.stringMatching(/^warnings\.proto:13:3: CEL rule "name\.split" of field name is not evaluated: method split/),
    ]);
  });

  it("leave the field's other rules in force", () => {
    const issues = a.generated.validateM({ word: "x", tags: ["A"], name: "x" });
    expect(issues.map((i: any) => `${i.field} ${i.rule}`)).toEqual(["word string.min_len"]);
  });
});

describe("hostile CEL", () => {
  it("deep nesting and text that would break out of a string are warnings or string literals, never code", async () => {
    const { compileCel, CelUnsupported } = await import("../../../../src/emitters/protobuf/validate/cel.js");
    const env = { plan: () => undefined, rt: (n: string) => n, constant: (k: string) => k, enumNumber: () => "n" };
    const self = { js: "v", type: { k: "string" as const } };
    for (const deep of ["(".repeat(20000) + "true" + ")".repeat(20000), "!".repeat(20000) + "true", "-".repeat(20000) + "1 > 0"]) {
      expect(() => compileCel(env, deep, self)).toThrow(CelUnsupported);
    }
    const js = compileCel(env, `this == '"; process.exit(1); "' || this == "\\u2028*/"`, self).js;
    expect(js).toBe(`((v === "\\"; process.exit(1); \\"") || (v === "\\u2028*/"))`);
  });
});
