import { generateSpec } from "../../../src/pipeline/generate-files.js";
import { memorySpecHost } from "../../../src/parsers/host.js";

/** An API with the awkward cases: a quote in a path, header and deepObject parameters, a form-only body, 4XX. */
export const AWKWARD_API = `
openapi: 3.1.0
info: { title: Odd API, version: "1" }
servers: [{ url: "https://h.example/base/v1" }]
paths:
  /things/{thing-id}/say"hi"/{n}:
    get:
      operationId: getThing
      parameters:
        - { name: thing-id, in: path, required: true, schema: { type: string } }
        - { name: n, in: path, required: true, schema: { type: integer, minimum: 1, maximum: 9 } }
        - { name: X-Trace, in: header, required: false, schema: { type: string } }
        - { name: tags, in: query, explode: true, schema: { type: array, items: { type: integer } } }
        - { name: kind, in: query, schema: { $ref: "#/components/schemas/Kind" } }
        - { name: f, in: query, style: deepObject, explode: true, schema: { type: object, additionalProperties: { type: string } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Thing" } } } }
        "4XX": { description: client error, content: { application/json: { schema: { $ref: "#/components/schemas/Problem" } } } }
  /things:
    post:
      operationId: createThing
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded: { schema: { $ref: "#/components/schemas/Thing" } }
      responses:
        "204": { description: created }
        default: { description: anything else, content: { application/json: { schema: { $ref: "#/components/schemas/Problem" } } } }
components:
  schemas:
    Kind: { type: string, enum: [a, "b*/"] }
    Thing:
      type: object
      required: [name]
      properties: { name: { type: string }, size: { type: integer }, ok: { type: boolean } }
    Problem: { type: object, required: [message], properties: { message: { type: string } } }
`;

export function generateAwkward() {
  const host = memorySpecHost({ "/spec/odd.yaml": AWKWARD_API });
  return generateSpec({ file: "/spec/odd.yaml", display: "odd.yaml" }, host);
}
