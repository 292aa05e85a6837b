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
      expect.stringMatching(/^warnings\.proto:11:3: CEL rule "at\.past" of field at is not evaluated: unknown name now/),
      expect.stringMatching(/^warnings\.proto:12:3: CEL rule "tag\.lower" of the items of field tags is not evaluated: method lowerAscii/),
      expect.stringMatching(/^warnings\.proto:13:3: CEL rule "name\.fmt" of field name is not evaluated: method format/),
    ]);
  });

  it("leave the field's other rules in force", () => {
    const issues = a.generated.validateM({ word: "x", tags: ["A"], name: "x" });
    expect(issues.map((i: any) => `${i.field} ${i.rule}`)).toEqual(["word string.min_len"]);
  });
});
