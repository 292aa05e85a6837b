import { beforeAll, describe, expect, it } from "vitest";
import type { ValidationIssue } from "../../../src/runtime/validation.js";
import { ValidationError } from "../../../src/runtime/validation.js";
import { diagnostics, fn, generateInline, v31, type Generated } from "./helpers.js";
import { KITCHEN, KITCHEN_OK } from "./kitchen-spec.js";

type Is = (v: unknown) => boolean;
type Validate = (v: unknown) => ValidationIssue[];

let g: Generated;
beforeAll(async () => {
  g = await generateInline(KITCHEN);
});

const is = (type: string, v: unknown) => fn<Is>(g.validate, `is${type}`)(v);
const issues = (type: string, v: unknown) => fn<Validate>(g.validate, `validate${type}`)(v).map((i) => `${i.path} ${i.rule}`);
const kitchen = (patch: Record<string, unknown>) => ({ ...KITCHEN_OK, ...patch });

/** is<T> must agree with validate<T> on every sample, or one of them is wrong. */
function verdict(type: string, v: unknown): string[] {
  const found = issues(type, v);
  expect(is(type, v), `is${type} vs validate${type} on ${JSON.stringify(v)}`).toBe(found.length === 0);
  return found;
}

describe("generated JSON validators", () => {
  it("type-check under strict", () => {
    expect(diagnostics(g)).toEqual([]);
  });

  it("accept a valid value (leap day, leap second at 23:59Z)", () => {
    expect(verdict("Kitchen", KITCHEN_OK)).toEqual([]);
  });

  it.each([
    ["missing required", { name: undefined }, ["/name required"]],
    ["string type", { name: 5 }, ["/name type"]],
    ["minLength counts code points", { name: "😀" }, ["/name minLength"]],
    ["maxLength counts code points", { name: "😀😀😀😀😀" }, []],
    ["maxLength", { name: "abcdef" }, ["/name maxLength"]],
    ["pattern (u flag)", { name: "aB" }, ["/name pattern"]],
    ["integer", { count: 1.5 }, ["/count type"]],
    ["multipleOf", { count: 4 }, ["/count multipleOf"]],
    ["int32 range and bounds", { small: 2 ** 31 }, ["/small format", "/small exclusiveMaximum"]],
    ["minimum", { small: -6 }, ["/small minimum"]],
    ["exclusiveMaximum", { small: 100 }, ["/small exclusiveMaximum"]],
    ["exclusiveMinimum", { ratio: 0 }, ["/ratio exclusiveMinimum"]],
    ["maximum", { ratio: 1.6 }, ["/ratio maximum"]],
    ["not a finite number", { ratio: Infinity }, ["/ratio type"]],
    ["int64 beyond safe integers", { id: 2 ** 60 }, ["/id format"]],
    ["minItems", { tags: [] }, ["/tags minItems"]],
    ["maxItems and uniqueItems", { tags: ["a", "b", "a", "c"] }, ["/tags maxItems", "/tags/2 uniqueItems"]],
    ["item type", { tags: ["a", 1] }, ["/tags/1 type"]],
    ["date calendar", { day: "2023-02-29" }, ["/day format"]],
    ["date-time offset required", { when: "2024-01-01T10:00:00" }, ["/when format"]],
    ["leap second only at 23:59 UTC", { when: "2024-01-01T10:00:60Z" }, ["/when format"]],
    ["uri must be absolute", { site: "/relative" }, ["/site format"]],
    ["email", { mail: "not-an-email" }, ["/mail format"]],
    ["uuid", { uid: "123e4567-e89b-12d3-a456-42661417400" }, ["/uid format"]],
    ["nullable accepts null", { note: null }, []],
    ["nullable still typed", { note: 1 }, ["/note type"]],
    ["enum", { color: "blue" }, ["/color enum"]],
    ["const", { kind: "bathroom" }, ["/kind const"]],
    ["map values", { labels: { a: 1, "x/y": "2" } }, ["/labels/x~1y type"]],
    ["type array picks the member by kind", { mixed: 1.5 }, ["/mixed type"]],
    ["type array", { mixed: true }, ["/mixed anyOf"]],
    ["additionalProperties false", { extra: 1 }, ["/extra additionalProperties"]],
  ])("%s", (_name, patch, want) => {
    expect(verdict("Kitchen", kitchen(patch))).toEqual(want);
  });

  it("lists every failure at once", () => {
    const bad = { id: "1", name: "a", count: 1, ratio: 2, tags: "x", when: 1, day: "2024-13-01", surprise: true };
    expect(verdict("Kitchen", bad)).toEqual([
      "/id type",
      "/name minLength",
      "/count multipleOf",
      "/ratio maximum",
      "/tags type",
      "/when type",
      "/day format",
      "/surprise additionalProperties",
    ]);
    expect(verdict("Kitchen", [])).toEqual([" type"]);
    expect(verdict("Kitchen", null)).toEqual([" type"]);
  });

  it("gives messages a reader can act on", () => {
    const found = fn<Validate>(g.validate, "validateKitchen")(kitchen({ name: "aB", small: 100 }));
    expect(found).toEqual([
      { path: "/small", rule: "exclusiveMaximum", message: "must be less than 100" },
      { path: "/name", rule: "pattern", message: "must match the pattern ^[a-zé😀]+$" },
    ]);
  });

  it("assert<T> throws a ValidationError carrying the issues", () => {
    const assert = fn<(v: unknown) => void>(g.validate, "assertKitchen");
    expect(() => assert(KITCHEN_OK)).not.toThrow();
    try {
      assert(kitchen({ count: 4 }));
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as ValidationError).issues.map((i) => i.path)).toEqual(["/count"]);
    }
  });

  it("discriminated unions check only the tagged variant", () => {
    expect(verdict("Pet", { petType: "cat", lives: 3 })).toEqual([]);
    expect(verdict("Pet", { petType: "dog", bark: true })).toEqual([]);
    expect(verdict("Pet", { petType: "cat", lives: 10 })).toEqual(["/lives maximum"]);
    expect(verdict("Pet", { petType: "dog", lives: 3 })).toEqual(["/bark required"]);
    expect(verdict("Pet", { petType: "cow" })).toEqual(["/petType discriminator"]);
    expect(verdict("Pet", { lives: 3 })).toEqual(["/petType discriminator"]);
    expect(verdict("Pet", "cat")).toEqual([" type"]);
  });

  it("oneOf needs exactly one match, anyOf at least one", () => {
    expect(verdict("Shape", { side: 1 })).toEqual([]);
    expect(verdict("Shape", { side: 1, radius: 2 })).toEqual([" oneOf"]);
    expect(verdict("Shape", {})).toEqual([" oneOf"]);
    expect(verdict("EitherShape", { side: 1, radius: 2 })).toEqual([]);
    expect(verdict("EitherShape", {})).toEqual([" anyOf"]);
  });

  it("allOf checks the base and the extension", () => {
    expect(verdict("Derived", { id: "x", extra: true })).toEqual([]);
    expect(verdict("Derived", { extra: true })).toEqual(["/id required"]);
    expect(verdict("Derived", { id: 1, extra: "no" })).toEqual(["/id type", "/extra type"]);
  });

  it("additionalProperties with a schema checks each extra value", () => {
    expect(verdict("Open", { a: "x", b: 1, c: 2.5 })).toEqual([]);
    expect(verdict("Open", { a: "x", b: "1" })).toEqual(["/b type"]);
  });

  it("recursion: named types call each other, and hostile depth is reported, not a crash", () => {
    expect(verdict("Tree", { value: 1, children: [{ value: 2, children: [{ value: 3 }] }] })).toEqual([]);
    expect(verdict("Tree", { value: 1, children: [{ value: 2, children: [{ value: "3" }] }] })).toEqual(["/children/0/children/0/value type"]);
    let deep: { value: number; children?: unknown[] } = { value: 0 };
    for (let i = 0; i < 200_000; i++) deep = { value: i, children: [deep] };
    expect(is("Tree", deep)).toBe(false);
    expect(issues("Tree", deep)).toContain(" depth");
  });

  it("keys such as __proto__ and constructor are own properties only", () => {
    const parsed = JSON.parse('{"__proto__": "p", "constructor": "c", "a/b~c": 1}') as unknown;
    expect(verdict("Hostile", parsed)).toEqual([]);
    // constructor is inherited from Object.prototype here, not present: still missing.
    expect(verdict("Hostile", {})).toEqual(["/constructor required"]);
    expect(verdict("Hostile", JSON.parse('{"constructor": "c", "__proto__": 1}'))).toEqual(["/__proto__ type"]);
    expect(verdict("Hostile", JSON.parse('{"constructor": "c", "a/b~c": "x"}'))).toEqual(["/a~1b~0c type"]);
    expect(Object.prototype).not.toHaveProperty("p");
  });

  it("ignores a polluted Object.prototype", () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto["id"] = 1;
    try {
      const { id: _omit, ...rest } = KITCHEN_OK;
      expect(verdict("Kitchen", rest)).toEqual(["/id required"]);
    } finally {
      delete proto["id"];
    }
  });

  it("properties inherited from any prototype do not count as present", () => {
    const { id, ...rest } = KITCHEN_OK;
    const inherits = Object.assign(Object.create({ id }) as Record<string, unknown>, rest);
    expect(verdict("Kitchen", inherits)).toEqual(["/id required"]);
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, KITCHEN_OK);
    expect(verdict("Kitchen", bare)).toEqual([]);
  });

  // is<T> tests whether a failing optional property is the object's own only on its way to `return false`, through
  // IS_OWN, whose prototype tests the optimizing compiler folds: these must hold in optimized code too, so each
  // verdict is taken again after enough calls to optimize the function, and after Object.prototype changes.
  it("an invalid optional property fails only when it is the object's own", () => {
    const isKitchen = fn<Is>(g.validate, "isKitchen");
    const own = kitchen({ small: 1000 });
    const inherited = Object.assign(Object.create({ small: 1000 }) as Record<string, unknown>, KITCHEN_OK);
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, own);
    const custom = Object.assign(Object.create({ other: 1 }) as Record<string, unknown>, own);
    const verdicts = () => [isKitchen(own), isKitchen(inherited), isKitchen(bare), isKitchen(custom), isKitchen(KITCHEN_OK)];
    const expected = [false, true, false, false, true];
    expect(verdicts()).toEqual(expected);
    for (let i = 0; i < 20_000; i++) verdicts();
    expect(verdicts()).toEqual(expected);
    expect(verdict("Kitchen", inherited)).toEqual([]);
    expect(verdict("Kitchen", own)).toEqual(["/small exclusiveMaximum"]);
    const proto = Object.prototype as Record<string, unknown>;
    proto["small"] = 1000;
    try {
      // A polluted Object.prototype supplies no value: the plain object without its own `small` is still valid, and
      // an own invalid one still fails.
      const { ...plain } = KITCHEN_OK;
      expect([isKitchen(plain), isKitchen(own), isKitchen(inherited)]).toEqual([true, false, true]);
      expect(verdict("Kitchen", plain)).toEqual([]);
      expect(verdict("Kitchen", own)).toEqual(["/small exclusiveMaximum"]);
    } finally {
      delete proto["small"];
    }
    expect(verdicts()).toEqual(expected);
  });

  it("is<T> checks cheap properties before costly ones, and still checks every one", () => {
    const text = g.files.get([...g.files.keys()].find((p) => p.endsWith("validate.ts"))!)!;
    const body = text.slice(text.indexOf("export function isKitchen("), text.indexOf("\n}\n", text.indexOf("export function isKitchen(")));
    // `name` (a pattern) comes before `count` (an integer) in the schema, after it in is<T>; validate<T> keeps the
    // schema order.
    expect(body.indexOf("v = o.count;")).toBeGreaterThan(0);
    expect(body.indexOf("v = o.name;")).toBeGreaterThan(body.indexOf("v = o.count;"));
    expect(verdict("Kitchen", kitchen({ name: "aB", count: 1.5 }))).toEqual(["/name pattern", "/count type"]);
    expect(verdict("Kitchen", kitchen({ name: "aB" }))).toEqual(["/name pattern"]);
    expect(verdict("Kitchen", kitchen({ day: "2023-02-29", tags: ["a", 1] }))).toEqual(["/tags/1 type", "/day format"]);
  });

  it("spec text lands in generated code only as escaped literals", () => {
    const text = g.files.get([...g.files.keys()].find((p) => p.endsWith("validate.ts"))!)!;
    expect(text).toContain('new RegExp("^[A-Z]{3}$")');
    expect(text).toContain('new RegExp("^[a-zé😀]+$", "u")');
  });
});

describe("generation-time errors", () => {
  it("a pattern JavaScript cannot compile is dropped by the parser (with a warning), never reaching the generated module", async () => {
    const spec = KITCHEN.replace('pattern: "^[A-Z]{3}$"', 'pattern: "(unclosed"');
    const g = await generateInline(spec);
    const all = [...g.files.values()].join("\n");
    expect(all).not.toContain('new RegExp("(unclosed"');
    expect(all).toContain("@pattern (unclosed (not checked: not a JavaScript regular expression)");
  });
});

describe("allOf shapes real documents use (DigitalOcean)", () => {
  const SPEC = v31(`paths: {}
components:
  schemas:
    Tags: {type: array, items: {type: string}}
    Label: {type: string, pattern: "^[a-z]+$"}
    Meta: {type: object, properties: {total: {type: integer}, next: {type: string}}}
    Firewall:
      type: object
      properties:
        tags: {allOf: [{$ref: "#/components/schemas/Tags"}, {description: The tags., example: [a]}]}
        label: {allOf: [{$ref: "#/components/schemas/Label"}, {maxLength: 4}]}
        meta: {allOf: [{$ref: "#/components/schemas/Meta"}, {required: [total]}]}
`);
  let d: Generated;
  beforeAll(async () => {
    d = await generateInline(SPEC);
  });
  const check = (v: unknown) => {
    const found = fn<Validate>(d.validate, "validateFirewall")(v).map((i) => `${i.path} ${i.rule}`);
    expect(fn<Is>(d.validate, "isFirewall")(v)).toBe(found.length === 0);
    return found;
  };

  it("type-check under strict", () => {
    expect(diagnostics(d)).toEqual([]);
  });

  it("an annotated array ref stays an array, a constrained string ref keeps both constraints", () => {
    expect(check({ tags: ["a", "b"], label: "abc" })).toEqual([]);
    expect(check({ tags: { 0: "a" } })).toEqual(["/tags type"]);
    expect(check({ label: "abcde" })).toEqual(["/label maxLength"]);
    expect(check({ label: "AB" })).toEqual(["/label pattern"]);
  });

  it("required beside an inherited property makes it required", () => {
    expect(check({ meta: { total: 2 } })).toEqual([]);
    expect(check({ meta: { next: "x" } })).toEqual(["/meta/total required"]);
  });
});
