import { describe, expect, it } from "vitest";
import type { NamedType, TypeExpr } from "../../src/ir/model.js";
import { parameterSerialization, parameterShape } from "../../src/ir/parameter-shape.js";
import { enumType, field, record, ref, scalar } from "../helpers/ir.js";

const types: NamedType[] = [
  record("Range", [field("gt", scalar("int32")), field("lt", scalar("int32"))]),
  record("Deep", [field("range", ref("Range"))]),
  record("Tags", [field("tag", scalar("string"), { max: "unbounded" })]),
  record("Self", [field("next", ref("Self"))]),
  enumType("Color", ["red"]),
];
const lookup = (id: string) => types.find((t) => t.id === id);
const shape = (t: TypeExpr) => {
  const s = parameterShape(t, lookup);
  return { shapes: [...s.shapes].sort(), nested: s.nested, unknown: s.unknown };
};

describe("parameterShape", () => {
  const rows: readonly [string, TypeExpr, ReturnType<typeof shape>][] = [
    ["a scalar", scalar("string"), { shapes: ["primitive"], nested: false, unknown: false }],
    ["an enum", ref("Color"), { shapes: ["primitive"], nested: false, unknown: false }],
    ["an array of scalars", { kind: "list", of: scalar("int32") }, { shapes: ["array"], nested: false, unknown: false }],
    ["an array of objects", { kind: "list", of: ref("Range") }, { shapes: ["array"], nested: true, unknown: false }],
    ["an object of scalars", ref("Range"), { shapes: ["object"], nested: false, unknown: false }],
    ["an object with an object inside", ref("Deep"), { shapes: ["object"], nested: true, unknown: false }],
    ["an object with a repeated field", ref("Tags"), { shapes: ["object"], nested: true, unknown: false }],
    ["a recursive object", ref("Self"), { shapes: ["object"], nested: true, unknown: false }],
    ["a map of scalars", { kind: "map", key: scalar("string"), value: scalar("string") }, { shapes: ["object"], nested: false, unknown: false }],
    ["Stripe's integer | range", { kind: "union", of: [scalar("int32"), ref("Range")] }, { shapes: ["object", "primitive"], nested: false, unknown: false }],
    ["any", scalar("any"), { shapes: [], nested: false, unknown: true }],
    ["a type not built yet", ref("Missing"), { shapes: [], nested: false, unknown: true }],
  ];
  for (const [name, t, want] of rows) it(name, () => expect(shape(t)).toEqual(want));
});

describe("parameterSerialization", () => {
  it("applies OpenAPI's defaults per location and style", () => {
    expect(parameterSerialization({ in: "query" })).toEqual({ style: "form", explode: true });
    expect(parameterSerialization({ in: "cookie" })).toEqual({ style: "form", explode: true });
    expect(parameterSerialization({ in: "path" })).toEqual({ style: "simple", explode: false });
    expect(parameterSerialization({ in: "header" })).toEqual({ style: "simple", explode: false });
    expect(parameterSerialization({ in: "query", style: "pipeDelimited" })).toEqual({ style: "pipeDelimited", explode: false });
    expect(parameterSerialization({ in: "query", style: "deepObject" })).toEqual({ style: "deepObject", explode: true });
    expect(parameterSerialization({ in: "path", style: "label", explode: true })).toEqual({ style: "label", explode: true });
  });
});

describe("parameterShape of derived records", () => {
  it("looks at the base's properties too", () => {
    const withBase: NamedType[] = [
      record("Base", [field("inner", ref("Base2"))]),
      record("Base2", [field("x", scalar("int32"))]),
      record("Derived", [field("y", scalar("int32"))], { base: { id: "Base", derivation: "extension" } }),
    ];
    const s = parameterShape(ref("Derived"), (id) => withBase.find((t) => t.id === id));
    expect(s.nested).toBe(true);
  });
});
