/**
 * The agreement test's own parts, on small inline documents: that the walk finds every example where OpenAPI puts
 * one (and nothing that only looks like one), that the ajv reference reads the 3.0 dialect as documented, and that
 * a generated check that is wrong shows up as an unexplained disagreement, so the corpus test can fail.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { Loc } from "../../src/parsers/openapi/files.js";
import { memorySpecHost } from "../../src/parsers/host.js";
import { loadSpec } from "../../src/pipeline/load-spec.js";
import { ajvReference } from "./ajv-reference.js";
import { collectExamples, type FoundExample } from "./collect-examples.js";
import { compareExamples } from "./compare.js";
import { generatedValidators, type GeneratedCheck, type Validators } from "./generated-validators.js";

const ENTRY = "/spec/api.yaml";

function documentOf(yaml: string, others: Record<string, string> = {}) {
  const files: Record<string, string> = { [ENTRY]: yaml };
  for (const [name, text] of Object.entries(others)) files[`/spec/${name}`] = text;
  const host = memorySpecHost(files);
  return { host, collected: collectExamples(ENTRY, host) };
}

type WithSchema = FoundExample & { readonly schema: Loc };
const withSchema = (examples: readonly FoundExample[]): WithSchema[] => examples.filter((e): e is WithSchema => e.schema !== undefined);

const SPEC = `openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /pets/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: integer, minimum: 1}, example: 7}
    get:
      responses:
        "200":
          description: ok
          headers:
            Content-Type: {schema: {type: string}, example: text/plain}
            X-Rate: {schema: {type: integer}, example: 10}
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Pet"}
              examples:
                rex: {$ref: "#/components/examples/Rex"}
                far: {externalValue: "https://example.com/pet.json"}
            application/xml:
              schema: {$ref: "#/components/schemas/Pet"}
              example: "<pet/>"
components:
  examples:
    Rex: {value: {name: Rex, example: true}}
    Unused: {value: 1}
  schemas:
    Pet:
      type: object
      required: [name]
      example: {name: Tom}
      properties:
        name: {type: string, maxLength: 8, example: Tom}
        example: {type: boolean}
        tags:
          allOf:
            - $ref: "#/components/schemas/Tags"
            - example: [a, b]
    Tags: {type: array, items: {type: string, example: a}}
`;

describe("collectExamples", () => {
  it("finds examples on schemas, properties, items, allOf parts, parameters, headers and media types ($ref followed)", () => {
    const { collected } = documentOf(SPEC);
    const found = collected.examples.map((e) => `${e.at.pointer} -> ${e.schema?.pointer ?? "none"} (${e.site.kind})`);
    expect(found.sort()).toEqual(
      [
        "#/paths/~1pets~1{id}/parameters/0/example -> #/paths/~1pets~1{id}/parameters/0/schema (parameter)",
        "#/paths/~1pets~1{id}/get/responses/200/headers/X-Rate/example -> #/paths/~1pets~1{id}/get/responses/200/headers/X-Rate/schema (parameter)",
        "#/components/examples/Rex/value -> #/paths/~1pets~1{id}/get/responses/200/content/application~1json/schema (content)",
        "#/components/schemas/Pet/example -> #/components/schemas/Pet (schema)",
        "#/components/schemas/Pet/properties/name/example -> #/components/schemas/Pet/properties/name (schema)",
        // An example in an allOf part describes the value the combining schema validates.
        "#/components/schemas/Pet/properties/tags/allOf/1/example -> #/components/schemas/Pet/properties/tags (schema)",
        "#/components/schemas/Tags/items/example -> #/components/schemas/Tags/items (schema)",
      ].sort(),
    );
    // The property named "example" is a property, not an example; a Content-Type response header is ignored.
    expect(collected.skipped.map((s) => `${s.at.pointer}: ${s.reason}`).sort()).toEqual([
      "#/components/examples/Unused/value: declared in components.examples but used nowhere",
      "#/paths/~1pets~1{id}/get/responses/200/content/application~1json/examples/far: externalValue (not read)",
      "#/paths/~1pets~1{id}/get/responses/200/content/application~1xml/example: application/xml examples are not JSON values",
    ]);
  });

  it("reads Swagger 2.0: schema examples and a response's examples by media type", () => {
    const { collected } = documentOf(`swagger: "2.0"
info: {title: T, version: "1"}
paths:
  /pets:
    get:
      responses:
        "200":
          description: ok
          schema: {$ref: "#/definitions/Pet"}
          examples:
            application/json: {name: Tom}
definitions:
  Pet: {type: object, properties: {name: {type: string, example: Tom}}}
`);
    expect(collected.version).toBe("2.0");
    expect(collected.examples.map((e) => `${e.at.pointer} -> ${e.schema?.pointer}`).sort()).toEqual([
      "#/definitions/Pet/properties/name/example -> #/definitions/Pet/properties/name",
      "#/paths/~1pets/get/responses/200/examples/application~1json -> #/paths/~1pets/get/responses/200/schema",
    ]);
  });
});

describe("ajvReference", () => {
  const schemaAt = (collected: ReturnType<typeof documentOf>["collected"], pointer: string): Loc => {
    const node = [...collected.schemaNodes.values()].find((n) => n.pointer === pointer);
    if (!node) throw new Error(`no schema node ${pointer}`);
    return node;
  };

  it("reads the OpenAPI 3.0 dialect: nullable (with enum), boolean exclusive bounds", () => {
    const { collected } = documentOf(`openapi: 3.0.3
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    Color: {type: string, enum: [red], nullable: true}
    Small: {type: number, minimum: 0, exclusiveMinimum: true, maximum: 10}
    Wrapped: {allOf: [{$ref: "#/components/schemas/Small"}], nullable: true}
`);
    const check = ajvReference(collected);
    const color = check(schemaAt(collected, "#/components/schemas/Color"));
    expect([color("red").valid, color(null).valid, color("blue").valid]).toEqual([true, true, false]);
    const small = check(schemaAt(collected, "#/components/schemas/Small"));
    expect([small(0).valid, small(0.5).valid, small(10).valid, small(11).valid]).toEqual([false, true, true, false]);
    const wrapped = check(schemaAt(collected, "#/components/schemas/Wrapped"));
    expect([wrapped(null).valid, wrapped(5).valid, wrapped(0).valid]).toEqual([true, true, false]);
  });

  it("adjusted for the discriminator: the tag picks the variant", () => {
    const { collected } = documentOf(`openapi: 3.1.0
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    Pet:
      anyOf: [{$ref: "#/components/schemas/Cat"}, {$ref: "#/components/schemas/Dog"}]
      discriminator: {propertyName: kind, mapping: {cat: "#/components/schemas/Cat"}}
    Cat: {type: object, required: [kind, lives], properties: {kind: {type: string}, lives: {type: integer}}}
    Dog: {type: object, required: [kind], properties: {kind: {type: string}}}
`);
    const pet = schemaAt(collected, "#/components/schemas/Pet");
    // Tagged "cat" without lives: Dog's schema accepts it, so plain anyOf does; the tag says it is a Cat.
    const value = { kind: "cat" };
    expect(ajvReference(collected)(pet)(value).valid).toBe(true);
    expect(ajvReference(collected, new Set(["discriminator"]))(pet)(value).valid).toBe(false);
    // Without a mapping, a variant's tag is its schema name.
    expect(ajvReference(collected, new Set(["discriminator"]))(pet)({ kind: "Dog" }).valid).toBe(true);
    expect(ajvReference(collected, new Set(["discriminator"]))(pet)({ kind: "cow" }).valid).toBe(false);
  });
});

describe("compareExamples", () => {
  const validators: Validators[] = [];
  afterAll(() => validators.forEach((v) => v.dispose()));

  it("agrees on a document's examples, and explains a deliberate difference by its adjustment", async () => {
    const { host, collected } = documentOf(`openapi: 3.0.3
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    Site:
      type: object
      required: [host]
      properties:
        host: {type: string, format: url, maxLength: 24, example: "https://example.com"}
      example: {host: "https://example.com"}
`);
    const examples = withSchema(collected.examples);
    const v = await generatedValidators(loadSpec(ENTRY, host), ENTRY, collected.files, examples, "site");
    validators.push(v);
    expect(v.renamed).toEqual([]);
    const outcome = compareExamples(collected, examples, (e) => v.checkFor(e)!, ["unchecked-formats"], "/spec");
    expect(outcome.unexplained).toEqual([]);
    expect(outcome.inconsistent).toEqual([]);
    // A variant such as "" is no URL for ajv-formats; we do not check the (non-standard) url format.
    expect([...outcome.shown]).toEqual(["unchecked-formats"]);
    expect(outcome.bothInvalid).toBeGreaterThan(2);
    // Without the adjustment the same disagreement is unexplained.
    expect(compareExamples(collected, examples, (e) => v.checkFor(e)!, [], "/spec").unexplained.length).toBeGreaterThan(0);
  });

  it("maps Swagger 2.0 examples to the validators of the converted document", async () => {
    const { host, collected } = documentOf(`swagger: "2.0"
info: {title: T, version: "1"}
paths:
  /pets:
    post:
      parameters:
        - in: body
          name: pet
          schema: {$ref: "#/definitions/Pet"}
      responses:
        "200":
          description: ok
          schema: {type: array, items: {$ref: "#/definitions/Pet"}}
          examples:
            application/json: [{name: Tom, age: 3}]
definitions:
  Pet:
    type: object
    required: [name]
    x-nullable: false
    properties:
      name: {type: string, maxLength: 8, example: Tom}
      age: {type: integer, minimum: 0, exclusiveMinimum: true, example: 3}
    example: {name: Rex}
`);
    const examples = withSchema(collected.examples);
    expect(examples.length).toBe(4);
    const v = await generatedValidators(loadSpec(ENTRY, host), ENTRY, collected.files, examples, "swagger");
    validators.push(v);
    expect(examples.filter((e) => !v.checkFor(e)).map((e) => e.at.pointer)).toEqual([]);
    const outcome = compareExamples(collected, examples, (e) => v.checkFor(e)!, [], "/spec");
    expect(outcome.unexplained).toEqual([]);
    expect(outcome.bothInvalid).toBeGreaterThan(4);
  });

  it("reports a generated check that gets a verdict wrong", async () => {
    const { host, collected } = documentOf(SPEC);
    const examples = withSchema(collected.examples);
    const v = await generatedValidators(loadSpec(ENTRY, host), ENTRY, collected.files, examples, "pets");
    validators.push(v);
    expect(examples.filter((e) => !v.checkFor(e))).toEqual([]);
    const honest = compareExamples(collected, examples, (e) => v.checkFor(e)!, [], "/spec");
    expect(honest.unexplained).toEqual([]);
    // A check that accepts everything, as a validator with a missing rule would.
    const lenient = (): GeneratedCheck => ({ label: "accepts anything", check: () => ({ valid: true, issues: [], consistent: true }) });
    const broken = compareExamples(collected, examples, lenient, ["unchecked-formats", "untyped-object"], "/spec");
    expect(broken.unexplained.length).toBeGreaterThan(10);
    expect(broken.unexplained.join("\n")).toContain("variant /name: removed: ours valid, ajv invalid (/ required");
  });
});
