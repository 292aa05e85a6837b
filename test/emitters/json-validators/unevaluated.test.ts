/**
 * `unevaluatedProperties` / `unevaluatedItems` as OpenAPI 3.1 documents write them (a closed extension of a base
 * schema, a closed oneOf of variants, a dependent schema, a tuple with `contains`), checked by the generated
 * validators exactly as JSON Schema 2020-12 says: is<T> and validate<T> agree with ajv (2020-12) on every sample.
 * Types without the keywords get no unevaluated code; the type's doc comment says it is wider; a schema whose
 * branches refer to branches (an exponentially large evaluation tree) is a located warning, not a hang. Beside them,
 * `additionalProperties` next to `allOf`: JSON Schema in 3.1 (it sees only the properties beside it), the record
 * model in 3.0.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { memorySpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";
import { diagnostics, fn, generateInline, v31, type Generated } from "./helpers.js";

const SPEC = v31(`paths: {}
components:
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        name: {type: string}
        tag: {type: string}
    ClosedDog:
      allOf:
        - $ref: "#/components/schemas/Pet"
        - properties:
            bark: {type: boolean}
      unevaluatedProperties: false
    Shape:
      type: object
      properties:
        kind: {type: string}
      oneOf:
        - properties: {radius: {type: number}}
          required: [radius]
        - properties: {width: {type: number}, height: {type: number}}
          required: [width]
      unevaluatedProperties: false
    Billing:
      type: object
      properties:
        card: {type: string}
      dependentSchemas:
        card:
          properties: {cvc: {type: string}}
          required: [cvc]
      if: {properties: {vip: {const: true}}, required: [vip]}
      then: {properties: {vip: true, perks: {type: array}}}
      unevaluatedProperties: {type: string, maxLength: 3}
    Labels:
      type: object
      patternProperties:
        "^x-": {type: string}
      unevaluatedProperties: false
    Row:
      type: array
      prefixItems: [{type: string}, {type: integer}]
      unevaluatedItems: {type: "null"}
    Flags:
      type: array
      prefixItems: [{type: string}]
      contains: {type: boolean}
      minContains: 0
      unevaluatedItems: false
    Node:
      type: object
      properties:
        value: {type: integer}
        next: {$ref: "#/components/schemas/Node"}
        extra: {type: object, properties: {note: {type: string}}}
      unevaluatedProperties: false
    Tagged:
      type: object
      properties:
        tag: {type: string}
    StrictAllOf:
      allOf:
        - $ref: "#/components/schemas/Tagged"
      properties:
        bark: {type: boolean}
      additionalProperties: {type: boolean}
    Chain:
      type: object
      properties:
        v: {type: integer}
      dependentSchemas:
        child: {properties: {child: {$ref: "#/components/schemas/Chain"}}}
      unevaluatedProperties: false
    Plain:
      type: object
      properties:
        a: {type: string}
`);

const SAMPLES: Record<string, readonly unknown[]> = {
  ClosedDog: [
    { name: "rex" }, { name: "rex", bark: true }, { name: "rex", tag: "t", bark: false }, { name: "rex", meow: true },
    { name: "rex", bark: "loud" }, { bark: true }, { name: "rex", bark: true, x: undefined },
  ],
  Shape: [
    { radius: 1 }, { kind: "c", radius: 1 }, { width: 2, height: 3 }, { width: 2 }, { radius: 1, height: 3 },
    { radius: 1, width: 2 }, { kind: "c" }, { radius: 1, depth: 1 }, { width: 1, radius: "x" }, {},
  ],
  Billing: [
    {}, { card: "4111" }, { card: "4111", cvc: "123" }, { card: "4111", cvc: "123", other: "abc" }, { cvc: "123" },
    { cvc: "1234" }, { other: "abcd" }, { vip: true, perks: [] }, { vip: false, perks: [] }, { vip: false }, { vip: true, more: 1 },
  ],
  Labels: [{}, { "x-a": "1" }, { "x-a": 1 }, { y: "1" }, { "x-": "" }, { "ax-": "" }],
  // 3.1 is JSON Schema: additionalProperties sees only the properties beside it, not Tagged's.
  StrictAllOf: [{}, { bark: true, x: false }, { tag: "t" }, { x: 1 }, { bark: 1 }],
  Row: [[], ["a"], ["a", 1], ["a", 1, null], ["a", 1, true], ["a", 1, null, null], ["a", 1, 7], [1, "a"], "not an array"],
  Node: [
    { value: 1 }, { value: 1, next: { value: 2 } }, { value: 1, next: { value: 2, other: 0 } }, { value: 1, other: 0 },
    { value: 1, extra: { note: "n", more: 1 } }, { value: 1, next: { value: 2, next: { value: 3, bad: true } } },
  ],
};

/** ajv 2020-12 on the same components. */
function reference(yaml: string): (type: string) => (v: unknown) => boolean {
  const doc = parseYaml(yaml) as { components: object };
  const ajv = new Ajv2020({ strict: false });
  ajv.addSchema({ $id: "spec", components: doc.components });
  return (type) => ajv.compile({ $ref: `spec#/components/schemas/${type}` });
}

describe("unevaluatedProperties / unevaluatedItems", () => {
  let g: Generated;
  beforeAll(async () => {
    g = await generateInline(SPEC);
  });

  it("is<T> and validate<T> give ajv's verdict on every sample (both verdicts occur for each type)", () => {
    const ajv = reference(SPEC);
    for (const [type, samples] of Object.entries(SAMPLES)) {
      const expected = ajv(type);
      const is = fn<(v: unknown) => boolean>(g.validate, `is${type}`);
      const validate = fn<(v: unknown) => unknown[]>(g.validate, `validate${type}`);
      const verdicts = new Set<boolean>();
      for (const sample of samples) {
        // JSON has no undefined: ajv sees the value as JSON text would carry it.
        const want = expected(JSON.parse(JSON.stringify(sample)));
        verdicts.add(want);
        expect(is(sample), `is${type}(${JSON.stringify(sample)})`).toBe(want);
        expect(validate(sample).length === 0, `validate${type}(${JSON.stringify(sample)})`).toBe(want);
      }
      expect([...verdicts].sort(), type).toEqual([false, true]);
    }
  });

  it("counts the items `contains` matches as evaluated (ajv 8 does not: the suite's unevaluatedItems row)", () => {
    const is = fn<(v: unknown) => boolean>(g.validate, "isFlags");
    expect([[], ["a"], ["a", true], ["a", true, false], [1]].map(is)).toEqual([true, true, true, true, false]);
    expect([["a", 1], ["a", true, 1], ["a", true, "b"]].map(is)).toEqual([false, false, false]);
  });

  it("recursion only through checks (a dependent schema) is guarded: a hostile depth is invalid, not a crash", () => {
    // ajv 8 gets this schema wrong (it rejects {v: 1}: recursion through dependentSchemas loses the annotation of
    // `properties`), so the verdicts are JSON Schema's, written out.
    const is = fn<(v: unknown) => boolean>(g.validate, "isChain");
    expect([{ v: 1 }, { child: { v: 1 } }, { child: { child: {} } }, {}].map(is)).toEqual([true, true, true, true]);
    expect([{ w: 1 }, { child: { w: 1 } }, { child: { v: "x" } }, { v: 1, child: 2 }].map(is)).toEqual([false, false, false, false]);
    let deep: unknown = { v: 1 };
    for (let i = 0; i < 200_000; i++) deep = { child: deep };
    expect(fn<(v: unknown) => boolean>(g.validate, "isChain")(deep)).toBe(false);
    expect(fn<(v: unknown) => { rule: string }[]>(g.validate, "validateChain")(deep)).toContainEqual(expect.objectContaining({ rule: "depth" }));
  });

  it("reports the keyword as the rule, at the object's path", () => {
    const validate = fn<(v: unknown) => { path: string; rule: string }[]>(g.validate, "validateNode");
    expect(validate({ value: 1, next: { value: 2, other: 0 } })).toContainEqual(expect.objectContaining({ path: "/next", rule: "unevaluatedProperties" }));
    const row = fn<(v: unknown) => { path: string; rule: string }[]>(g.validate, "validateRow");
    expect(row(["a", 1, 7])).toEqual([expect.objectContaining({ path: "", rule: "unevaluatedItems" })]);
  });

  it("leaves types without the keywords as they were, and works out branches only for a key the static part leaves", () => {
    const code = g.files.get([...g.files.keys()].find((k) => k.endsWith("validate.ts"))!)!;
    const plain = code.slice(code.indexOf("export function isPlain("), code.indexOf("export function validatePlain("));
    expect(plain).not.toMatch(/evaluated/);
    // Shape: kind is skipped statically; the oneOf branches are tested only once another key turns up.
    expect(code).toMatch(/if \(!Object\.hasOwn\(o, key\) \|\| o\[key\] === undefined \|\| key === "kind"\) continue;\n\s+evaluated \?\?= evaluatedShape\$\d+\(o\);/);
  });

  it("says in the type's doc comment that the type is wider than the valid values", () => {
    const types = g.files.get([...g.files.keys()].find((k) => k.endsWith("types.ts"))!)!;
    const doc = types.slice(0, types.indexOf("export interface ClosedDog"));
    expect(doc.slice(doc.lastIndexOf("/**"))).toContain("`unevaluatedProperties` of the properties its other keywords do not evaluate");
  });

  it("OpenAPI 3.0 keeps the record model: additionalProperties beside allOf sees the parts' properties", async () => {
    const v30 = SPEC.replace("openapi: 3.1.0", "openapi: 3.0.3").replace(/\n    Shape:[\s\S]*?\n    Tagged:/, "\n    Tagged:");
    const g30 = await generateInline(v30);
    const is = fn<(v: unknown) => boolean>(g30.validate, "isStrictAllOf");
    expect([{ tag: "t" }, { tag: "t", bark: true, x: false }].map(is)).toEqual([true, true]);
    expect([{ tag: 1 }, { tag: "t", x: 1 }].map(is)).toEqual([false, false]);
  });

  it("type-checks strict", () => {
    expect(diagnostics(g)).toEqual([]);
  });

  it("a keyword that depends on an exponential tree of branches is a located warning, and generation ends", () => {
    // Each level's two branches refer to the next level: 2^24 paths through 24 schemas.
    const levels = Array.from({ length: 24 }, (_, i) =>
      `    L${i}:\n      anyOf:\n        - {$ref: "#/components/schemas/L${i + 1}"}\n        - allOf: [{$ref: "#/components/schemas/L${i + 1}"}]\n          properties: {p${i}: true}`,
    ).join("\n");
    const yaml = v31(`paths: {}
components:
  schemas:
    Top:
      $ref: "#/components/schemas/L0"
      unevaluatedProperties: false
${levels}
    L24: {type: object, properties: {end: {type: string}}}
`);
    const out = generateSpec({ file: "/spec/api.yaml", display: "api.yaml" }, memorySpecHost({ "/spec/api.yaml": yaml }));
    expect(out.warnings).toEqual([
      expect.objectContaining({ line: 8, column: 7, detail: expect.stringMatching(/^schema keyword "unevaluatedProperties" is not checked: it depends on more than 2000/) }),
    ]);
  });
});
