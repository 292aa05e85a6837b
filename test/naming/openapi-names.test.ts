import { describe, expect, it } from "vitest";
import { assignNames } from "../../src/naming/assign-names.js";
import { memorySpecHost } from "../../src/parsers/host.js";
import { generateSpec } from "../../src/pipeline/generate-files.js";
import { typecheckFiles } from "../helpers/typecheck.js";

/** The collisions, each in a document of its own: names come out distinct and the code compiles strict. */
function generate(yaml: string) {
  return generateSpec({ file: "/spec/api.yaml", display: "api.yaml", outDir: "api" }, memorySpecHost({ "/spec/api.yaml": yaml }));
}

const PETS = `openapi: 3.0.3
info: {title: Pets, version: "1"}
paths:
  /pets:
    post:
      operationId: createPet
      requestBody: {content: {application/json: {schema: {$ref: "#/components/schemas/CreatePetResponse"}}}}
      responses:
        "201": {description: made, content: {application/json: {schema: {$ref: "#/components/schemas/CreatePetResponse"}}}}
        default: {description: error, content: {application/json: {schema: {$ref: "#/components/schemas/validation-error"}}}}
  /pets/{id}:
    get:
      operationId: find pet by id
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Nil"}}}}
    delete:
      operationId: find-pet-by-id
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses: {"204": {description: gone}}
components:
  schemas:
    CreatePetResponse: {type: object, properties: {id: {type: integer}}}
    validation-error: {type: object, properties: {message: {type: string}}}
    ValidationError: {type: object, properties: {code: {type: string}}}
    Nil: {type: string}
    PetsClient: {type: string}
`;

describe("names of an OpenAPI document", () => {
  const out = generate(PETS);
  const names = assignNames(out.doc);
  const typeName = (key: string) => names.type(`openapi:api.yaml#/components/schemas/${key}`);
  const service = out.doc.services[0]!;
  const ops = service.kind === "http" ? service.operations : [];

  it("keep schema names apart from what other schemas derive, and keep them even when the runtime exports them", () => {
    expect(typeName("CreatePetResponse")).toBe("CreatePetResponse");
    // `validation-error` and `ValidationError` both case to ValidationError: the first declared keeps it, then "_2".
    // The runtime's ValidationError is no reserved name: the files that use it import it under an alias.
    expect(typeName("validation-error")).toBe("ValidationError");
    expect(typeName("ValidationError")).toBe("ValidationError_2");
    // `isNil` is a runtime export too; the schema `Nil` keeps its name and validate.ts aliases the runtime's isNil.
    expect(typeName("Nil")).toBe("Nil");
    expect(out.files.find((f) => f.path.endsWith("validate.ts"))!.content).toMatch(/\bValidationError as ValidationError\$rt\b/);
  });

  it("give operations camelCase methods, unique per service, and server functions clear of type-derived names", () => {
    expect(ops.map((op) => names.operation(op).method)).toEqual(["createPet", "findPetById", "findPetById_2"]);
    // validate<Op>Response would be the validator of the schema CreatePetResponse: the operation yields.
    expect(names.operation(ops[0]!).validateResponse).toBe("validateCreatePet_2Response");
    expect(names.operation(ops[1]!).parseParameters).toBe("parseFindPetByIdParameters");
    // The client name a schema already took is not reused.
    expect(names.api(0).client).toBe("PetsClient_2");
  });

  it("compile strict, with the spec's operationId kept in docs and in the operation table", () => {
    expect(typecheckFiles(new Map(out.files.map((f) => [f.path, f.content])))).toEqual([]);
    const client = out.files.find((f) => f.path.endsWith("client.ts"))!.content;
    expect(client).toContain('GET /pets/{id} (operationId "find pet by id")');
    expect(client).toContain('"find pet by id",');
    const server = out.files.find((f) => f.path.endsWith("server.ts"))!.content;
    expect(server).toContain('name: "find pet by id",');
  });

  it("are deterministic", () => {
    const again = generate(PETS);
    expect(again.files.map((f) => f.content)).toEqual(out.files.map((f) => f.content));
  });
});
