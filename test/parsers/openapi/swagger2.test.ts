/**
 * Swagger 2.0 input, table-driven: a 2.0 snippet and the IR facts it must lower to (the same IR an equivalent
 * OpenAPI 3.0 document gives).
 */
import { describe, expect, it } from "vitest";
import type { HttpOperation, IrDocument } from "../../../src/ir/model.js";
import { operation, parse, ref, scalar, service, type, v20 } from "./helpers.js";

/** One GET /items operation with the given parameters (YAML flow list items, one per line). */
function withQuery(...params: string[]): string {
  return v20(`paths:
  /items/{id}:
    get:
      operationId: list
      parameters:
        - {name: id, in: path, required: true, type: string}
${params.map((p) => `        - ${p}\n`).join("")}      responses: {"200": {description: ok}}
`);
}

const param = (doc: IrDocument, name: string) => operation(doc, "list").parameters.find((p) => p.name === name);

describe("swagger 2.0 parameters", () => {
  const rows: { name: string; param: string; want: Record<string, unknown> }[] = [
    {
      name: "array without collectionFormat is csv: form, not exploded",
      param: "{name: tags, in: query, type: array, items: {type: string}}",
      want: { in: "query", style: "form", explode: false, type: { kind: "list", of: scalar("string") } },
    },
    { name: "csv in a query", param: "{name: tags, in: query, type: array, items: {type: string}, collectionFormat: csv}", want: { style: "form", explode: false } },
    { name: "csv in a header is simple", param: "{name: X-Tags, in: header, type: array, items: {type: string}}", want: { in: "header", style: "simple", explode: false } },
    { name: "ssv", param: "{name: tags, in: query, type: array, items: {type: string}, collectionFormat: ssv}", want: { style: "spaceDelimited", explode: false } },
    { name: "pipes", param: "{name: tags, in: query, type: array, items: {type: string}, collectionFormat: pipes}", want: { style: "pipeDelimited", explode: false } },
    { name: "tsv", param: "{name: tags, in: query, type: array, items: {type: string}, collectionFormat: tsv}", want: { style: "tabDelimited", explode: false } },
    { name: "multi", param: "{name: tags, in: query, type: array, items: {type: integer, format: int32}, collectionFormat: multi}", want: { style: "form", explode: true, type: { kind: "list", of: scalar("int32") } } },
    {
      name: "scalar keywords become the schema",
      param: "{name: limit, in: query, required: true, description: How many., type: integer, format: int64, minimum: 1, maximum: 100}",
      want: { required: true, doc: "How many.", type: scalar("int64"), facets: { minInclusive: "1", maxInclusive: "100" } },
    },
    { name: "no style on a scalar", param: "{name: q, in: query, type: string, pattern: '^a'}", want: { type: scalar("string"), facets: { patterns: ["^a"] } } },
    { name: "x-nullable", param: "{name: q, in: query, type: string, x-nullable: true}", want: { nullable: true } },
    { name: "items facets", param: "{name: ids, in: query, type: array, maxItems: 3, items: {type: string, maxLength: 2}}", want: { style: "form", type: { kind: "list", facets: { maxItems: 3 } } } },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const doc = parse(withQuery(row.param));
      const name = /name: ([\w-]+)/.exec(row.param)![1]!;
      expect(param(doc, name)).toMatchObject(row.want);
      if (!("style" in row.want)) expect(param(doc, name)).not.toHaveProperty("style");
    });
  }

  it("path parameters stay required and keep their position in the 2.0 file", () => {
    const doc = parse(withQuery("{name: limit, in: query, type: integer}"));
    expect(param(doc, "id")).toMatchObject({ in: "path", required: true, origin: { file: "api.yaml", line: 8, column: 11 } });
    expect(param(doc, "limit")).toMatchObject({ origin: { line: 9, column: 11 } });
  });

  it("resolves #/parameters/X and keeps the operation's own over the path item's", () => {
    const doc = parse(
      v20(`parameters:
  Limit: {name: limit, in: query, type: integer, format: int32, description: shared}
paths:
  /items:
    parameters:
      - {$ref: "#/parameters/Limit"}
      - {name: verbose, in: query, type: boolean, description: path level}
    get:
      operationId: list
      parameters:
        - {name: verbose, in: query, type: boolean, description: own}
      responses: {"200": {description: ok}}
`),
    );
    expect(operation(doc, "list").parameters).toMatchObject([
      { name: "limit", type: scalar("int32"), doc: "shared", origin: { line: 4, column: 3, pointer: "#/parameters/Limit" } },
      { name: "verbose", doc: "own" },
    ]);
  });
});

describe("swagger 2.0 request bodies", () => {
  const body = (doc: IrDocument, name = "create"): NonNullable<HttpOperation["requestBody"]> => operation(doc, name).requestBody!;

  it("an in: body parameter is the request body, sent as the global consumes", () => {
    const doc = parse(
      v20(`consumes: [application/json, application/xml]
paths:
  /pets:
    post:
      operationId: create
      parameters:
        - {name: pet, in: body, required: true, description: The pet., schema: {$ref: "#/definitions/Pet"}}
      responses: {"201": {description: created}}
definitions:
  Pet: {type: object, properties: {name: {type: string}}}
`),
    );
    expect(body(doc)).toEqual({
      required: true,
      doc: "The pet.",
      contents: [
        { mediaType: "application/json", type: ref("#/components/schemas/Pet") },
        { mediaType: "application/xml", type: ref("#/components/schemas/Pet") },
      ],
    });
    expect(operation(doc, "create").parameters).toEqual([]);
    expect(type(doc, "#/components/schemas/Pet")).toMatchObject({ kind: "record", name: "Pet", origin: { line: 12, column: 3, pointer: "#/definitions/Pet" } });
  });

  it("an inline body schema is declared once, whatever the number of media types; the operation's consumes wins", () => {
    const doc = parse(
      v20(`consumes: [application/xml]
paths:
  /pets:
    post:
      operationId: create
      consumes: [application/json, text/json]
      parameters:
        - {name: pet, in: body, schema: {type: object, properties: {name: {type: string}}}}
      responses: {"201": {description: created}}
`),
    );
    const contents = body(doc).contents;
    expect(contents.map((c) => c.mediaType)).toEqual(["application/json", "text/json"]);
    expect(contents[0]!.type).toEqual(contents[1]!.type);
    expect(doc.types.map((t) => t.name)).toEqual(["CreateRequest"]);
    expect(body(doc).required).toBe(false);
  });

  it("application/json when nothing says what is consumed", () => {
    const doc = parse(v20(`paths: {/a: {post: {operationId: create, parameters: [{name: n, in: body, schema: {type: string}}], responses: {"204": {description: ok}}}}}\n`));
    // Every JSON body gets a named type (and so a validator of its own): here an alias of string.
    const [content] = body(doc).contents;
    expect(content!.mediaType).toBe("application/json");
    const named = doc.types.find((t) => content!.type.kind === "ref" && t.id === content!.type.id);
    expect(named).toMatchObject({ kind: "alias", target: scalar("string") });
  });

  it("formData parameters are the properties of a url-encoded form", () => {
    const doc = parse(
      v20(`paths:
  /pets/{id}:
    post:
      operationId: create
      parameters:
        - {name: id, in: path, required: true, type: string}
        - {name: name, in: formData, required: true, type: string, description: New name.}
        - {name: tags, in: formData, type: array, items: {type: string}, collectionFormat: multi}
      responses: {"204": {description: ok}}
`),
    );
    expect(operation(doc, "create").parameters.map((p) => p.name)).toEqual(["id"]);
    const [content] = body(doc).contents;
    expect(body(doc)).toMatchObject({ required: true, contents: [{ mediaType: "application/x-www-form-urlencoded" }] });
    const form = doc.types.find((t) => content!.type.kind === "ref" && t.id === content!.type.id)!;
    expect(form).toMatchObject({
      kind: "record",
      members: [
        { name: "name", type: scalar("string"), occurs: { min: 1 }, doc: "New name.", origin: { line: 9, column: 11 } },
        { name: "tags", type: { kind: "list", of: scalar("string") }, occurs: { min: 0 } },
      ],
    });
  });

  it("a type: file parameter makes the form multipart, with a binary field", () => {
    const doc = parse(
      v20(`consumes: [application/json]
paths:
  /upload:
    post:
      operationId: create
      parameters:
        - {name: file, in: formData, type: file, required: true}
        - {name: note, in: formData, type: string}
      responses: {"204": {description: ok}}
`),
    );
    expect(body(doc).contents.map((c) => c.mediaType)).toEqual(["multipart/form-data"]);
    const content = body(doc).contents[0]!;
    const form = doc.types.find((t) => content.type.kind === "ref" && t.id === content.type.id)!;
    expect(form).toMatchObject({ kind: "record", members: [{ name: "file", type: scalar("bytes") }, { name: "note", type: scalar("string") }] });
  });

  it("multipart when the operation consumes it, even without files", () => {
    const doc = parse(
      v20(`paths: {/a: {post: {operationId: create, consumes: [multipart/form-data], parameters: [{name: n, in: formData, type: string}], responses: {"204": {description: ok}}}}}\n`),
    );
    expect(body(doc).contents.map((c) => c.mediaType)).toEqual(["multipart/form-data"]);
  });

  it("path-level body parameters are inherited; a body parameter by $ref points at its schema where it is written", () => {
    const doc = parse(
      v20(`parameters:
  PetBody: {name: pet, in: body, required: true, schema: {$ref: "#/definitions/Pet"}}
paths:
  /pets:
    parameters: [{$ref: "#/parameters/PetBody"}]
    post: {operationId: create, responses: {"204": {description: ok}}}
    put: {operationId: replace, responses: {"204": {description: ok}}}
definitions:
  Pet: {type: object, properties: {name: {type: string}}}
`),
    );
    for (const op of ["create", "replace"]) {
      expect(body(doc, op)).toEqual({ required: true, contents: [{ mediaType: "application/json", type: ref("#/components/schemas/Pet") }] });
    }
  });
});

it("a $ref to another operation's parameters follows them past the body parameters that left the list", () => {
  const doc = parse(
    v20(`paths:
  /a:
    post:
      operationId: a
      parameters:
        - {name: pet, in: body, schema: {type: object, properties: {name: {type: string}}}}
        - {name: q, in: query, type: integer}
      responses: {"204": {description: ok}}
  /b:
    post:
      operationId: b
      parameters:
        - $ref: "#/paths/~1a/post/parameters/0"
        - $ref: "#/paths/~1a/post/parameters/1"
      responses: {"204": {description: ok}}
`),
  );
  expect(operation(doc, "a").parameters).toMatchObject([{ name: "q", type: scalar("double", "integer") }]);
  expect(operation(doc, "b").parameters).toMatchObject([{ name: "q", type: scalar("double", "integer") }]);
  expect(operation(doc, "b").requestBody!.contents).toEqual(operation(doc, "a").requestBody!.contents);
});

describe("swagger 2.0 responses and schemas", () => {
  const doc = parse(
    v20(`produces: [application/json]
responses:
  NotFound: {description: not found, schema: {$ref: "#/definitions/Error"}}
paths:
  /pets/{id}:
    get:
      operationId: getPet
      produces: [application/json, application/xml]
      parameters: [{name: id, in: path, required: true, type: integer}]
      responses:
        "200":
          description: the pet
          schema: {$ref: "#/definitions/Pet"}
          headers:
            X-Rate-Limit: {type: integer, format: int32, description: calls left}
            X-Tags: {type: array, items: {type: string}}
          examples:
            application/json: {name: Rex}
        "204": {description: nothing}
        "404": {$ref: "#/responses/NotFound"}
        default: {description: a file, schema: {type: file}}
definitions:
  Pet:
    type: object
    discriminator: kind
    required: [kind]
    properties:
      kind: {type: string}
      name: {type: string, x-nullable: true}
      owner: {$ref: "#/definitions/Owner"}
  Owner: {type: object, x-nullable: true, properties: {id: {type: integer}}}
  Error: {type: object, properties: {message: {type: string}}}
`),
  );
  const responses = operation(doc, "getPet").responses;

  it("a response schema is one content entry per produced media type", () => {
    expect(responses.map((r) => [r.status, r.contents.map((c) => c.mediaType)])).toEqual([
      ["200", ["application/json", "application/xml"]],
      ["204", []],
      ["404", ["application/json"]],
      ["default", ["application/json", "application/xml"]],
    ]);
    // The response's `examples` entry for the media type is kept as that body's example (issue 30).
    expect(responses[0]!.contents[0]).toMatchObject({ mediaType: "application/json", type: ref("#/components/schemas/Pet"), examples: [{ value: { name: "Rex" } }] });
    expect(Object.keys(responses[0]!.contents[0]!)).toEqual(["mediaType", "type", "examples"]);
    expect(responses[2]).toMatchObject({ doc: "not found", contents: [{ type: ref("#/components/schemas/Error") }] });
    // A file response is named like every JSON body (its media type is JSON here): an alias of bytes.
    const fileType = responses[3]!.contents[0]!.type;
    expect(fileType.kind === "ref" && doc.types.find((t) => t.id === fileType.id)).toMatchObject({ kind: "alias", target: scalar("bytes") });
  });

  it("response headers get their schema", () => {
    expect(responses[0]!.headers).toMatchObject([
      { name: "X-Rate-Limit", in: "header", type: scalar("int32"), doc: "calls left" },
      { name: "X-Tags", type: { kind: "list", of: scalar("string") } },
    ]);
  });

  it("definitions are the component schemas: names, x-nullable, $refs", () => {
    expect(type(doc, "#/components/schemas/Pet")).toMatchObject({
      kind: "record",
      name: "Pet",
      members: [
        { name: "kind", occurs: { min: 1 } },
        { name: "name", nullable: true },
        { name: "owner", type: ref("#/components/schemas/Owner"), nullable: true },
      ],
    });
  });
});

describe("swagger 2.0 document", () => {
  it("keys such as __proto__ stay plain names", () => {
    const doc = parse(
      v20(`definitions:
  __proto__: {type: object, properties: {constructor: {type: string}}}
paths:
  /a:
    post:
      operationId: a
      consumes: [application/x-www-form-urlencoded]
      parameters: [{name: __proto__, in: formData, type: string, required: true}]
      responses: {"204": {description: ok}}
`),
    );
    expect(type(doc, "#/components/schemas/__proto__")).toMatchObject({ kind: "record", name: "__proto__", members: [{ name: "constructor" }] });
    const content = operation(doc, "a").requestBody!.contents[0]!;
    const form = doc.types.find((t) => content.type.kind === "ref" && t.id === content.type.id);
    expect(form).toMatchObject({ kind: "record", members: [{ name: "__proto__", occurs: { min: 1 } }] });
    expect(({} as Record<string, unknown>)["type"]).toBeUndefined();
  });

  it("reads JSON documents too, with JSON positions", () => {
    const json = `{
  "swagger": "2.0",
  "info": {"title": "T", "version": "1"},
  "paths": {"/a": {"get": {"operationId": "a", "parameters": [{"name": "q", "in": "query", "type": "string"}], "responses": {"200": {"description": "ok"}}}}}
}`;
    const doc = parse(json, {}, "/spec/api.json");
    expect(operation(doc, "a").parameters).toMatchObject([{ name: "q", origin: { file: "api.json", line: 4, column: 63 } }]);
  });

  it("host, basePath and schemes are the servers", () => {
    const s = (body: string) => service(parse(v20(`${body}\npaths: {}\n`))).servers;
    expect(s("host: api.example.com:8443\nbasePath: /v1\nschemes: [https, http]")).toEqual(["https://api.example.com:8443/v1", "http://api.example.com:8443/v1"]);
    expect(s("host: api.example.com")).toEqual(["https://api.example.com"]);
    expect(s("basePath: /api")).toEqual(["/api"]);
    expect(s("schemes: [http]")).toEqual([]);
  });

  it("securityDefinitions are the security schemes; security requirements stay", () => {
    const doc = parse(
      v20(`securityDefinitions:
  basic: {type: basic}
  key: {type: apiKey, in: header, name: X-Key}
  oauth: {type: oauth2, flow: accessCode, authorizationUrl: "https://a/auth", tokenUrl: "https://a/token", scopes: {read: Read}}
security: [{key: []}]
paths:
  /a:
    get: {operationId: a, responses: {"204": {description: ok}}}
    post: {operationId: b, security: [{oauth: [read]}, {basic: []}], responses: {"204": {description: ok}}}
`),
    );
    expect(service(doc).securitySchemes).toEqual([
      { name: "basic", type: "http", scheme: "basic" },
      { name: "key", type: "apiKey", in: "header", paramName: "X-Key" },
      { name: "oauth", type: "oauth2" },
    ]);
    expect(operation(doc, "a").security).toEqual(["key"]);
    expect(operation(doc, "b").security).toEqual(["oauth", "basic"]);
  });

  it("follows $refs across files: parameters, schemas, and back into the entry's definitions", () => {
    const doc = parse(
      v20(`paths:
  /pets:
    get:
      operationId: list
      parameters:
        - $ref: "parameters.yaml#/limit"
        - $ref: "parameters.yaml#/upload"
      consumes: [multipart/form-data]
      responses:
        "200": {description: ok, schema: {type: array, items: {$ref: "Pet.yaml"}}}
definitions:
  Tag: {type: string, maxLength: 8}
`),
      {
        "parameters.yaml": `limit: {name: limit, in: query, type: array, items: {type: integer}, collectionFormat: pipes}\nupload: {name: photo, in: formData, type: file}\n`,
        "Pet.yaml": `type: object\nproperties:\n  tag: {$ref: "api.yaml#/definitions/Tag"}\n  other: {$ref: "#/definitions/Other"}\ndefinitions:\n  Other: {type: object, properties: {x: {type: boolean}}}\n`,
      },
    );
    const list = operation(doc, "list");
    expect(list.parameters).toMatchObject([
      { name: "limit", style: "pipeDelimited", explode: false, type: { kind: "list", of: scalar("double", "integer") }, origin: { file: "parameters.yaml", line: 1, column: 1 } },
    ]);
    expect(list.requestBody!.contents.map((c) => c.mediaType)).toEqual(["multipart/form-data"]);
    expect(type(doc, "#", "Pet.yaml")).toMatchObject({
      kind: "record",
      name: "Pet",
      members: [
        { name: "tag", type: ref("#/components/schemas/Tag") },
        { name: "other", type: ref("#/definitions/Other", "Pet.yaml") },
      ],
    });
    expect(doc.files).toEqual(["api.yaml", "parameters.yaml", "Pet.yaml"]);
  });

  it("a body parameter in another file: its schema is converted there and the request body refers to it", () => {
    const doc = parse(
      v20(`paths:
  /pets:
    post:
      operationId: create
      parameters: [{$ref: "shared/params.yaml#/PetBody"}]
      responses: {"204": {description: ok}}
definitions:
  Tag: {type: string}
`),
      {
        "shared/params.yaml": `PetBody:
  name: pet
  in: body
  required: true
  schema: {type: object, properties: {tag: {$ref: "../api.yaml#/definitions/Tag"}}}
`,
      },
    );
    const body = operation(doc, "create").requestBody!;
    expect(body).toMatchObject({ required: true, contents: [{ mediaType: "application/json", type: ref("#/PetBody/schema", "shared/params.yaml") }] });
    expect(type(doc, "#/PetBody/schema", "shared/params.yaml")).toMatchObject({
      kind: "record",
      members: [{ name: "tag", type: ref("#/components/schemas/Tag") }],
      origin: { file: "shared/params.yaml", line: 5, column: 3 },
    });
  });
});
