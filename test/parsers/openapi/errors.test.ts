/** Every spec problem is a SpecError "file:line:col: message" pointing at the offending key. */
import { describe, expect, it } from "vitest";
import { SpecError } from "../../../src/errors.js";
import { readSpecFile } from "../../../src/parsers/openapi/read.js";
import { parse, parseError, v30, v31 } from "./helpers.js";

interface Row {
  readonly name: string;
  readonly spec: string;
  readonly others?: Record<string, string>;
  readonly entry?: string;
  readonly message: string;
}

const bomb = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
  .concat(Array.from({ length: 9 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10).fill(`*${String.fromCharCode(97 + i)}`).join(", ")}]`))
  .join("\n");

const rows: Row[] = [
  {
    name: "bad YAML",
    spec: `openapi: 3.0.3\ninfo: {title: T, version: "1"\npaths: {}\n`,
    message: "/spec/api.yaml:3:1: invalid YAML/JSON: Flow map in block collection must be sufficiently indented and end with a }",
  },
  {
    name: "bad JSON",
    entry: "/spec/api.json",
    spec: `{\n  "openapi": "3.0.3",\n  "info": {"title": "T" "version": "1"}\n}`,
    message: `/spec/api.json:3:25: invalid JSON: expected ',' or '}' in an object, found "\\""`,
  },
  {
    name: "duplicate key",
    spec: `openapi: 3.0.3\ninfo: {title: T, version: "1"}\ncomponents:\n  schemas:\n    A: {type: string}\n    A: {type: integer}\n`,
    message: "/spec/api.yaml:6:5: invalid YAML/JSON: Map keys must be unique",
  },
  {
    name: "custom tag",
    spec: `openapi: 3.0.3\ninfo: {title: !secret T, version: "1"}\n`,
    message: "/spec/api.yaml:2:15: custom YAML tag !secret is not allowed",
  },
  {
    name: "alias expansion bomb",
    spec: `openapi: 3.0.3\ninfo: {title: T, version: "1"}\nx-bomb:\n${bomb.replace(/^/gm, "  ")}\n`,
    message: "/spec/api.yaml:5:14: more than 100 YAML aliases",
  },
  {
    name: "unknown in-file $ref",
    spec: v30(`components:
  schemas:
    A: {type: object, properties: {b: {$ref: "#/components/schemas/Missing"}}}
`),
    message: `/spec/api.yaml:5:40: unknown $ref target '#/components/schemas/Missing'`,
  },
  {
    name: "unknown $ref into another file",
    spec: v30(`components:
  schemas:
    A: {$ref: "common.yaml#/components/schemas/Nope"}
`),
    others: { "common.yaml": "components: {schemas: {}}\n" },
    message: `/spec/api.yaml:5:9: unknown $ref target 'common.yaml#/components/schemas/Nope'`,
  },
  {
    name: "missing referenced file",
    spec: v30(`components:
  schemas:
    A: {$ref: "gone.yaml#/X"}
`),
    message: `/spec/api.yaml:5:9: cannot read referenced file '/spec/gone.yaml': ENOENT: no such file '/spec/gone.yaml'`,
  },
  {
    name: "errors inside referenced files name that file",
    spec: v30(`components:
  schemas:
    A: {$ref: "common.yaml#/components/schemas/B"}
`),
    others: { "common.yaml": "components:\n  schemas:\n    B: {type: strang}\n" },
    message: `/spec/common.yaml:3:9: unknown schema type "strang"`,
  },
  {
    name: "bad openapi version",
    spec: `info: {title: T, version: "1"}\nopenapi: 2.0.0\n`,
    message: `/spec/api.yaml:2:1: unsupported OpenAPI version "2.0.0": expected 3.0.x or 3.1.x (as a string)`,
  },
  {
    name: "openapi version written as a number",
    spec: `openapi: 3.1\ninfo: {title: T, version: "1"}\n`,
    message: `/spec/api.yaml:1:1: unsupported OpenAPI version "3.1": expected 3.0.x or 3.1.x (as a string)`,
  },
  {
    name: "neither openapi nor swagger",
    spec: `info: {title: T, version: "1"}\npaths: {}\n`,
    message: "/spec/api.yaml:1:1: missing 'openapi' field: not an OpenAPI 3.0/3.1 (or Swagger 2.0) document",
  },
  {
    name: "undeclared path parameter",
    spec: v30(`paths:
  /pets/{petId}/toys/{toyId}:
    parameters: [{name: petId, in: path, required: true, schema: {type: string}}]
    get:
      responses: {"200": {description: ok}}
`),
    message: `/spec/api.yaml:6:5: path parameter "toyId" of GET /pets/{petId}/toys/{toyId} is not declared`,
  },
  {
    name: "duplicate operationId",
    spec: v30(`paths:
  /a: {get: {operationId: same, responses: {}}}
  /b: {get: {operationId: same, responses: {}}}
`),
    message: `/spec/api.yaml:5:14: duplicate operationId "same" (also used by GET /a)`,
  },
  {
    name: "bad response status",
    spec: v30(`paths:
  /a:
    get:
      responses:
        "2OO": {description: typo}
`),
    message: `/spec/api.yaml:7:9: invalid response status "2OO" (expected 100-599, 1XX-5XX or default)`,
  },
  {
    name: "non-recursive $ref cycle",
    spec: v31(`paths:
  /a:
    get:
      parameters:
        - {name: q, in: query, schema: {$ref: "#/paths/~1a/get/parameters/1/schema"}}
        - {name: r, in: query, schema: {$ref: "#/paths/~1a/get/parameters/0/schema"}}
      responses: {}
`),
    message: "/spec/api.yaml:8:32: recursive $ref cycle through schemas that are neither components nor objects",
  },
];

describe("openapi errors", () => {
  it.each(rows)("$name", (row) => {
    expect(parseError(row.spec, row.others, row.entry)).toBe(row.message);
  });

  describe("the node limit: one per character of the file, at least MAX_NODES (here lowered to 1,000)", () => {
    const options = { minNodes: 1000 };
    const list = (n: number) => `[${Array(n).fill(0).join(",")}]`;
    it("reads a written-out document of more nodes than the floor (the limit scales with the file)", () => {
      const text = `{"x": ${list(3000)}}`;
      expect((readSpecFile("/spec/api.json", text, "api.json", options).value as { x: unknown[] }).x).toHaveLength(3000);
    });
    it("refuses YAML aliases that make the tree larger than its text (located at the node that passes the limit)", () => {
      // 20 aliases of a 200-item list: 4,200 nodes from 900 characters.
      const text = `a: &a ${list(200)}\nb: [${Array(20).fill("*a").join(", ")}]\n`;
      expect(() => readSpecFile("/spec/api.yaml", text, "api.yaml", options)).toThrow(
        `api.yaml:1:386: document too large: more than 1000 nodes (the limit is one per character of the file, at least 1000: YAML alias expansion?)`,
      );
      // The same aliases in a file padded to more characters than nodes are read.
      const padded = `${text}# ${"-".repeat(4500)}\n`;
      expect((readSpecFile("/spec/api.yaml", padded, "api.yaml", options).value as { b: unknown[] }).b).toHaveLength(20);
    });
  });

  it("throws SpecError with file, line and column", () => {
    let caught: unknown;
    try {
      parse(`openapi: 4.0.0\n`);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(SpecError);
    expect(caught).toMatchObject({ file: "/spec/api.yaml", line: 1, column: 1 });
  });
});
