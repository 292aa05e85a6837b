import { v31 } from "./helpers.js";

/** An inline OpenAPI 3.1 spec with every construct the validators handle, shared by the validator and ajv tests. */
export const KITCHEN = v31(`paths: {}
components:
  schemas:
    Kitchen:
      type: object
      additionalProperties: false
      required: [id, name, count, ratio, tags, when, day]
      properties:
        id: {type: integer, format: int64}
        small: {type: integer, format: int32, minimum: -5, exclusiveMaximum: 100}
        name: {type: string, minLength: 2, maxLength: 5, pattern: "^[a-zé😀]+$"}
        count: {type: integer, multipleOf: 3}
        ratio: {type: number, exclusiveMinimum: 0, maximum: 1.5}
        tags: {type: array, items: {type: string}, minItems: 1, maxItems: 3, uniqueItems: true}
        when: {type: string, format: date-time}
        day: {type: string, format: date}
        site: {type: string, format: uri}
        mail: {type: string, format: email}
        uid: {type: string, format: uuid}
        note: {type: [string, "null"]}
        color: {$ref: "#/components/schemas/Color"}
        kind: {const: kitchen}
        labels: {type: object, additionalProperties: {type: integer}}
        mixed: {type: [string, integer]}
    Color:
      type: string
      enum: [red, green]
    Pet:
      oneOf:
        - $ref: "#/components/schemas/Cat"
        - $ref: "#/components/schemas/Dog"
      discriminator:
        propertyName: petType
        mapping:
          cat: "#/components/schemas/Cat"
          dog: "#/components/schemas/Dog"
    Cat:
      type: object
      required: [petType, lives]
      properties:
        petType: {type: string}
        lives: {type: integer, minimum: 0, maximum: 9}
    Dog:
      type: object
      required: [petType, bark]
      properties:
        petType: {type: string}
        bark: {type: boolean}
    Shape:
      oneOf:
        - $ref: "#/components/schemas/Square"
        - $ref: "#/components/schemas/Circle"
    EitherShape:
      anyOf:
        - $ref: "#/components/schemas/Square"
        - $ref: "#/components/schemas/Circle"
    Square:
      type: object
      required: [side]
      properties:
        side: {type: number}
    Circle:
      type: object
      required: [radius]
      properties:
        radius: {type: number}
    Base:
      type: object
      required: [id]
      properties:
        id: {type: string}
    Derived:
      allOf:
        - $ref: "#/components/schemas/Base"
        - type: object
          required: [extra]
          properties:
            extra: {type: boolean}
    Tree:
      type: object
      required: [value]
      properties:
        value: {type: integer}
        children:
          type: array
          items: {$ref: "#/components/schemas/Tree"}
    Open:
      type: object
      properties:
        a: {type: string}
      additionalProperties: {type: number}
    Hostile:
      type: object
      required: [constructor]
      properties:
        __proto__: {type: string}
        constructor: {type: string}
        a/b~c: {type: integer}
    Code:
      type: string
      pattern: "^[A-Z]{3}$"
      description: "a */ comment closer and a \\"quote\\" in the docs"
`);

/** A valid Kitchen; tests change one property at a time. */
export const KITCHEN_OK = {
  id: 1,
  name: "abé",
  count: 9,
  ratio: 1.5,
  tags: ["a", "b"],
  when: "2024-02-29T23:59:60Z",
  day: "2024-02-29",
};
