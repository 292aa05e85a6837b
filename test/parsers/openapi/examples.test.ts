/** OpenAPI examples reach the IR (schemas, properties, parameters, headers, bodies) with their origin (issue 30). */
import { describe, expect, it } from "vitest";
import { operation, parse, type, v20, v30, v31 } from "./helpers.js";

describe("examples in the IR", () => {
  it("3.0: schema example, property example, parameter and media type examples (with $ref)", () => {
    const doc = parse(v30(`paths:
  /pets/{id}:
    get:
      operationId: getPet
      parameters:
        - name: id
          in: path
          required: true
          schema: {type: string}
          example: p-1
        - name: q
          in: query
          schema: {type: string, example: fromSchema}
      responses:
        "200":
          description: ok
          headers:
            X-Rate: {schema: {type: integer}, example: 5}
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Pet"}
              examples:
                rex: {$ref: "#/components/examples/Rex"}
                tom: {summary: A cat, value: {name: Tom}}
                far: {externalValue: "http://example.com/x.json"}
components:
  examples:
    Rex: {summary: A dog, value: {name: Rex, age: 3}}
  schemas:
    Pet:
      type: object
      example: {name: Default}
      properties:
        name: {type: string, example: Rex}
        age: {type: integer}
`));
    const pet = type(doc, "#/components/schemas/Pet");
    expect(pet.examples?.map((e) => e.value)).toEqual([{ name: "Default" }]);
    expect(pet.examples?.[0]!.origin).toMatchObject({ pointer: "#/components/schemas/Pet/example", line: 34 });
    if (pet.kind !== "record") throw new Error("record expected");
    const name = pet.members.find((m) => m.kind === "field" && m.name === "name");
    expect(name && name.kind === "field" ? name.examples?.map((e) => e.value) : undefined).toEqual(["Rex"]);
    const op = operation(doc, "getPet");
    expect(op.parameters.find((p) => p.name === "id")?.examples?.map((e) => e.value)).toEqual(["p-1"]);
    expect(op.parameters.find((p) => p.name === "q")?.examples?.map((e) => e.value)).toEqual(["fromSchema"]);
    const ok = op.responses[0]!;
    expect(ok.headers[0]!.examples?.map((e) => e.value)).toEqual([5]);
    expect(ok.contents[0]!.examples?.map(({ name, summary, value }) => ({ name, summary, value }))).toEqual([
      { name: "rex", summary: "A dog", value: { name: "Rex", age: 3 } },
      { name: "tom", summary: "A cat", value: { name: "Tom" } },
    ]);
    expect(ok.contents[0]!.examples?.[0]!.origin.pointer).toBe("#/components/examples/Rex/value");
  });

  it("3.1: a schema's examples array", () => {
    const doc = parse(v31(`components:
  schemas:
    Code: {type: string, examples: [a, b]}
`));
    expect(type(doc, "#/components/schemas/Code").examples?.map((e) => e.value)).toEqual(["a", "b"]);
  });

  it("2.0: x-example on a parameter, response examples by media type, schema example", () => {
    const doc = parse(v20(`produces: [application/json]
paths:
  /items:
    get:
      operationId: list
      parameters:
        - {name: limit, in: query, type: integer, x-example: 10}
      responses:
        "200":
          description: ok
          schema: {$ref: "#/definitions/Item"}
          examples:
            application/json: {id: 7}
definitions:
  Item:
    type: object
    properties: {id: {type: integer}}
    example: {id: 1}
`));
    const op = operation(doc, "list");
    expect(op.parameters[0]!.examples?.map((e) => e.value)).toEqual([10]);
    const body = op.responses[0]!.contents[0]!;
    expect(body.examples?.map((e) => e.value)).toEqual([{ id: 7 }]);
    expect(body.examples?.[0]!.origin.pointer).toBe("#/paths/~1items/get/responses/200/examples/application~1json");
    expect(type(doc, "#/components/schemas/Item").examples?.map((e) => e.value)).toEqual([{ id: 1 }]);
  });
});
