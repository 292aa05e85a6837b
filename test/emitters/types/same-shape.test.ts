import { describe, expect, it } from "vitest";
import { typesContext } from "../../../src/emitters/types/context.js";
import { sameShapeTypes } from "../../../src/emitters/types/same-shape.js";
import { assignNames } from "../../../src/naming/assign-names.js";
import { memorySpecHost } from "../../../src/parsers/host.js";
import { loadSpec } from "../../../src/pipeline/load-spec.js";

/** The same-shape groups of an inline OpenAPI document, as "Later -> Earlier" by type name. */
function groups(schemas: string, docs = false): string[] {
  const yaml = `openapi: 3.1.0\ninfo: {title: T, version: "1"}\npaths: {}\ncomponents:\n  schemas:\n${schemas}`;
  const doc = loadSpec("/spec/api.yaml", memorySpecHost({ "/spec/api.yaml": yaml }));
  const types = typesContext(doc, assignNames(doc));
  const name = (id: string) => types.names.type(id);
  return [...sameShapeTypes(types, { docs })].map(([later, earlier]) => `${name(later)} -> ${name(earlier)}`);
}

describe("same-shape types", () => {
  it.each([
    ["same enum values", "    A: {enum: [x, y]}\n    B: {enum: [x, y]}", ["B -> A"]],
    ["enum values in another order", "    A: {enum: [x, y]}\n    B: {enum: [y, x]}", []],
    ["same facets", "    A: {type: string, maxLength: 5}\n    B: {type: string, maxLength: 5}", ["B -> A"]],
    ["other facets", "    A: {type: string, maxLength: 5}\n    B: {type: string, maxLength: 6}", []],
    ["another property key", "    A: {properties: {a: {type: string}}}\n    B: {properties: {b: {type: string}}}", []],
    ["required against optional", "    A: {properties: {a: {type: string}}, required: [a]}\n    B: {properties: {a: {type: string}}}", []],
    ["nullable against not", "    A: {properties: {a: {type: [string, 'null']}}}\n    B: {properties: {a: {type: string}}}", []],
    ["additionalProperties false against absent", "    A: {properties: {a: {type: string}}, additionalProperties: false}\n    B: {properties: {a: {type: string}}}", []],
  ])("%s", (_, schemas, expected) => {
    expect(groups(schemas)).toEqual(expected);
  });

  it("compares references by the shape of their targets, also through recursion", () => {
    const schemas = [
      "    Node: {properties: {next: {$ref: '#/components/schemas/Node'}, kids: {type: array, items: {properties: {up: {$ref: '#/components/schemas/Node'}}}}}}",
      "    Chain: {properties: {next: {$ref: '#/components/schemas/Chain'}, kids: {type: array, items: {properties: {up: {$ref: '#/components/schemas/Chain'}}}}}}",
      // Same layout, but the leaf differs two levels down: must stay apart.
      "    Tree: {properties: {next: {$ref: '#/components/schemas/Tree'}, kids: {type: array, items: {properties: {up: {type: string}}}}}}",
    ].join("\n");
    expect(groups(schemas)).toEqual(["Chain -> Node", "ChainKidsItem -> NodeKidsItem"]);
  });

  it("counts descriptions only when asked to (types.ts shows them, validators do not read them)", () => {
    const schemas = "    A: {type: string, enum: [x], description: One.}\n    B: {type: string, enum: [x], description: Two.}\n    C: {type: string, enum: [x], description: Two.}";
    expect(groups(schemas)).toEqual(["B -> A", "C -> A"]);
    expect(groups(schemas, true)).toEqual(["C -> B"]);
  });
});
