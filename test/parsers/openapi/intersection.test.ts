/**
 * OpenAPI's composition keywords as the specifications define them, end to end: each document below is generated
 * with every artifact, type-checked strict (one program for all of them), and its validators, JSON codecs and server
 * are loaded and run.
 *  - allOf as intersection: a property declared in several parts is one property that satisfies every declaration
 *    (ajv, from the same text, agrees on every sample);
 *  - discriminators with and without mapping, inline variants, variants whose own enum contradicts their implied
 *    tag, and 3.0 allOf hierarchies (a base with a discriminator that other schemas extend);
 *  - enums whose values are of another type than declared;
 *  - string facets beside a $ref to an object (3.1).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type { SpecWarning } from "../../../src/ir/model.js";
import { memorySpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";
import { REPO } from "../../helpers/seeds.js";
import { typecheckFileSets } from "../../helpers/typecheck.js";
import { pointRuntimeAt } from "../../helpers/source-runtime.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const RUNTIME = path.join(REPO, "src/runtime/index.ts");

const ALLOF = `openapi: 3.1.0
info: {title: Merge, version: "1"}
paths: {}
components:
  schemas:
    Base:
      type: object
      required: [id]
      properties:
        id: {type: string}
        status: {type: string, enum: [active, paused, gone]}
        count: {type: integer, minimum: 0}
        data: {type: object}
        tags: {type: array, items: {type: string}, maxItems: 5}
    Pet:
      allOf:
        - $ref: "#/components/schemas/Base"
        - type: object
          required: [name]
          properties:
            id: {type: string, format: uuid}
            status: {type: string, enum: [active, paused]}
            count: {type: integer, maximum: 10}
            tags: {type: array, items: {type: string, minLength: 2}, minItems: 1}
            name: {type: string}
    Envelope:
      allOf:
        - type: object
          required: [meta]
          properties:
            data: {type: object, description: the payload}
            meta: {type: string}
        - type: object
          required: [data]
          properties:
            data: {$ref: "#/components/schemas/Pet"}
            meta: {type: string, maxLength: 4}
    Clash:
      allOf:
        - type: object
          properties:
            k: {const: x}
            n: {type: string}
            e: {enum: [a, b, c]}
        - type: object
          properties:
            k: {const: y}
            n: {type: integer}
            e: {enum: [b, c, d]}
`;

const DISCRIMINATORS = `openapi: 3.0.3
info: {title: Zoo, version: "1"}
paths:
  /animals:
    post:
      operationId: addAnimal
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Animal"}
      responses:
        "200":
          description: the pet it became
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Pet"}
components:
  schemas:
    Pet:
      oneOf:
        - $ref: "#/components/schemas/Cat"
        - $ref: "#/components/schemas/Dog"
        - $ref: "#/components/schemas/Fish"
        - type: object
          required: [kind]
          properties: {kind: {type: string, enum: [bird, parrot]}, wings: {type: integer}}
      discriminator:
        propertyName: kind
        mapping: {goldfish: "#/components/schemas/Fish", carp: Fish}
    Cat:
      type: object
      required: [kind]
      properties: {kind: {type: string, enum: [cat]}, meow: {type: boolean}}
    Dog:
      type: object
      required: [kind]
      properties: {kind: {type: string}, bark: {type: boolean}}
    Fish:
      type: object
      required: [kind]
      properties: {kind: {type: string}, fins: {type: integer}}
    Animal:
      type: object
      required: [animalType]
      properties: {animalType: {type: string}, name: {type: string}}
      discriminator:
        propertyName: animalType
        mapping: {lion: "#/components/schemas/Lion"}
    Lion:
      allOf:
        - $ref: "#/components/schemas/Animal"
        - {type: object, required: [mane], properties: {mane: {type: boolean}}}
    Tiger:
      allOf:
        - $ref: "#/components/schemas/Animal"
        - {type: object, properties: {stripes: {type: integer}}}
    WhiteTiger:
      allOf:
        - $ref: "#/components/schemas/Tiger"
        - {type: object, properties: {blueEyes: {type: boolean}, name: {type: string, maxLength: 8}}}
`;

const ENUMS = `openapi: 3.0.3
info: {title: Flags, version: "1"}
paths:
  /flags:
    get:
      operationId: getFlags
      parameters:
        - {name: on, in: query, schema: {type: string, enum: [false, true]}}
        - {name: level, in: query, schema: {type: integer, enum: ["1", "2"]}}
        - {name: mixed, in: query, schema: {type: integer, enum: [1, x]}}
      responses:
        "200":
          description: the flags
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Flags"}
components:
  schemas:
    Flags:
      type: object
      properties:
        on: {type: string, enum: [false, true]}
        level: {type: integer, enum: ["1", "2"]}
`;

const REF_FACETS = `openapi: 3.1.0
info: {title: Holder, version: "1"}
paths: {}
components:
  schemas:
    Pet: {type: object, properties: {name: {type: string}}}
    Code: {type: string}
    Holder:
      type: object
      properties:
        pet: {$ref: "#/components/schemas/Pet", maxLength: 100, pattern: "^a", minimum: 3}
        pets: {type: array, items: {$ref: "#/components/schemas/Pet", minLength: 2}}
        code: {$ref: "#/components/schemas/Code", maxLength: 3}
`;

type Module = Record<string, (...args: never[]) => unknown>;
interface Case {
  readonly files: Map<string, string>;
  readonly warnings: readonly SpecWarning[];
  readonly m: Module;
}

const SPECS = { allof: ALLOF, discriminators: DISCRIMINATORS, enums: ENUMS, refFacets: REF_FACETS };
const cases = new Map<string, Case>();
let diagnostics: Map<string, string[]>;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "specforge-intersection-"));
  for (const [name, yaml] of Object.entries(SPECS)) {
    const out = generateSpec({ file: "/spec/api.yaml", display: "api.yaml", outDir: name }, memorySpecHost({ "/spec/api.yaml": yaml }));
    const files = new Map(out.files.map((f) => [f.path, f.content]));
    for (const [p, content] of files) {
      mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
      writeFileSync(path.join(dir, p), pointRuntimeAt(content, RUNTIME));
    }
    const m = (await import(pathToFileURL(path.join(dir, name, "index.ts")).href)) as Module;
    cases.set(name, { files, warnings: out.warnings, m });
  }
  diagnostics = typecheckFileSets(new Map([...cases].map(([k, c]) => [k, c.files])));
}, 240_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const get = (name: string) => cases.get(name)!;
const call = (c: Case, fn: string, ...args: unknown[]): unknown => {
  const f = c.m[fn];
  if (typeof f !== "function") throw new Error(`no generated function ${fn}`);
  return (f as (...a: unknown[]) => unknown)(...args);
};
const is = (c: Case, type: string, v: unknown) => call(c, `is${type}`, v) as boolean;
const types = (c: Case, name: string) => c.files.get(`${name}/types.ts`)!;
/** The JSON writer's text, parsed by the JSON reader, gives the value back; every key is written once. */
function roundTrip(c: Case, type: string, value: unknown): void {
  const text = call(c, `encode${type}Json`, value) as string;
  for (const key of text.match(/"[A-Za-z]+":/g) ?? []) expect(text.split(key).length - 1, `${key} in ${text}`).toBeLessThanOrEqual(1);
  expect(JSON.parse(text)).toEqual(value);
  expect(call(c, `decode${type}Json`, text)).toEqual(value);
}

describe("generated code", () => {
  it.each(Object.keys(SPECS))("%s: every artifact type-checks strict", (name) => {
    expect(diagnostics.get(name)).toEqual([]);
  });
});

describe("allOf as intersection", () => {
  const UUID = "123e4567-e89b-12d3-a456-426614174000";

  it("declares a re-declared property once, with the narrower type", () => {
    const ts = types(get("allof"), "allof");
    const pet = /export interface Pet \{[^]*?\n\}/.exec(ts)![0];
    expect(pet.match(/^\s+id\??:/gm)).toEqual(["  id:"]);
    expect(pet).not.toMatch(/_2/);
    expect(pet).toMatch(/status\?: PetStatus;/);
    expect(ts).toMatch(/export type PetStatus = "active" \| "paused";/);
    expect(pet).toMatch(/\/\*\* @format uuid \*\/\n\s*id: string;/);
    expect(pet).toMatch(/name: string;/);
    // Envelope's data is Pet (not a free-form object), required by the second part; meta required by the first.
    expect(ts).toMatch(/export interface Envelope \{[^}]*data: Pet;[^}]*meta: string;/);
  });

  it("contradictions are located warnings, and never only where nothing is valid", () => {
    const c = get("allof");
    const clash = c.warnings.filter((w) => w.detail.includes("of Clash"));
    expect(clash.map((w) => [w.line, /property "(\w)"/.exec(w.detail)![1]])).toEqual([[47, "k"], [48, "n"]]);
    expect(clash.every((w) => w.detail.includes("its type is never"))).toBe(true);
    const ts = types(c, "allof");
    expect(ts).toMatch(/export interface Clash \{\s*k\?: ClashK;\s*n\?: ClashN;\s*e\?: ClashE;/);
    expect(ts).toMatch(/export type ClashK = never;/);
    expect(ts).toMatch(/export type ClashN = never;/);
    expect(ts).toMatch(/export type ClashE = "b" \| "c";/);
    expect(c.warnings.filter((w) => !w.detail.includes("of Clash"))).toEqual([]);
  });

  const samples: [type: string, value: unknown][] = [
    ["Pet", { id: UUID, name: "Rex" }],
    ["Pet", { id: "not-a-uuid", name: "Rex" }],
    ["Pet", { id: UUID }],
    ["Pet", { name: "Rex" }],
    ["Pet", { id: UUID, name: "Rex", status: "paused" }],
    ["Pet", { id: UUID, name: "Rex", status: "gone" }],
    ["Pet", { id: UUID, name: "Rex", status: "other" }],
    ["Pet", { id: UUID, name: "Rex", count: 10 }],
    ["Pet", { id: UUID, name: "Rex", count: 11 }],
    ["Pet", { id: UUID, name: "Rex", count: -1 }],
    ["Pet", { id: UUID, name: "Rex", count: 2.5 }],
    ["Pet", { id: UUID, name: "Rex", tags: ["ab"] }],
    ["Pet", { id: UUID, name: "Rex", tags: [] }],
    ["Pet", { id: UUID, name: "Rex", tags: ["a"] }],
    ["Pet", { id: UUID, name: "Rex", tags: ["ab", "cd", "ef", "gh", "ij", "kl"] }],
    ["Pet", { id: UUID, name: "Rex", data: { any: 1 } }],
    ["Pet", { id: UUID, name: "Rex", data: [1] }],
    ["Envelope", { meta: "m", data: { id: UUID, name: "Rex" } }],
    ["Envelope", { meta: "m", data: {} }],
    ["Envelope", { meta: "m" }],
    ["Envelope", { data: { id: UUID, name: "Rex" } }],
    ["Envelope", { meta: "12345", data: { id: UUID, name: "Rex" } }],
    ["Clash", {}],
    ["Clash", { k: "x" }],
    ["Clash", { k: "y" }],
    ["Clash", { n: "1" }],
    ["Clash", { n: 1 }],
    ["Clash", { e: "b" }],
    ["Clash", { e: "a" }],
    ["Clash", { e: "d" }],
  ];

  it("validators give ajv's verdict on every sample (both verdicts occur)", () => {
    const c = get("allof");
    const doc = parseYaml(ALLOF) as { components: object };
    const ajv = addFormats(new Ajv2020({ strict: false }));
    ajv.addSchema({ $id: "spec", components: doc.components });
    const verdicts = samples.map(([type, value]) => {
      const expected = ajv.compile({ $ref: `spec#/components/schemas/${type}` })(value);
      expect([type, value, is(c, type, value)]).toEqual([type, value, expected]);
      expect((call(c, `validate${type}`, value) as unknown[]).length === 0).toBe(expected);
      return expected;
    });
    expect(verdicts.filter(Boolean).length).toBeGreaterThan(5);
    expect(verdicts.filter((v) => !v).length).toBeGreaterThan(15);
  });

  it("the JSON writer writes each key once and the reader takes its output back", () => {
    const c = get("allof");
    roundTrip(c, "Pet", { id: UUID, status: "active", count: 3, data: { a: [1] }, tags: ["ab"], name: "Rex" });
    roundTrip(c, "Envelope", { data: { id: UUID, name: "Rex" }, meta: "m" });
  });
});

describe("discriminators", () => {
  it("tags: mapping keys, else the schema name; a variant's own enum wins over a contradicting name, with a warning", () => {
    const c = get("discriminators");
    const ts = types(c, "discriminators");
    expect(ts).toMatch(/export type Pet =\s*\| \(Cat & \{ kind: "cat" \}\)\s*\| \(Dog & \{ kind: "Dog" \}\)\s*\| \(Fish & \{ kind: "goldfish" \}\)\s*\| \(Fish & \{ kind: "carp" \}\)\s*\| \(PetVariant4 & \{ kind: "bird" \}\)\s*\| \(PetVariant4 & \{ kind: "parrot" \}\);/);
    expect(c.warnings.map((w) => [w.line, w.detail])).toEqual([
      [22, 'discriminator "kind": variant Cat would be tagged "Cat" (its schema name, no mapping names it), but its own schema only allows "cat" there: those values are its tags'],
    ]);
  });

  it("a base with a discriminator that schemas extend (allOf) stands for the base and every extension", () => {
    const ts = types(get("discriminators"), "discriminators");
    expect(ts).toMatch(/export type AnimalFamily =\s*\| \(\w+ & \{ animalType: "Animal" \}\)\s*\| \(Lion & \{ animalType: "lion" \}\)\s*\| \(\w*Tiger & \{ animalType: "Tiger" \}\)\s*\| \(WhiteTiger & \{ animalType: "WhiteTiger" \}\);/);
    expect(ts).toMatch(/body: AnimalFamily;/);
    // The extensions themselves stay records derived from the base, but for one that re-declares a property its
    // base inherits (WhiteTiger's name, declared by Animal two levels up): that one is flattened, name declared once.
    expect(ts).toMatch(/Derived by extension from \{@link Animal\}\.\s*\* @generated from openapi schema #\/components\/schemas\/Lion/);
    const white = /export interface WhiteTiger \{[^]*?\n\}/.exec(ts)![0];
    expect(white.match(/^[ ]+\w+\??:/gm)).toEqual(["  animalType:", "  name?:", "  stripes?:", "  blueEyes?:"]);
    expect(ts).not.toMatch(/Derived by extension from \{@link Tiger\}/);
  });

  const samples: [type: string, value: unknown, valid: boolean][] = [
    ["Pet", { kind: "cat", meow: true }, true],
    ["Pet", { kind: "Cat" }, false],
    ["Pet", { kind: "Dog", bark: true }, true],
    ["Pet", { kind: "Dog", bark: 1 }, false],
    ["Pet", { kind: "goldfish", fins: 2 }, true],
    ["Pet", { kind: "carp" }, true],
    ["Pet", { kind: "Fish" }, false],
    ["Pet", { kind: "parrot", wings: 2 }, true],
    ["Pet", { kind: "bird", wings: "2" }, false],
    ["Pet", { kind: "cow" }, false],
    ["AnimalFamily", { animalType: "lion", mane: true }, true],
    ["AnimalFamily", { animalType: "lion" }, false],
    ["AnimalFamily", { animalType: "Lion", mane: true }, false],
    ["AnimalFamily", { animalType: "Tiger", stripes: 3 }, true],
    ["AnimalFamily", { animalType: "WhiteTiger", stripes: 3, blueEyes: true }, true],
    ["AnimalFamily", { animalType: "WhiteTiger", blueEyes: "no" }, false],
    ["AnimalFamily", { animalType: "WhiteTiger", name: "Snowflake" }, false],
    ["AnimalFamily", { animalType: "Tiger", name: "Snowflake" }, true],
    ["AnimalFamily", { animalType: "Animal", name: "generic" }, true],
    ["AnimalFamily", { animalType: "zebra" }, false],
  ];
  it.each(samples)("is%s(%j) is %s", (type, value, valid) => {
    const c = get("discriminators");
    expect(is(c, type, value)).toBe(valid);
    expect((call(c, `validate${type}`, value) as unknown[]).length === 0).toBe(valid);
  });

  it("JSON round trip of every variant", () => {
    const c = get("discriminators");
    for (const [type, value, valid] of samples) if (valid) roundTrip(c, type, value);
  });

  it("the server takes a family member and answers with a tagged variant", async () => {
    const c = get("discriminators");
    const create = c.m["createZooServer"] as unknown as (h: object, o: object) => (r: Request) => Promise<Response>;
    const handler = create({ addAnimal: ({ body }: { body: { name?: string } }) => ({ status: 200, body: { kind: "carp", fins: body.name?.length ?? 0 } }) }, { development: true });
    const post = (body: unknown) => handler(new Request("http://h/animals", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
    const ok = await post({ animalType: "lion", mane: true, name: "Leo" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ kind: "carp", fins: 3 });
    expect((await post({ animalType: "lion", name: "Leo" })).status).toBe(400);
  });
});

describe("enums whose values are of another type than declared", () => {
  it("widen to the values' types, with a warning at the enum", () => {
    const c = get("enums");
    expect(c.warnings.map((w) => `${w.line}:${w.column} ${w.detail.replace(/: the type.*/, "")}`)).toEqual([
      '8:56 enum values false, true are not of the declared type "string"',
      '9:60 enum values "1", "2" are not of the declared type "integer"',
      '10:60 enum values "x" are not of the declared type "integer"',
      '22:28 enum values false, true are not of the declared type "string"',
      '23:32 enum values "1", "2" are not of the declared type "integer"',
    ]);
    const ts = types(c, "enums");
    expect(ts).toMatch(/export type GetFlagsOnParam = false \| true;/);
    expect(ts).toMatch(/export type GetFlagsLevelParam = "1" \| "2";/);
    expect(ts).toMatch(/export type GetFlagsMixedParam = 1 \| "x";/);
    expect(ts).toMatch(/on\?: FlagsOn;\s*level\?: FlagsLevel;/);
  });

  it("validators and JSON codecs take the values as written", () => {
    const c = get("enums");
    expect(is(c, "Flags", { on: true, level: "2" })).toBe(true);
    expect(is(c, "Flags", { on: "true" })).toBe(false);
    expect(is(c, "Flags", { level: 2 })).toBe(false);
    roundTrip(c, "Flags", { on: false, level: "1" });
  });

  it("the server reads such parameters as their values", async () => {
    const c = get("enums");
    const seen: unknown[] = [];
    const create = c.m["createFlagsServer"] as unknown as (h: object, o: object) => (r: Request) => Promise<Response>;
    const handler = create({ getFlags: ({ query }: { query: unknown }) => (seen.push(query), { status: 200, body: {} }) }, {});
    expect((await handler(new Request("http://h/flags?on=true&level=2&mixed=1"))).status).toBe(200);
    expect((await handler(new Request("http://h/flags?mixed=x"))).status).toBe(200);
    expect((await handler(new Request("http://h/flags?on=yes"))).status).toBe(400);
    expect((await handler(new Request("http://h/flags?level=3"))).status).toBe(400);
    expect((await handler(new Request("http://h/flags?mixed=2"))).status).toBe(400);
    expect(seen).toEqual([{ on: true, level: "2", mixed: 1 }, { mixed: "x" }]);
  });
});

describe("facets beside a $ref (3.1)", () => {
  it("string and number facets beside a $ref to an object are no-ops, left out; beside a string they apply", () => {
    const c = get("refFacets");
    const ts = types(c, "refFacets");
    expect(ts).toMatch(/export interface Holder \{\s*pet\?: Pet;\s*pets\?: Pet\[\];\s*\/\*\* @maxLength 3 \*\/\s*code\?: Code;/);
    expect(is(c, "Holder", { pet: { name: "b" }, pets: [{ name: "x" }] })).toBe(true);
    expect(is(c, "Holder", { pet: "abc" })).toBe(false);
    expect(is(c, "Holder", { code: "abc" })).toBe(true);
    expect(is(c, "Holder", { code: "abcd" })).toBe(false);
    expect(c.warnings).toEqual([]);
  });
});
