/** Parameter styles: combinations OpenAPI leaves undefined are located SpecErrors; what real APIs use is accepted. */
import { describe, expect, it } from "vitest";
import { operation, parse, parseError, v30 } from "./helpers.js";

/** A document with one GET operation whose only parameter is `param` (a YAML flow mapping). */
function withParameter(param: string, path = "/things"): string {
  return v30(`components:
  schemas:
    Range: {type: object, properties: {gt: {type: integer}, lt: {type: integer}}}
paths:
  ${path}:
    get:
      operationId: getThings
      parameters:
        - ${param}
      responses: {"204": {description: none}}
`);
}

const refused: readonly { readonly name: string; readonly param: string; readonly path?: string; readonly message: string }[] = [
  {
    name: "an unknown style name",
    param: `{name: q, in: query, style: commaSeparated, schema: {type: string}}`,
    message: `/spec/api.yaml:11:32: query parameter "q": unknown style "commaSeparated" (OpenAPI defines simple, label, matrix, form, spaceDelimited, pipeDelimited, deepObject)`,
  },
  {
    name: "a path parameter in style form",
    path: "/things/{id}",
    param: `{name: id, in: path, required: true, style: form, schema: {type: string}}`,
    message: `/spec/api.yaml:11:48: path parameter "id": style "form" is not defined for path parameters (use simple or label or matrix)`,
  },
  {
    name: "a header in style matrix",
    param: `{name: X-Id, in: header, style: matrix, schema: {type: string}}`,
    message: `/spec/api.yaml:11:36: header parameter "X-Id": style "matrix" is not defined for header parameters (use simple)`,
  },
  {
    name: "a cookie in style deepObject",
    param: `{name: c, in: cookie, style: deepObject, schema: {$ref: "#/components/schemas/Range"}}`,
    message: `/spec/api.yaml:11:33: cookie parameter "c": style "deepObject" is not defined for cookie parameters (use form)`,
  },
  {
    name: "deepObject with explode: false",
    param: `{name: r, in: query, style: deepObject, explode: false, schema: {$ref: "#/components/schemas/Range"}}`,
    message: `/spec/api.yaml:11:51: query parameter "r": deepObject with explode: false is undefined by OpenAPI (omit explode or set it to true)`,
  },
  {
    name: "spaceDelimited on a primitive",
    param: `{name: q, in: query, style: spaceDelimited, schema: {type: string}}`,
    message: `/spec/api.yaml:11:32: query parameter "q": spaceDelimited is defined for arrays and objects only, not for a primitive value`,
  },
  {
    name: "pipeDelimited on an object with explode: true",
    param: `{name: r, in: query, style: pipeDelimited, explode: true, schema: {$ref: "#/components/schemas/Range"}}`,
    message: `/spec/api.yaml:11:54: query parameter "r": pipeDelimited with explode: true is undefined by OpenAPI for objects (set explode: false)`,
  },
];

describe("parameter styles OpenAPI leaves undefined", () => {
  for (const row of refused) {
    it(`refuses ${row.name}`, () => {
      expect(parseError(withParameter(row.param, row.path))).toBe(row.message);
    });
  }
});

describe("parameter styles accepted", () => {
  const accepted: readonly { readonly name: string; readonly param: string; readonly path?: string }[] = [
    { name: "every style OpenAPI defines for path parameters", path: "/things/{id}", param: `{name: id, in: path, required: true, style: matrix, explode: true, schema: {type: array, items: {type: string}}}` },
    { name: "label on an object", path: "/things/{id}", param: `{name: id, in: path, required: true, style: label, schema: {$ref: "#/components/schemas/Range"}}` },
    { name: "pipeDelimited on an object, not exploded", param: `{name: r, in: query, style: pipeDelimited, explode: false, schema: {$ref: "#/components/schemas/Range"}}` },
    { name: "spaceDelimited on an exploded array (the name repeats)", param: `{name: a, in: query, style: spaceDelimited, explode: true, schema: {type: array, items: {type: string}}}` },
    { name: "tabDelimited (Swagger 2.0's tsv) on an array", param: `{name: a, in: query, style: tabDelimited, schema: {type: array, items: {type: string}}}` },
    { name: "deepObject without explode (its only defined form)", param: `{name: r, in: query, style: deepObject, schema: {$ref: "#/components/schemas/Range"}}` },
    // Stripe: deepObject on arrays (expand), on integer | object (created), on nested arrays of objects.
    { name: "Stripe's deepObject array", param: `{name: expand, in: query, style: deepObject, explode: true, schema: {type: array, items: {type: string}}}` },
    { name: "Stripe's deepObject integer | range", param: `{name: created, in: query, style: deepObject, explode: true, schema: {anyOf: [{$ref: "#/components/schemas/Range"}, {type: integer}]}}` },
    { name: "Stripe's deepObject array of objects", param: `{name: items, in: query, style: deepObject, explode: true, schema: {type: array, items: {$ref: "#/components/schemas/Range"}}}` },
    { name: "a parameter described by content", param: `{name: q, in: query, content: {application/json: {schema: {type: array, items: {type: array, items: {type: string}}}}}}` },
  ];
  for (const row of accepted) {
    it(`accepts ${row.name}`, () => {
      expect(parseError(withParameter(row.param, row.path))).toBe("");
    });
  }

  it("records the media type of a parameter described by content", () => {
    const op = operation(parse(withParameter(`{name: q, in: query, content: {application/json: {schema: {type: object}}}}`)), "getThings");
    expect(op.parameters[0]?.content).toBe("application/json");
  });

  describe("an array or object inside a one-level style's value is degraded with a located warning", () => {
    const degraded = (param: string, path?: string) => {
      const doc = parse(withParameter(param, path));
      return { doc, param: operation(doc, "getThings").parameters[0]!, warnings: doc.warnings ?? [] };
    };
    it("a query array of arrays (form) is written in deepObject's bracket convention", () => {
      const { doc, param, warnings } = degraded(`{name: m, in: query, style: form, explode: false, schema: {type: array, items: {type: array, items: {type: integer}}}}`);
      expect(param).toMatchObject({ style: "deepObject", explode: true, type: { kind: "ref" } });
      // The value is a named type (an anonymous alias of the inline schema), so the server validates it.
      const named = doc.types.find((t) => param.type.kind === "ref" && t.id === param.type.id);
      expect(named).toMatchObject({ kind: "alias", anonymous: true, target: { kind: "list", of: { kind: "list" } } });
      expect(param.content).toBeUndefined();
      expect(warnings).toEqual([{
        file: "/spec/api.yaml", line: 11, column: 61,
        detail: `query parameter "m": style form cannot carry arrays or objects inside the value (RFC 6570 has one level; OpenAPI leaves it undefined); written in deepObject's bracket convention instead (name[0][key]=value, as qs and most clients write it)`,
      }]);
    });
    it("a query array of objects without a style (AWS's query protocol documents) too", () => {
      const { param, warnings } = degraded(`{name: f, in: query, schema: {type: array, items: {type: object, properties: {values: {type: array, items: {type: string}}}}}}`);
      expect(param).toMatchObject({ style: "deepObject", explode: true });
      expect(warnings.map((w) => w.detail)).toEqual([expect.stringContaining(`query parameter "f": style form cannot carry`)]);
    });
    it("a path array of arrays, a header object with an array property and a cookie array of objects travel as JSON text", () => {
      for (const [param, path] of [
        [`{name: id, in: path, required: true, schema: {type: array, items: {type: array, items: {type: string}}}}`, "/things/{id}"],
        [`{name: X-R, in: header, schema: {type: object, properties: {r: {type: array, items: {$ref: "#/components/schemas/Range"}}}}}`, undefined],
        [`{name: c, in: cookie, explode: false, schema: {type: array, items: {$ref: "#/components/schemas/Range"}}}`, undefined],
      ] as const) {
        const { param: p, warnings } = degraded(param, path);
        expect(p.content).toBe("application/json");
        expect(p.style).toBeUndefined();
        expect(p.explode).toBeUndefined();
        expect(warnings.map((w) => w.detail)).toEqual([expect.stringMatching(/cannot carry arrays or objects .*; sent as its JSON text instead/)]);
      }
    });
  });

  it("keeps the declared style and explode in the IR (defaults are applied by the emitters)", () => {
    const op = operation(parse(withParameter(`{name: a, in: query, style: pipeDelimited, schema: {type: array, items: {type: string}}}`)), "getThings");
    expect(op.parameters[0]).toMatchObject({ style: "pipeDelimited" });
    expect(op.parameters[0]?.explode).toBeUndefined();
  });
});
