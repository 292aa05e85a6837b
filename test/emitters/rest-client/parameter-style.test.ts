import { describe, expect, it } from "vitest";
import type { NamedType, TypeExpr } from "../../../src/ir/model.js";
import { objectKeys, planSource } from "../../../src/emitters/rest-client/parameter-style.js";
import { typesContext } from "../../../src/emitters/types/context.js";
import { assignNames } from "../../../src/naming/assign-names.js";
import { doc, enumType, field, record, ref, scalar } from "../../helpers/ir.js";

const types: NamedType[] = [
  record("Range", [field("gt", scalar("int32")), field("lt", scalar("double"))]),
  record("Self", [field("next", ref("Self")), field("ok", scalar("boolean"))]),
  record("Map", [], { additionalProperties: scalar("int64") }),
  record("Many", [field("tag", scalar("string"), { max: "unbounded" })]),
  record("Wide", Array.from({ length: 8 }, (_, i) => field(`property_number_${i}`, scalar("int32")))),
  enumType("Color", ["red"]),
];
const d = doc(types, { format: "openapi" });
const tctx = typesContext(d, assignNames(d));

describe("coercion plans", () => {
  const rows: readonly [string, TypeExpr, string][] = [
    ["an integer", scalar("int32"), `"integer"`],
    ["an enum (its base)", ref("Color"), `"string"`],
    ["a list", { kind: "list", of: scalar("boolean") }, `{ list: "boolean" }`],
    ["a record", ref("Range"), `{ fields: [["gt", "integer"], ["lt", "number"]] }`],
    ["a record met again inside itself", ref("Self"), `{ fields: [["next", "any"], ["ok", "boolean"]] }`],
    ["additionalProperties", ref("Map"), `{ fields: [], rest: "integer" }`],
    ["a repeated field", ref("Many"), `{ fields: [["tag", { list: "string" }]] }`],
    ["a union", { kind: "union", of: [scalar("int32"), ref("Range")] }, `{ anyOf: ["integer", { fields: [["gt", "integer"], ["lt", "number"]] }] }`],
  ];
  for (const [name, t, want] of rows) it(name, () => expect(planSource(t, tctx)).toBe(want));

  it("puts one field per line when the plan would pass 120 columns", () => {
    const text = planSource(ref("Wide"), tctx, "  ");
    expect(text.split("\n")).toEqual([
      "{",
      "    fields: [",
      ...Array.from({ length: 8 }, (_, i) => `      ["property_number_${i}", "integer"],`),
      "    ],",
      "  }",
    ]);
  });

  it("lists a closed record's keys (free-form objects have none)", () => {
    expect(objectKeys(ref("Range"), tctx)).toEqual(["gt", "lt"]);
    expect(objectKeys(ref("Map"), tctx)).toBeUndefined();
  });
});
