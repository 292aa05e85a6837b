/**
 * Named types whose schema admits null (NamedType.nullable) and the other ways a schema says "null" or "exactly this
 * value": the type's own validator and codecs must agree with every reference to it, in types, validate.ts and json.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { ValidationError } from "../../../src/runtime/validation.js";
import { diagnostics, fn, generateInline, type Generated } from "./helpers.js";

const V30 = `openapi: 3.0.3
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    NullableSimpleUser:
      type: object
      nullable: true
      required: [login]
      properties:
        login: {type: string}
    Color:
      type: string
      nullable: true
      enum: [red, green]
    Choice:
      nullable: true
      oneOf:
        - {type: string}
        - {type: integer}
    When:
      type: string
      format: date-time
      nullable: true
    Repo:
      type: object
      required: [owner]
      properties:
        owner: {$ref: "#/components/schemas/NullableSimpleUser"}
        color: {$ref: "#/components/schemas/Color"}
        owners: {type: array, items: {$ref: "#/components/schemas/NullableSimpleUser"}}
`;

const V31 = `openapi: 3.1.0
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    Name:
      type: [string, "null"]
      maxLength: 3
    Size:
      enum: [s, m, null]
    Fixed:
      const: fixed
    Nothing:
      const: null
    Item:
      type: object
      required: [name, fixed]
      properties:
        name: {$ref: "#/components/schemas/Name"}
        fixed: {$ref: "#/components/schemas/Fixed"}
        size: {$ref: "#/components/schemas/Size"}
`;

type Is = (v: unknown) => boolean;
type Validate = (v: unknown) => { path: string; rule: string }[];

describe("nullable named types (OpenAPI 3.0 nullable: true)", () => {
  let g: Generated;
  beforeAll(async () => {
    g = await generateInline(V30);
  });

  it("type-checks strict", () => {
    expect(diagnostics(g)).toEqual([]);
  });

  it("says so in the type's doc and takes T | null in the guard and codecs", () => {
    const [types] = [...g.files].filter(([p]) => p.endsWith("/types.ts")).map(([, c]) => c);
    const [validate] = [...g.files].filter(([p]) => p.endsWith("/validate.ts")).map(([, c]) => c);
    const [json] = [...g.files].filter(([p]) => p.endsWith("/json.ts")).map(([, c]) => c);
    expect(types).toMatch(/The schema also admits `null`[^\n]*\n[^\n]*\n?.*export interface NullableSimpleUser \{/s);
    expect(validate).toContain("export function isNullableSimpleUser(value: unknown): value is NullableSimpleUser | null {");
    expect(validate).toContain("export function isRepo(value: unknown): value is Repo {");
    expect(json).toContain("export function encodeNullableSimpleUserJson(value: NullableSimpleUser | null): string {");
    expect(json).toMatch(/export function decodeNullableSimpleUserJson\(text: string, options\?: JsonDecodeOptions\): NullableSimpleUser \| null \{/);
  });

  const rows: [type: string, value: unknown, valid: boolean][] = [
    ["NullableSimpleUser", null, true],
    ["NullableSimpleUser", { login: "a" }, true],
    ["NullableSimpleUser", {}, false],
    ["NullableSimpleUser", "x", false],
    // nullable + enum without null: null is accepted (see docs/validators.md).
    ["Color", null, true],
    ["Color", "red", true],
    ["Color", "blue", false],
    ["Choice", null, true],
    ["Choice", 3, true],
    ["Choice", true, false],
    ["When", null, true],
    ["When", "2024-01-01T00:00:00Z", true],
    ["When", "yesterday", false],
    ["Repo", { owner: null }, true],
    ["Repo", { owner: { login: "a" }, color: null, owners: [null, { login: "b" }] }, true],
    ["Repo", {}, false],
    ["Repo", { owner: { login: 1 } }, false],
    ["Repo", { owner: null, color: "blue" }, false],
  ];
  it.each(rows)("is%s(%j) is %s, and validate agrees", (type, value, valid) => {
    expect(fn<Is>(g.validate, `is${type}`)(value)).toBe(valid);
    expect(fn<Validate>(g.validate, `validate${type}`)(value).length === 0).toBe(valid);
  });

  it("encodes and decodes null through the type's own codecs", () => {
    const encode = fn<(v: unknown) => string>(g.json, "encodeNullableSimpleUserJson");
    const decode = fn<(t: string) => unknown>(g.json, "decodeNullableSimpleUserJson");
    expect(encode(null)).toBe("null");
    expect(decode("null")).toBeNull();
    expect(decode(encode({ login: "a" }))).toEqual({ login: "a" });
    expect(() => decode("{}")).toThrow(ValidationError);
    expect(fn<(t: string) => unknown>(g.json, "decodeWhenJson")("null")).toBeNull();
    expect(fn<(v: unknown) => string>(g.json, "encodeRepoJson")({ owner: null, owners: [null] })).toBe('{"owner":null,"owners":[null]}');
  });
});

describe("type arrays with null, null enum values and const (OpenAPI 3.1)", () => {
  let g: Generated;
  beforeAll(async () => {
    g = await generateInline(V31);
  });

  it("type-checks strict", () => {
    expect(diagnostics(g)).toEqual([]);
  });

  const rows: [type: string, value: unknown, valid: boolean][] = [
    ["Name", null, true],
    ["Name", "abc", true],
    ["Name", "abcd", false],
    ["Name", 1, false],
    ["Size", null, true],
    ["Size", "m", true],
    ["Size", "l", false],
    ["Fixed", "fixed", true],
    ["Fixed", "other", false],
    ["Fixed", null, false],
    ["Nothing", null, true],
    ["Nothing", "x", false],
    ["Item", { name: null, fixed: "fixed" }, true],
    ["Item", { name: "ab", fixed: "fixed", size: null }, true],
    ["Item", { name: "ab", fixed: "nope" }, false],
    ["Item", { name: "abcd", fixed: "fixed" }, false],
  ];
  it.each(rows)("is%s(%j) is %s, and validate agrees", (type, value, valid) => {
    expect(fn<Is>(g.validate, `is${type}`)(value)).toBe(valid);
    expect(fn<Validate>(g.validate, `validate${type}`)(value).length === 0).toBe(valid);
  });

  it("round-trips null and const values through json.ts", () => {
    expect(fn<(t: string) => unknown>(g.json, "decodeNameJson")("null")).toBeNull();
    expect(fn<(v: unknown) => string>(g.json, "encodeSizeJson")(null)).toBe("null");
    expect(fn<(v: unknown) => string>(g.json, "encodeFixedJson")("fixed")).toBe('"fixed"');
    expect(() => fn<(t: string) => unknown>(g.json, "decodeFixedJson")('"other"')).toThrow(ValidationError);
  });
});
