import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { JsonSyntaxError } from "../../../src/runtime/json/parse.js";
import { ValidationError } from "../../../src/runtime/validation.js";
import { diagnostics, fn, generateInline, v31, type Generated } from "../json-validators/helpers.js";

const SPEC = v31(`paths: {}
components:
  schemas:
    Event:
      type: object
      required: [id, at, count]
      properties:
        id: {type: integer, format: int64}
        at: {type: string, format: date-time}
        count: {type: integer, format: int32}
        big: {type: number}
        seen: {type: array, items: {type: string, format: date-time}}
        maybe: {type: [string, "null"], format: date-time}
        totals: {type: object, additionalProperties: {type: integer, format: int64}}
        payload: {}
        kind: {$ref: "#/components/schemas/Kind"}
        parent: {$ref: "#/components/schemas/Event"}
    Kind:
      type: string
      enum: [a, b]
    Pet:
      oneOf:
        - $ref: "#/components/schemas/Cat"
        - $ref: "#/components/schemas/Dog"
      discriminator:
        propertyName: petType
    Cat:
      type: object
      required: [petType, born]
      properties:
        petType: {type: string}
        born: {type: string, format: date-time}
    Dog:
      type: object
      required: [petType, tag]
      properties:
        petType: {type: string}
        tag: {type: integer, format: int64}
    Bag:
      type: object
      properties:
        a: {type: string}
      additionalProperties: {type: integer}
`);

type Encode = (v: unknown) => string;
type Decode = (text: string, options?: { maxDepth?: number }) => unknown;

function codec(g: Generated, type: string): { encode: Encode; decode: Decode } {
  return { encode: fn<Encode>(g.json, `encode${type}Json`), decode: fn<Decode>(g.json, `decode${type}Json`) };
}

function errorOf(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected an error");
}

describe("JSON serializers, default modes (date-time string, int64 number)", () => {
  let g: Generated;
  beforeAll(async () => {
    g = await generateInline(SPEC);
  });

  it("type-check under strict", () => {
    expect(diagnostics(g)).toEqual([]);
  });

  it("encode writes what JSON.stringify writes for the same (schema-ordered) value", () => {
    const { encode } = codec(g, "Event");
    const value = { id: 1, at: "2024-01-01T00:00:00Z", count: 2, big: 1.5, seen: ["2024-01-01T00:00:00Z"], maybe: null, totals: { x: 1 }, payload: { any: ["thing", null] }, kind: "a", parent: { id: 2, at: "2024-01-01T00:00:00Z", count: 0 } };
    expect(encode(value)).toBe(JSON.stringify(value));
    expect(encode({ id: 1, at: "x", count: 2, notInSchema: true })).toBe('{"id":1,"at":"x","count":2}');
    expect(codec(g, "Bag").encode({ a: "s", b: 1, c: undefined })).toBe('{"a":"s","b":1}');
    expect(codec(g, "Pet").encode({ petType: "Dog", tag: 5 })).toBe('{"petType":"Dog","tag":5}');
  });

  it("encode refuses what JSON cannot hold instead of writing null", () => {
    expect(() => codec(g, "Event").encode({ id: 1, at: "x", count: Number.NaN })).toThrow(/not a JSON number/);
  });

  it("decode(encode(value)) gives the value back (property test)", () => {
    const { encode, decode } = codec(g, "Event");
    const dateTime = fc.date({ min: new Date("1900-01-01"), max: new Date("2200-01-01"), noInvalidDate: true }).map((d) => d.toISOString());
    const leaf = fc.record(
      { id: fc.maxSafeInteger(), at: dateTime, count: fc.integer(), big: fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n)), seen: fc.array(dateTime), maybe: fc.option(dateTime, { nil: null }), totals: fc.dictionary(fc.string().filter((k) => k !== "__proto__"), fc.maxSafeInteger()), payload: fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as unknown), kind: fc.constantFrom("a", "b") },
      { requiredKeys: ["id", "at", "count"] },
    );
    const event = fc.tuple(leaf, fc.option(leaf, { nil: undefined })).map(([e, parent]) => (parent ? { ...e, parent } : e));
    fc.assert(
      fc.property(event, (value) => {
        expect(decode(encode(value))).toEqual(value);
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  it("decode validates, with every issue and its path", () => {
    const { decode } = codec(g, "Event");
    const e = errorOf(() => decode('{"id": "1", "count": 2.5, "kind": "c", "parent": {"id": 1, "at": "x", "count": 1}}'));
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).issues.map((i) => `${i.path} ${i.rule}`)).toEqual(["/id type", "/at required", "/count type", "/kind enum", "/parent/at format"]);
  });

  it("decode rejects malformed JSON, duplicate keys, deep nesting and numbers beyond a double", () => {
    const { decode } = codec(g, "Event");
    expect(errorOf(() => decode('{"id": 1,'))).toBeInstanceOf(JsonSyntaxError);
    expect(errorOf(() => decode('{"id": 1, "id": 2, "at": "2024-01-01T00:00:00Z", "count": 1}')).message).toMatch(/duplicate key "id"/);
    expect(errorOf(() => decode('{"id": 1e400, "at": "x", "count": 1}')).message).toMatch(/out of range/);
    const deep = `{"id":1,"at":"2024-01-01T00:00:00Z","count":1,"payload":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    expect(errorOf(() => decode(deep)).message).toMatch(/nesting deeper than 128/);
    expect(errorOf(() => decode('{"id":1,"at":"2024-01-01T00:00:00Z","count":1,"payload":[[[]]]}', { maxDepth: 3 })).message).toMatch(/deeper than 3/);
  });

  it("decode keeps __proto__ an own property and leaves prototypes alone", () => {
    const value = codec(g, "Bag").decode('{"a": "x", "__proto__": 5}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>)["a"]).toBeUndefined();
    expect(errorOf(() => codec(g, "Bag").decode('{"__proto__": "not an integer"}'))).toBeInstanceOf(ValidationError);
  });
});

describe("JSON serializers, dates: Date and int64: bigint", () => {
  let g: Generated;
  beforeAll(async () => {
    g = await generateInline(SPEC, { dates: "Date", int64: "bigint" });
  });

  it("change the TypeScript types, and still type-check under strict", () => {
    const types = [...g.files].find(([p]) => p.endsWith("types.ts"))![1];
    expect(types).toMatch(/ {2}id: bigint;/);
    expect(types).toMatch(/ {2}at: Date;/);
    expect(types).toMatch(/ {2}seen\?: Date\[\];/);
    expect(types).toMatch(/ {2}maybe\?: Date \| null;/);
    expect(types).toMatch(/ {2}count: number;/);
    expect(diagnostics(g)).toEqual([]);
  });

  it("decode gives Date and exact bigint values, encode writes them back", () => {
    const { encode, decode } = codec(g, "Event");
    const text = '{"id":9007199254740993,"at":"2024-02-29T12:00:00.500+01:00","count":1,"big":12345678901234567890,"seen":["2024-01-01T00:00:00Z"],"maybe":null,"totals":{"t":-9223372036854775808},"parent":{"id":1,"at":"2024-01-01T00:00:00Z","count":2}}';
    const value = decode(text) as Record<string, unknown>;
    expect(value["id"]).toBe(9007199254740993n);
    expect(value["at"]).toEqual(new Date("2024-02-29T11:00:00.500Z"));
    expect(value["big"]).toBe(12345678901234567890);
    expect((value["seen"] as unknown[])[0]).toBeInstanceOf(Date);
    expect(value["totals"]).toEqual({ t: -9223372036854775808n });
    expect((value["parent"] as Record<string, unknown>)["id"]).toBe(1n);
    expect(encode(value)).toBe('{"id":9007199254740993,"at":"2024-02-29T11:00:00.500Z","count":1,"big":12345678901234567000,"seen":["2024-01-01T00:00:00.000Z"],"maybe":null,"totals":{"t":-9223372036854775808},"parent":{"id":1,"at":"2024-01-01T00:00:00.000Z","count":2}}');
    expect(decode(encode(value))).toEqual(value);
  });

  it("decode reports values the modes cannot take", () => {
    const { decode } = codec(g, "Event");
    const e = errorOf(() => decode('{"id":9223372036854775808,"at":"2024-02-30T00:00:00Z","count":1,"seen":[5]}')) as ValidationError;
    expect(e.issues.map((i) => `${i.path} ${i.rule}`)).toEqual(["/id format", "/at format", "/seen/0 type"]);
    expect(errorOf(() => decode('{"id":1.5,"at":"2024-01-01T00:00:00Z","count":1}'))).toBeInstanceOf(ValidationError);
  });

  it("validators check the in-memory shape", () => {
    const is = fn<(v: unknown) => boolean>(g.validate, "isEvent");
    expect(is({ id: 1n, at: new Date(0), count: 1 })).toBe(true);
    expect(is({ id: 1, at: new Date(0), count: 1 })).toBe(false);
    expect(is({ id: 1n, at: "2024-01-01T00:00:00Z", count: 1 })).toBe(false);
    expect(is({ id: 1n, at: new Date(Number.NaN), count: 1 })).toBe(false);
  });

  it("discriminated unions convert the variant the tag names", () => {
    const { encode, decode } = codec(g, "Pet");
    expect(decode('{"petType":"Cat","born":"2020-01-01T00:00:00Z"}')).toEqual({ petType: "Cat", born: new Date("2020-01-01T00:00:00Z") });
    expect(decode('{"petType":"Dog","tag":18446744073709551}')).toEqual({ petType: "Dog", tag: 18446744073709551n });
    expect(encode({ petType: "Dog", tag: 2n ** 62n })).toBe(`{"petType":"Dog","tag":${2n ** 62n}}`);
  });
});

describe("JSON serializers, int64: string", () => {
  it("reads and writes int64 as decimal strings without loss, and refuses non-digits on encode", async () => {
    const g = await generateInline(SPEC, { int64: "string" });
    expect(diagnostics(g)).toEqual([]);
    const { encode, decode } = codec(g, "Event");
    const value = decode('{"id":9223372036854775807,"at":"2024-01-01T00:00:00Z","count":1}') as Record<string, unknown>;
    expect(value["id"]).toBe("9223372036854775807");
    expect(encode(value)).toBe('{"id":9223372036854775807,"at":"2024-01-01T00:00:00Z","count":1}');
    expect(() => encode({ ...value, id: '1,"injected":true' })).toThrow(/not a decimal integer/);
  });
});
