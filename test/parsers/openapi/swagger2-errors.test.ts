/**
 * Bad Swagger 2.0 input is a SpecError at the line and column of the 2.0 file the author wrote, whether the
 * converter finds the problem or the OpenAPI 3 lowering finds it in the converted document (through the pointer map).
 */
import { describe, expect, it } from "vitest";
import { SpecError } from "../../../src/errors.js";
import { parse, parseError, v20 } from "./helpers.js";

interface Row {
  readonly name: string;
  readonly spec: string;
  readonly others?: Record<string, string>;
  readonly message: string;
}

/** GET /a with the given parameter list items (one per line, YAML flow). */
const op = (...params: string[]) =>
  v20(`paths:
  /a:
    get:
      parameters:
${params.map((p) => `        - ${p}\n`).join("")}      responses: {"200": {description: ok}}
`);

const rows: Row[] = [
  { name: "unsupported version", spec: `swagger: "1.2"\ninfo: {title: T, version: "1"}\n`, message: `/spec/api.yaml:1:1: unsupported Swagger version "1.2": expected "2.0" (as a string), or an OpenAPI 3.0/3.1 document` },
  { name: "version as a number", spec: `swagger: 2.0\ninfo: {title: T, version: "1"}\n`, message: `/spec/api.yaml:1:1: unsupported Swagger version 2: expected "2.0" (as a string), or an OpenAPI 3.0/3.1 document` },
  { name: "body parameter without schema", spec: op("{name: b, in: query, type: string}", "{name: pet, in: body}"), message: `/spec/api.yaml:8:11: body parameter "pet" needs a schema` },
  { name: "parameter without type", spec: op("{name: q, in: query}"), message: `/spec/api.yaml:7:11: parameter "q" needs a type` },
  { name: "unknown in", spec: op("{name: q, in: cookie, type: string}"), message: `/spec/api.yaml:7:21: parameter "q" needs "in": query, header, path, formData or body` },
  { name: "bad collectionFormat", spec: op("{name: q, in: query, type: array, items: {type: string}, collectionFormat: commas}"), message: `/spec/api.yaml:7:68: unknown collectionFormat "commas": expected csv, ssv, tsv, pipes or multi` },
  { name: "multi in a header", spec: op("{name: X-A, in: header, type: array, items: {type: string}, collectionFormat: multi}"), message: `/spec/api.yaml:7:71: collectionFormat multi is only allowed for query and formData parameters, not header` },
  { name: "file outside formData", spec: op("{name: f, in: query, type: file}"), message: `/spec/api.yaml:7:32: type: file is only allowed for formData parameters` },
  { name: "nested arrays", spec: op("{name: q, in: query, type: array, items: {type: array, items: {type: string}}}"), message: `/spec/api.yaml:7:45: arrays of arrays (nested collectionFormat) are not supported in parameters and headers` },
  {
    name: "collectionFormat naming an Object.prototype member",
    spec: op("{name: q, in: query, type: array, items: {type: string}, collectionFormat: __proto__}"),
    message: `/spec/api.yaml:7:68: unknown collectionFormat "__proto__": expected csv, ssv, tsv, pipes or multi`,
  },
  {
    name: "oauth2 flow naming an Object.prototype member",
    spec: v20(`securityDefinitions:\n  o: {type: oauth2, flow: constructor}\n`),
    message: `/spec/api.yaml:4:21: oauth2 security definition "o" needs "flow": implicit, password, application or accessCode`,
  },
  {
    name: "two body parameters",
    spec: op("{name: a, in: body, schema: {type: string}}", "{name: b, in: body, schema: {type: string}}"),
    message: `/spec/api.yaml:8:11: an operation can have only one body parameter`,
  },
  {
    name: "body and formData",
    spec: op("{name: a, in: body, schema: {type: string}}", "{name: b, in: formData, type: string}"),
    message: `/spec/api.yaml:8:11: an operation cannot have both a body parameter and formData parameters`,
  },
  {
    name: "unknown definition",
    spec: v20(`definitions:\n  A: {type: object, properties: {b: {$ref: "#/definitions/Missing"}}}\n`),
    message: `/spec/api.yaml:4:38: unknown $ref target '#/definitions/Missing'`,
  },
  {
    name: "unknown parameter $ref",
    spec: op(`{$ref: "#/parameters/Nope"}`),
    message: `/spec/api.yaml:7:12: unknown $ref target '#/parameters/Nope'`,
  },
  {
    name: "unknown $ref in another file",
    spec: op(`{$ref: "params.yaml#/limit"}`),
    others: { "params.yaml": `offset: {name: offset, in: query, type: integer}\n` },
    message: `/spec/api.yaml:7:12: unknown $ref target 'params.yaml#/limit'`,
  },
  {
    name: "bad consumes",
    spec: v20(`consumes: application/json\npaths: {}\n`),
    message: `/spec/api.yaml:3:1: consumes / produces must be a list of media type strings`,
  },
  { name: "host with a path", spec: v20(`host: api.example.com/v1\npaths: {}\n`), message: `/spec/api.yaml:3:1: host must be a host name or IP address with an optional port, without scheme or path` },
  { name: "relative basePath", spec: v20(`basePath: v1\npaths: {}\n`), message: `/spec/api.yaml:3:1: basePath must be a string starting with "/"` },
  {
    name: "apiKey without in",
    spec: v20(`securityDefinitions:\n  key: {type: apiKey, name: k}\n`),
    message: `/spec/api.yaml:4:3: apiKey security definition "key" needs "in": query or header`,
  },
  {
    name: "unknown security type",
    spec: v20(`securityDefinitions:\n  key: {type: bearer}\n`),
    message: `/spec/api.yaml:4:9: security definition "key" needs "type": basic, apiKey or oauth2`,
  },
  // Found by the OpenAPI 3 lowering in the converted document; the position is still the 2.0 one.
  {
    name: "bad bound in a definition (now under components)",
    spec: v20(`definitions:\n  A:\n    type: object\n    properties:\n      n: {type: string, minLength: -1}\n`),
    message: `/spec/api.yaml:7:25: minLength must be a non-negative integer`,
  },
  {
    name: "bad keyword in a response schema (now under content)",
    spec: v20(`produces: [application/json, application/xml]\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          description: ok\n          schema: {type: array, items: {type: integer, maxLength: x}}\n`),
    message: `/spec/api.yaml:10:56: maxLength must be a non-negative integer`,
  },
  {
    name: "circular definitions",
    spec: v20(`definitions:\n  A: {$ref: "#/definitions/B"}\n  B: {$ref: "#/definitions/A"}\n`),
    message: `/spec/api.yaml:4:3: circular $ref: A -> B -> A`,
  },
  {
    name: "undeclared path parameter",
    spec: v20(`paths:\n  /a/{id}:\n    get:\n      responses: {"200": {description: ok}}\n`),
    message: `/spec/api.yaml:5:5: path parameter "id" of GET /a/{id} is not declared`,
  },
  {
    name: "bad schema in a referenced file",
    spec: v20(`definitions:\n  A: {$ref: "pet.yaml"}\n`),
    others: { "pet.yaml": `type: object\nproperties:\n  tag:\n    type: strin\n` },
    message: `/spec/pet.yaml:4:5: unknown schema type "strin"`,
  },
];

describe("swagger 2.0 errors", () => {
  for (const row of rows) {
    it(row.name, () => {
      expect(parseError(row.spec, row.others)).toBe(row.message);
    });
  }

  it("locates a warning of the OpenAPI 3 lowering (a bad pattern on a parameter, now inside its schema) in the 2.0 file", () => {
    const doc = parse(op("{name: b, in: body, schema: {type: string}}", "{name: q, in: query, type: string, pattern: '('}"));
    expect(doc.warnings).toEqual([
      { file: "/spec/api.yaml", line: 8, column: 46, detail: `pattern "(" is not a JavaScript regular expression in any reading specforge knows (Invalid regular expression: /(/u: Unterminated group): it is not checked` },
    ]);
  });

  it("is a SpecError with the original file's position", () => {
    try {
      parse(op("{name: q, in: query, type: array, items: {type: string}, collectionFormat: commas}"));
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(SpecError);
      expect(e).toMatchObject({ file: "/spec/api.yaml", line: 7, column: 68 });
    }
  });
});
