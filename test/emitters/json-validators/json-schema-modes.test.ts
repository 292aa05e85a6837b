/**
 * The options that make generated validators follow JSON Schema exactly (docs/validators.md, "JSON Schema exactly"):
 * `jsonSchema: "exact"` (a schema without `type` admits every JSON type its keywords do not constrain, and its
 * TypeScript type says so; 3.0 additionalProperties beside allOf sees only its own properties) and
 * `formats: "annotate"` (formats are annotations). The defaults keep the OpenAPI-usual reading.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { diagnostics, fn, generateInline, v31, type Generated } from "./helpers.js";

type Is = (v: unknown) => boolean;
type Validate = (v: unknown) => readonly { path: string; message: string }[];

const UNTYPED = v31(`paths: {}
components:
  schemas:
    Untyped:
      description: Has a foo.
      properties:
        foo: {type: integer}
      required: [foo]
      additionalProperties: false
      not: {type: boolean}
    UntypedArray:
      items: {type: string}
      minItems: 1
    UntypedMap:
      additionalProperties: {type: integer}
    Composed:
      allOf:
        - {properties: {a: {type: string}}, required: [a]}
        - {properties: {b: {type: integer}}}
    ComposedTyped:
      allOf:
        - {type: object, properties: {a: {type: string}}, required: [a]}
        - {properties: {b: {type: integer}}}
    Holder:
      type: object
      properties:
        u: {$ref: "#/components/schemas/Untyped"}
        inline:
          properties:
            a: {type: string}
`);

/** A user's file that assigns every kind of JSON value to the untyped types: it compiles only if the types admit them. */
function useFile(dir: string): [string, string] {
  return [
    `${dir}/use.ts`,
    [
      'import type { Holder, Untyped, UntypedArray, UntypedMap } from "./types.js";',
      'export const untyped: Untyped[] = [{ foo: 1 }, "x", 2, false, null, [1, "a"]];',
      'export const arrays: UntypedArray[] = [["a"], "x", 2, true, null, { length: 1, "0": 2 }];',
      'export const maps: UntypedMap[] = [{ a: 1 }, "x", 2, true, null, []];',
      'export const holder: Holder = { u: "text", inline: 3 };',
      "",
    ].join("\n"),
  ];
}

describe("jsonSchema: exact", () => {
  let g: Generated;
  beforeAll(async () => {
    g = await generateInline(UNTYPED, { jsonSchema: "exact" });
  });

  it("types an untyped schema as its object (array) or any other JSON value, and the types compile strict", () => {
    const types = [...g.files].find(([p]) => p.endsWith("/types.ts"))![1];
    expect(types).toContain("export type Untyped = UntypedObject | string | number | boolean | null | unknown[];");
    expect(types).toContain("export type UntypedArray = string[] | string | number | boolean | null | { [key: string]: unknown };");
    expect(types).toContain("export type UntypedMap = { [key: string]: number } | string | number | boolean | null | unknown[];");
    expect(types).toContain("No `type`: JSON Schema applies the object keywords to objects only");
    const dir = [...g.files.keys()][0]!.split("/")[0]!;
    const files = new Map([...g.files, useFile(dir)]);
    expect(diagnostics({ ...g, files })).toEqual([]);
  });

  it("accepts every non-object for object keywords, and checks objects as the schema says", () => {
    const is = fn<Is>(g.validate, "isUntyped");
    const validate = fn<Validate>(g.validate, "validateUntyped");
    for (const ok of ["x", 2, null, [], [1, 2], { foo: 3 }]) {
      expect(is(ok), JSON.stringify(ok)).toBe(true);
      expect(validate(ok), JSON.stringify(ok)).toEqual([]);
    }
    for (const bad of [{}, { foo: "3" }, { foo: 1, bar: 2 }, true]) {
      expect(is(bad), JSON.stringify(bad)).toBe(false);
      expect(validate(bad).length, JSON.stringify(bad)).toBeGreaterThan(0);
    }
  });

  it("accepts every non-array for array keywords (a pseudo-array object too), and checks arrays", () => {
    const is = fn<Is>(g.validate, "isUntypedArray");
    for (const ok of ["x", 1, true, null, { length: 1, "0": 5 }, ["a"]]) expect(is(ok), JSON.stringify(ok)).toBe(true);
    for (const bad of [[], [1], ["a", 2]]) expect(is(bad), JSON.stringify(bad)).toBe(false);
    const map = fn<Is>(g.validate, "isUntypedMap");
    expect(map("x")).toBe(true);
    expect(map({ a: 1 })).toBe(true);
    expect(map({ a: "1" })).toBe(false);
  });

  it("reads allOf parts that say no type the same way, and a part with type: object as an object", () => {
    const types = [...g.files].find(([p]) => p.endsWith("/types.ts"))![1];
    expect(types).toContain("export type Composed = ComposedObject | string | number | boolean | null | unknown[];");
    expect(types).toContain("export interface ComposedTyped {");
    const is = fn<Is>(g.validate, "isComposed");
    for (const ok of ["x", 1, null, [], { a: "s" }, { a: "s", b: 2 }]) expect(is(ok), JSON.stringify(ok)).toBe(true);
    for (const bad of [{}, { a: 1 }, { a: "s", b: "x" }]) expect(is(bad), JSON.stringify(bad)).toBe(false);
    const typed = fn<Is>(g.validate, "isComposedTyped");
    expect(typed({ a: "s", b: 2 })).toBe(true);
    expect(typed("x")).toBe(false);
  });

  it("checks untyped properties of typed records the same way", () => {
    const is = fn<Is>(g.validate, "isHolder");
    expect(is({ u: "text", inline: 3 })).toBe(true);
    expect(is({ u: { foo: 1 }, inline: { a: "b" } })).toBe(true);
    expect(is({ inline: { a: 1 } })).toBe(false);
    expect(is("text")).toBe(false);
  });

  it("writes and reads every kind of value through the JSON codecs", () => {
    const encode = fn<(v: unknown) => string>(g.json, "encodeUntypedJson");
    const decode = fn<(t: string) => unknown>(g.json, "decodeUntypedJson");
    for (const v of [{ foo: 1 }, "x", 2, null, [1, "a"]]) expect(decode(encode(v))).toEqual(v);
    expect(() => decode('{"foo":"1"}')).toThrow();
  });
});

describe("jsonSchema: openapi (the default)", () => {
  it("reads an untyped schema with properties as an object", async () => {
    const g = await generateInline(UNTYPED);
    const types = [...g.files].find(([p]) => p.endsWith("/types.ts"))![1];
    expect(types).toContain("export interface Untyped {");
    const is = fn<Is>(g.validate, "isUntyped");
    expect(is({ foo: 3 })).toBe(true);
    expect(is("x")).toBe(false);
    expect(fn<Is>(g.validate, "isUntypedArray")("x")).toBe(false);
    expect(diagnostics(g)).toEqual([]);
  });
});

describe("3.0 additionalProperties beside allOf", () => {
  const spec = `openapi: 3.0.3
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    Extended:
      type: object
      allOf:
        - properties:
            foo: {type: integer}
      additionalProperties: {type: boolean}
`;
  it("sees the parts' properties under the default, only its own under exact", async () => {
    const openapi = fn<Is>((await generateInline(spec)).validate, "isExtended");
    expect(openapi({ foo: 1, bar: true })).toBe(true);
    expect(openapi({ foo: 1, bar: 2 })).toBe(false);
    const exact = await generateInline(spec, { jsonSchema: "exact" });
    const is = fn<Is>(exact.validate, "isExtended");
    expect(is({ foo: 1, bar: true })).toBe(false);
    // foo is an additional property to the additionalProperties beside allOf: it must be a boolean, and an integer.
    expect(is({ foo: 1 })).toBe(false);
    expect(is({ bar: true })).toBe(true);
    expect(diagnostics(exact)).toEqual([]);
  });
});

describe("formats", () => {
  const spec = v31(`paths: {}
components:
  schemas:
    Email: {type: string, format: email}
    When: {type: string, format: date-time}
    Loose: {format: uri}
`);
  it("asserts formats by default", async () => {
    const g = await generateInline(spec);
    expect(fn<Is>(g.validate, "isEmail")("nope")).toBe(false);
    expect(fn<Is>(g.validate, "isWhen")("yesterday")).toBe(false);
    expect(fn<Is>(g.validate, "isLoose")("no scheme")).toBe(false);
    expect(fn<Is>(g.validate, "isEmail")("a@example.com")).toBe(true);
  });
  it("treats formats as annotations under formats: annotate (no format check is generated)", async () => {
    const g = await generateInline(spec, { formats: "annotate" });
    expect(fn<Is>(g.validate, "isEmail")("nope")).toBe(true);
    expect(fn<Is>(g.validate, "isWhen")("yesterday")).toBe(true);
    expect(fn<Is>(g.validate, "isLoose")("no scheme")).toBe(true);
    expect(fn<Is>(g.validate, "isEmail")(3)).toBe(false);
    const validate = [...g.files].find(([p]) => p.endsWith("/validate.ts"))![1];
    expect(validate).not.toMatch(/jsonIs(Email|DateTime|Uri)\b/);
  });
});
