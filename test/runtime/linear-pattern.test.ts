/**
 * The linear-time matcher (src/runtime/linear-pattern.ts) against JavaScript's RegExp: on random patterns and inputs
 * the verdicts are equal, with and without the `u` flag; and which patterns keep the plain RegExp (backtrackSafe).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { patternPlan } from "../../src/codegen/spec-pattern.js";
import { memorySpecHost } from "../../src/parsers/host.js";
import { generateSpec } from "../../src/pipeline/generate-files.js";
import { linearPattern } from "../../src/runtime/linear-pattern.js";

/** Random patterns over a small alphabet: literals, classes, escapes, groups, alternation, quantifiers, anchors. */
const pattern: fc.Arbitrary<string> = fc.letrec<{ re: string; atom: string; term: string }>((tie) => ({
  atom: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom("a", "b", ".", "[ab]", "[^a]", "\\d", "\\w", "\\s", "[a-c]", "_", "\\u{1F600}", "😀", "[😀a]", "\\p{L}", "\\.", "1"),
    tie("re").map((r) => `(${r})`),
    tie("re").map((r) => `(?:${r})`),
  ),
  term: fc.oneof(
    tie("atom"),
    fc.tuple(tie("atom"), fc.constantFrom("*", "+", "?", "{2}", "{1,3}", "{0,}", "*?", "+?", "{2,}")).map(([a, q]) => a + q),
    fc.constantFrom("^", "$", "\\b", "\\B"),
  ),
  re: fc.oneof(
    fc.array(tie("term"), { minLength: 0, maxLength: 4 }).map((t) => t.join("")),
    fc.array(fc.array(tie("term"), { maxLength: 3 }).map((t) => t.join("")), { minLength: 2, maxLength: 3 }).map((a) => a.join("|")),
  ),
})).re;

const input = fc.array(fc.constantFrom("a", "b", "c", "1", "_", " ", "\n", ".", "😀", "\ud83d", "é"), { maxLength: 10 }).map((p) => p.join(""));

describe("linearPattern", () => {
  it("answers what RegExp.prototype.test answers (random patterns and inputs, with and without u)", () => {
    fc.assert(
      fc.property(pattern, fc.array(input, { minLength: 1, maxLength: 8 }), fc.boolean(), (p, inputs, u) => {
        const flags = u ? "u" : "";
        let re: RegExp;
        try {
          re = new RegExp(p, flags);
        } catch {
          return; // not a pattern in this reading (`\u{1F600}` without u is fine, `\p{L}` is literal p{L})
        }
        const lp = linearPattern(p, flags);
        for (const s of inputs) expect([p, flags, s, lp.test(s)]).toEqual([p, flags, s, re.test(s)]);
      }),
      { seed: 20261128, numRuns: 1500 },
    );
  });

  it("reads legacy syntax as JavaScript does without u: octal escapes, literal braces, `\\-`", () => {
    const cases: [string, string[]][] = [
      ["^\\101{2}$", ["AA", "A", "\\101"]],
      ["^a{,2}$", ["a{,2}", "aa"]],
      ["^[\\w-\\.]+$", ["a-b.c", "a b"]],
      ["^x{1}y}$", ["xy}", "xy"]],
      ["\\cJ", ["\n", "cJ"]],
    ];
    for (const [p, inputs] of cases) for (const s of inputs) expect([p, s, linearPattern(p).test(s)]).toEqual([p, s, new RegExp(p).test(s)]);
  });

  it("refuses lookaround and backreferences, which have no linear-time matcher", () => {
    for (const p of ["(a)\\1", "(?<x>a)\\k<x>", "a(?=b)", "(?<!a)b"]) expect(() => linearPattern(p, "u")).toThrow(/needs a backtracking matcher/);
  });
});

describe("patternPlan: which patterns keep the plain RegExp", () => {
  it("single-character quantifiers, one unbounded and anchored, keep RegExp; nested or overlapping ones go linear", () => {
    const plans = (ps: string[]) => ps.map((p) => [p, patternPlan(p, "u").kind]);
    const regexp = ["^[a-z0-9_-]+$", "^\\d{4}-\\d{2}-\\d{2}$", "^(https?|ftp)://[^ ]+$", "[a-z]{2,3}", "x[a-z]+", "^$", "\\bfoo\\b", "^[A-Z]{2}[0-9]*$"];
    const linear = ["(a+)+$", "(a|a)*$", "(a|aa)+$", "(.*a){12}", "^(ab)*$", "\\s+$", "^\\w+@\\w+$", "a+b"];
    expect(plans(regexp)).toEqual(regexp.map((p) => [p, "regexp"]));
    expect(plans(linear)).toEqual(linear.map((p) => [p, "linear"]));
    expect(patternPlan("^(a+)+(?=b)", "u")).toEqual({ kind: "backtracking", reason: "lookaround" });
  });
});

describe("a spec pattern only a backtracking RegExp can match", () => {
  it("is a located warning, and generated code says which matcher each pattern gets", () => {
    const yaml = `openapi: 3.1.0
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    Look: {type: string, pattern: "^(a+)+(?=b)"}
    Nested: {type: string, pattern: "^(a+)+$"}
    Plain: {type: string, pattern: "^[a-z]+$"}
`;
    const out = generateSpec({ file: "/s/a.yaml", display: "a.yaml", outDir: "a" }, memorySpecHost({ "/s/a.yaml": yaml }));
    expect(out.doc.warnings).toEqual([
      {
        file: "/s/a.yaml",
        line: 6,
        column: 26,
        detail: 'pattern "^(a+)+(?=b)" uses lookaround, which no linear-time matcher supports: it is checked with a backtracking RegExp, which some inputs can keep busy for a long time',
      },
    ]);
    const validate = out.files.find((f) => f.path.endsWith("validate.ts"))!.content;
    expect(validate.split("\n").filter((l) => /^const PATTERN_/.test(l))).toEqual([
      'const PATTERN_1 = new RegExp("^(a+)+(?=b)");',
      'const PATTERN_2 = linearPattern("^(a+)+$", "u");',
      'const PATTERN_3 = new RegExp("^[a-z]+$");',
    ]);
  });
});
