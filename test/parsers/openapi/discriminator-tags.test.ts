/**
 * Discriminator tags where a variant's own schema contradicts the tag it would get (issue 26 item 4; seven APIs of
 * the APIs.guru directory failed strict tsc on this): the AutoRest tag (`x-ms-discriminator-value`), a base whose
 * `enum` lists its subtypes' tags (the base is no variant of its own family then), a tag the variant's inherited enum
 * rejects, a variant that only extends another (an alias: its enum is its base's), and a mapping key the variant
 * rejects. Each document is generated (types, validators, JSON codecs), type-checked strict, and run; every
 * contradiction is one located warning.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { SpecWarning } from "../../../src/ir/model.js";
import { memorySpecHost } from "../../../src/parsers/host.js";
import { loadSpec } from "../../../src/pipeline/load-spec.js";
import { diagnostics, fn, generateInline, type Generated } from "../../emitters/json-validators/helpers.js";

const HEAD = `openapi: 3.0.3
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
`;

/** azure.com/deploymentmanager: the base's enum lists the tags, each extension says its own with x-ms-discriminator-value. */
const AUTOREST = `${HEAD}    Auth:
      type: object
      required: [type]
      properties:
        type: {type: string, enum: [ApiKey, Identity]}
      discriminator: {propertyName: type}
    ApiKeyAuth:
      allOf: [{$ref: "#/components/schemas/Auth"}]
      type: object
      required: [key]
      properties:
        key: {type: string}
      x-ms-discriminator-value: ApiKey
    IdentityAuth:
      allOf: [{$ref: "#/components/schemas/Auth"}]
      type: object
      x-ms-discriminator-value: Identity
    Login:
      type: object
      required: [auth]
      properties:
        auth: {$ref: "#/components/schemas/Auth"}
`;

/**
 * azure.com/recoveryservicesbackup-backupManagement: an x-ms-discriminator-value the inherited enum does not list.
 * No valid value carries it (the variant is left out, its other values are not guessed to be its tags); the base,
 * whose name is no value of its enum either, takes the enum values no extension claims.
 */
const REJECTED = `${HEAD}    Container:
      type: object
      required: [kind]
      properties:
        kind: {type: string, enum: [Invalid, VM]}
      discriminator: {propertyName: kind}
    VmContainer:
      allOf: [{$ref: "#/components/schemas/Container"}]
      properties:
        vmId: {type: string}
      x-ms-discriminator-value: VM
    ClassicContainer:
      allOf: [{$ref: "#/components/schemas/Container"}]
      properties:
        classicId: {type: string}
      x-ms-discriminator-value: Microsoft.Classic/vm
    Holder:
      type: object
      properties:
        container: {$ref: "#/components/schemas/Container"}
`;

/** oneOf variants: one only extends another (an alias, whose enum is its base's), one is mapped by two keys. */
const ONE_OF = `${HEAD}    Shape:
      oneOf:
        - $ref: "#/components/schemas/Circle"
        - $ref: "#/components/schemas/Square"
        - $ref: "#/components/schemas/Dot"
      discriminator:
        propertyName: kind
        mapping: {dot: Dot, point: Dot}
    Circle:
      type: object
      required: [kind]
      properties:
        kind: {type: string}
        r: {type: number}
    SquareBase:
      type: object
      required: [kind, side]
      properties:
        kind: {type: string, enum: [square]}
        side: {type: number}
    Square:
      allOf: [{$ref: "#/components/schemas/SquareBase"}]
    Dot:
      type: object
      required: [kind]
      properties:
        kind: {type: string, enum: [dot]}
`;

/**
 * The same shape as REJECTED, but the base's enum is AutoRest's extensible one (`x-ms-enum: {modelAsString: true}`,
 * as in azure.com/recoveryservicesbackup-backupManagement): its values are the ones known today, not a limit, so the
 * x-ms-discriminator-value outside them is a tag like the others and no warning is due.
 */
const OPEN_ENUM = REJECTED.replace(
  "kind: {type: string, enum: [Invalid, VM]}",
  "kind: {type: string, enum: [Invalid, VM], x-ms-enum: {name: ContainerKind, modelAsString: true}}",
);

const SPECS = { autorest: AUTOREST, rejected: REJECTED, oneOf: ONE_OF, openEnum: OPEN_ENUM };
type Name = keyof typeof SPECS;
const generated = new Map<Name, Generated>();
const warnings = new Map<Name, SpecWarning[]>();

beforeAll(async () => {
  for (const [name, yaml] of Object.entries(SPECS) as [Name, string][]) {
    generated.set(name, await generateInline(yaml));
    warnings.set(name, [...(loadSpec("/spec/api.yaml", memorySpecHost({ "/spec/api.yaml": yaml })).warnings ?? [])]);
  }
}, 240_000);

const g = (name: Name) => generated.get(name)!;
const typesOf = (name: Name) => [...g(name).files].find(([p]) => p.endsWith("/types.ts"))![1];
const jsonOf = (name: Name) => [...g(name).files].find(([p]) => p.endsWith("/json.ts"))![1];
const is = (name: Name, type: string, value: unknown) => fn<(v: unknown) => boolean>(g(name).validate, `is${type}`)(value);
const issues = (name: Name, type: string, value: unknown) => fn<(v: unknown) => unknown[]>(g(name).validate, `validate${type}`)(value);
/** Encode, decode: the same value back, and the writer's text is what JSON.stringify's reading of it gives. */
function roundTrip(name: Name, type: string, value: unknown): void {
  const text = fn<(v: unknown) => string>(g(name).json, `encode${type}Json`)(value);
  expect(JSON.parse(text)).toEqual(value);
  expect(fn<(t: string) => unknown>(g(name).json, `decode${type}Json`)(text)).toEqual(value);
}
const located = (name: Name) => warnings.get(name)!.map((w) => `${w.line}:${w.column} ${w.detail}`);

describe("discriminator tags a variant's own schema contradicts", () => {
  it.each(Object.keys(SPECS))("%s: types, validators and JSON codecs type-check strict", (name) => {
    expect(diagnostics(g(name as Name))).toEqual([]);
  });

  it("x-ms-discriminator-value is the tag; a base whose enum lists its extensions' tags is left out, with a warning", () => {
    expect(typesOf("autorest")).toMatch(/export type AuthFamily =\s*(\| )?\(ApiKeyAuth & \{ type: "ApiKey" \}\)\s*\| \(IdentityAuth & \{ type: "Identity" \}\);/);
    expect(typesOf("autorest")).toMatch(/auth: AuthFamily;/);
    expect(located("autorest")).toEqual([
      `6:5 discriminator "type": variant Auth would be tagged "Auth" (its schema name, no mapping names it), but its own schema only allows "ApiKey", "Identity" there: those are other variants' tags, so no value selects it and it is left out of the union`,
    ]);
  });

  it.each([
    [{ auth: { type: "ApiKey", key: "k" } }, true],
    [{ auth: { type: "ApiKey" } }, false],
    [{ auth: { type: "Identity" } }, true],
    [{ auth: { type: "IdentityAuth" } }, false],
    [{ auth: { type: "Auth" } }, false],
    [{ auth: { type: "ApiKeyAuth", key: "k" } }, false],
  ])("autorest: isLogin(%j) is %s", (value, valid) => {
    expect(is("autorest", "Login", value)).toBe(valid);
    expect(issues("autorest", "Login", value).length === 0).toBe(valid);
  });

  it("autorest: JSON round trip of every tagged variant", () => {
    roundTrip("autorest", "Login", { auth: { type: "ApiKey", key: "k" } });
    roundTrip("autorest", "Login", { auth: { type: "Identity" } });
  });

  it("a tag the inherited enum rejects selects nothing; the base takes the values no extension claims", () => {
    expect(typesOf("rejected")).toMatch(/export type ContainerFamily =\s*(\| )?\(\w+ & \{ kind: "Invalid" \}\)\s*\| \(VmContainer & \{ kind: "VM" \}\);/);
    expect(jsonOf("rejected")).not.toContain('"Microsoft.Classic/vm"');
    expect(located("rejected")).toEqual([
      `6:5 discriminator "kind": variant Container would be tagged "Container" (its schema name, no mapping names it), but its own schema only allows "Invalid", "VM" there: of those, "Invalid" are its tags (the others are other variants')`,
      `21:7 discriminator "kind": variant ClassicContainer would be tagged "Microsoft.Classic/vm" (its x-ms-discriminator-value), but its own schema only allows "Invalid", "VM" there: no valid value carries that tag, so no value selects it and it is left out of the union`,
    ]);
    expect(is("rejected", "Holder", { container: { kind: "VM", vmId: "v" } })).toBe(true);
    expect(is("rejected", "Holder", { container: { kind: "VM", vmId: 1 } })).toBe(false);
    expect(is("rejected", "Holder", { container: { kind: "Invalid" } })).toBe(true);
    expect(is("rejected", "Holder", { container: { kind: "Microsoft.Classic/vm", classicId: "c" } })).toBe(false);
    expect(issues("rejected", "Holder", { container: { kind: "Microsoft.Classic/vm" } })).not.toEqual([]);
    roundTrip("rejected", "Holder", { container: { kind: "VM", vmId: "v" } });
    roundTrip("rejected", "Holder", { container: { kind: "Invalid" } });
  });

  it("an extensible enum (x-ms-enum modelAsString) limits nothing: every x-ms-discriminator-value is a tag", () => {
    expect(typesOf("openEnum")).toMatch(/\(ClassicContainer & \{ kind: "Microsoft\.Classic\/vm" \}\)/);
    expect(typesOf("openEnum")).toMatch(/\(VmContainer & \{ kind: "VM" \}\)/);
    expect(located("openEnum")).toEqual([]);
    expect(is("openEnum", "Holder", { container: { kind: "Microsoft.Classic/vm", classicId: "c" } })).toBe(true);
    expect(is("openEnum", "Holder", { container: { kind: "Microsoft.Classic/vm", classicId: 1 } })).toBe(false);
    expect(is("openEnum", "Holder", { container: { kind: "VM", vmId: "v" } })).toBe(true);
    roundTrip("openEnum", "Holder", { container: { kind: "Microsoft.Classic/vm", classicId: "c" } });
  });

  it("oneOf: an alias variant's inherited enum gives its tags; a mapping key the variant rejects is dropped", () => {
    expect(typesOf("oneOf")).toMatch(/export type Shape =\s*\| \(Circle & \{ kind: "Circle" \}\)\s*\| \(Square & \{ kind: "square" \}\)\s*\| \(Dot & \{ kind: "dot" \}\);/);
    expect(jsonOf("oneOf")).not.toMatch(/case "(Square|point)":/);
    expect(located("oneOf")).toEqual([
      `9:11 discriminator "kind": variant Square would be tagged "Square" (its schema name, no mapping names it), but its own schema only allows "square" there: those values are its tags`,
      `13:29 discriminator "kind": variant Dot would be tagged "point" (a mapping names it), but its own schema only allows "dot" there: no valid value carries that tag, so it selects no variant`,
    ]);
    const cases: [unknown, boolean][] = [
      [{ kind: "Circle", r: 1 }, true],
      [{ kind: "square", side: 2 }, true],
      [{ kind: "square" }, false],
      [{ kind: "Square", side: 2 }, false],
      [{ kind: "dot" }, true],
      [{ kind: "point" }, false],
    ];
    for (const [value, valid] of cases) expect([value, is("oneOf", "Shape", value)]).toEqual([value, valid]);
    for (const [value, valid] of cases) if (valid) roundTrip("oneOf", "Shape", value);
  });
});
