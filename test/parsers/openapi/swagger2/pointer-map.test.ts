import { describe, expect, it } from "vitest";
import { PointerMap } from "../../../../src/parsers/openapi/swagger2/pointer-map.js";

describe("PointerMap", () => {
  const map = new PointerMap();
  map.relocate("#/definitions", "#/components/schemas");
  map.alias("#/paths/~1a/get/parameters/0/schema", "#/paths/~1a/get/parameters/0");
  map.relocate("#/paths/~1a/get/responses/200/schema", "#/paths/~1a/get/responses/200/content/application~1json/schema");
  map.relocate("#/paths/~1a/get/responses/200/schema", "#/paths/~1a/get/responses/200/content/application~1xml/schema");

  it.each([
    ["#/components/schemas/Pet/properties/id", "#/definitions/Pet/properties/id"],
    ["#/components/schemas", "#/definitions"],
    ["#/paths/~1a/get/parameters/0/schema/items/maxLength", "#/paths/~1a/get/parameters/0/items/maxLength"],
    ["#/paths/~1a/get/parameters/0/name", "#/paths/~1a/get/parameters/0/name"],
    ["#/paths/~1a/get/responses/200/content/application~1xml/schema/items", "#/paths/~1a/get/responses/200/schema/items"],
    // Whole segments only: "schemasX" is not under "schemas".
    ["#/components/schemasX/Pet", "#/components/schemasX/Pet"],
    ["#", "#"],
  ])("%s comes from %s", (converted, original) => {
    expect(map.toOriginal(converted)).toBe(original);
  });

  it("sends $refs to the first converted place, and never through an alias", () => {
    expect(map.toConverted("#/definitions/Pet")).toBe("#/components/schemas/Pet");
    expect(map.toConverted("#/paths/~1a/get/responses/200/schema/items")).toBe("#/paths/~1a/get/responses/200/content/application~1json/schema/items");
    expect(map.toConverted("#/paths/~1a/get/parameters/0")).toBe("#/paths/~1a/get/parameters/0");
  });
});
