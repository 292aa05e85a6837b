/** Paths -> HttpService / HttpOperation: parameters, bodies, responses, names, security. */
import { describe, expect, it } from "vitest";
import { operation, parse, parseError, ref, scalar, service, type, v30, v31 } from "./helpers.js";

const petstore = v30(`servers: [{url: "https://api.example.com/v1"}, {url: /local}]
security: [{apiKey: []}]
paths:
  /pets/{petId}:
    parameters:
      - $ref: "#/components/parameters/PetId"
      - {name: verbose, in: query, schema: {type: boolean}}
    get:
      operationId: getPet
      summary: Get one.
      description: Longer.
      tags: [pets]
      parameters:
        - {name: verbose, in: query, required: true, schema: {type: boolean}, description: Overrides.}
        - {name: X-Trace, in: header, schema: {type: string, maxLength: 8}}
        - {name: fields, in: query, style: form, explode: false, schema: {type: array, items: {type: string}}}
        - {name: session, in: cookie, schema: {type: string}}
        - {name: Accept, in: header, schema: {type: string, enum: [application/json]}}
        - {name: content-type, in: header, schema: {type: string}}
        - {name: Authorization, in: header, required: true, schema: {type: string}}
      responses:
        "200":
          description: The pet.
          headers:
            X-Rate-Limit: {schema: {type: integer, format: int32}, required: true}
            Content-Type: {schema: {type: string}}
          content:
            application/json: {schema: {$ref: "#/components/schemas/Pet"}}
        4XX: {$ref: "#/components/responses/Problem"}
        default:
          description: Other.
          content:
            application/json:
              schema: {type: object, properties: {code: {type: integer, format: int32}}}
    delete:
      deprecated: true
      security: []
      responses:
        "204": {description: Gone.}
  /pets:
    post:
      operationId: createPet
      security: [{oauth: [write]}, {apiKey: []}]
      requestBody:
        required: true
        description: New pet.
        content:
          application/json:
            schema: {type: object, required: [name], properties: {name: {type: string}}}
          text/plain:
            schema: {type: string, nullable: true}
      responses:
        "201": {description: Created.}
    put:
      requestBody: {$ref: "#/components/requestBodies/PetBody"}
      responses:
        "200": {description: ok}
  /:
    get:
      responses: {"200": {description: ok}}
components:
  parameters:
    PetId: {name: petId, in: path, required: true, schema: {type: string, format: uuid}}
  requestBodies:
    PetBody:
      content:
        application/json: {schema: {$ref: "#/components/schemas/Pet"}}
  responses:
    Problem:
      description: A problem.
      content:
        application/problem+json: {schema: {type: object, properties: {title: {type: string}}}}
  securitySchemes:
    apiKey: {type: apiKey, in: header, name: X-Key}
    oauth: {type: oauth2, flows: {}}
    basic: {type: http, scheme: basic}
  schemas:
    Pet: {type: object, properties: {name: {type: string}}}
`);

describe("openapi operations", () => {
  const doc = parse(petstore);

  it("builds one http service with servers and security schemes", () => {
    expect(service(doc)).toMatchObject({
      kind: "http",
      name: "T",
      version: "1",
      servers: ["https://api.example.com/v1", "/local"],
      securitySchemes: [
        { name: "apiKey", type: "apiKey", in: "header", paramName: "X-Key" },
        { name: "oauth", type: "oauth2" },
        { name: "basic", type: "http", scheme: "basic" },
      ],
    });
    expect(service(doc).operations.map((o) => `${o.method} ${o.path} ${o.name}`)).toEqual([
      "get /pets/{petId} getPet",
      "delete /pets/{petId} deletePetsByPetId",
      "post /pets createPet",
      "put /pets putPets",
      "get / get",
    ]);
  });

  // Header parameters named Accept, Content-Type or Authorization are ignored, as OpenAPI 3 says they must be.
  it("merges path-level and operation-level parameters (operation wins)", () => {
    expect(operation(doc, "getPet")).toMatchObject({
      method: "get",
      path: "/pets/{petId}",
      summary: "Get one.",
      doc: "Longer.",
      tags: ["pets"],
      parameters: [
        { name: "petId", in: "path", required: true, type: scalar("string"), facets: { format: "uuid" }, origin: { pointer: "#/components/parameters/PetId" } },
        { name: "verbose", in: "query", required: true, type: scalar("boolean"), doc: "Overrides." },
        { name: "X-Trace", in: "header", required: false, facets: { maxLength: 8 } },
        { name: "fields", in: "query", style: "form", explode: false, type: { kind: "list", of: scalar("string") } },
        { name: "session", in: "cookie" },
      ],
      origin: { file: "api.yaml", line: 10, column: 5, pointer: "#/paths/~1pets~1{petId}/get", construct: "openapi operation GET /pets/{petId}" },
    });
  });

  it("lowers responses by status, with $ref'd responses, headers and inline bodies", () => {
    const op = operation(doc, "getPet");
    expect(op.responses).toMatchObject([
      {
        status: "200",
        doc: "The pet.",
        contents: [{ mediaType: "application/json", type: ref("#/components/schemas/Pet") }],
        headers: [{ name: "X-Rate-Limit", in: "header", required: true, type: scalar("int32") }],
      },
      { status: "4XX", doc: "A problem.", contents: [{ mediaType: "application/problem+json", type: ref("#/components/responses/Problem/content/application~1problem+json/schema") }] },
      { status: "default", contents: [{ type: ref("#/paths/~1pets~1{petId}/get/responses/default/content/application~1json/schema") }] },
    ]);
    expect(op.responses[0]!.headers).toHaveLength(1);
    expect(type(doc, "#/paths/~1pets~1{petId}/get/responses/default/content/application~1json/schema")).toMatchObject({
      kind: "record",
      name: "GetPetResponseDefault",
      anonymous: true,
    });
    expect(type(doc, "#/components/responses/Problem/content/application~1problem+json/schema")).toMatchObject({ name: "GetPetResponse4XX" });
  });

  it("lowers request bodies (inline object, nullable content, $ref'd body)", () => {
    expect(operation(doc, "createPet").requestBody).toMatchObject({
      required: true,
      doc: "New pet.",
      contents: [
        { mediaType: "application/json", type: ref("#/paths/~1pets/post/requestBody/content/application~1json/schema") },
        { mediaType: "text/plain", type: scalar("string"), nullable: true },
      ],
    });
    expect(type(doc, "#/paths/~1pets/post/requestBody/content/application~1json/schema")).toMatchObject({
      name: "CreatePetRequest",
      anonymous: true,
      members: [{ name: "name", occurs: { min: 1, max: 1 } }],
    });
    expect(operation(doc, "putPets").requestBody).toMatchObject({ required: false, contents: [{ type: ref("#/components/schemas/Pet") }] });
  });

  it("applies security: operation-level, root default, explicit none", () => {
    expect(operation(doc, "createPet").security).toEqual(["oauth", "apiKey"]);
    expect(operation(doc, "getPet").security).toEqual(["apiKey"]);
    expect(operation(doc, "deletePetsByPetId")).toMatchObject({ deprecated: true, security: [] });
  });

  it("follows $refs to parameters and path items in other files", () => {
    const d = parse(
      v31(`paths:
  /items/{id}: {$ref: "paths/items.yaml"}
`),
      {
        "paths/items.yaml": `get:\n  parameters: [{$ref: "../params.yaml#/Id"}]\n  responses:\n    "200": {description: ok, content: {application/json: {schema: {$ref: "../schemas.yaml#/components/schemas/Item"}}}}\n`,
        "params.yaml": `Id: {name: id, in: path, required: true, schema: {type: integer, format: int64}}\n`,
        "schemas.yaml": `components:\n  schemas:\n    Item: {type: object, properties: {id: {type: integer, format: int64}}}\n`,
      },
    );
    expect(d.files).toEqual(["api.yaml", "paths/items.yaml", "params.yaml", "schemas.yaml"]);
    expect(operation(d, "getItemsById")).toMatchObject({
      parameters: [{ name: "id", in: "path", type: scalar("int64"), origin: { file: "params.yaml", line: 1, column: 1 } }],
      responses: [{ contents: [{ type: ref("#/components/schemas/Item", "schemas.yaml") }] }],
      origin: { file: "paths/items.yaml", line: 1, column: 1 },
    });
  });

  it("synthesizes distinct names when generated names collide with operationIds", () => {
    const d = parse(
      v30(`paths:
  /a:
    get: {operationId: getA, responses: {"200": {description: ok}}}
  /A:
    get: {responses: {"200": {description: ok}}}
`),
    );
    expect(service(d).operations.map((o) => o.name)).toEqual(["getA", "getA2"]);
  });

  it("has no service for a components-only 3.1 document", () => {
    expect(parse(v31(`components: {schemas: {A: {type: string}}}\n`)).services).toEqual([]);
  });
});

describe("a path key carrying a query string (degraded with a warning)", () => {
  const spec = v30(`paths:
  /export?filename={filename}&key={APIKEY}&fixed=1:
    get:
      operationId: exportAll
      parameters:
        - {name: filename, in: path, required: true, schema: {type: string}}
        - {name: APIKEY, in: path, required: true, style: simple, schema: {type: string}}
      responses: {"200": {description: ok}}
  /lists/{id}/search?q={q}&{mode}=1:
    get:
      operationId: search
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer}}
        - {name: q, in: query, schema: {type: string}}
        - {name: mode, in: path, required: true, schema: {type: string}}
      responses: {"200": {description: ok}}
    post:
      operationId: create
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer}}
      responses: {"200": {description: ok}}
`);

  it("uses the part before '?' as the path and sends the variables as query parameters", () => {
    const doc = parse(spec);
    const exportAll = operation(doc, "exportAll");
    expect(exportAll.path).toBe("/export");
    expect(exportAll.parameters.map((p) => [p.in, p.name, p.required, p.style])).toEqual([
      ["query", "filename", true, undefined],
      // The pair's name is what goes on the wire: `key={APIKEY}` sends `key`.
      ["query", "key", true, undefined],
    ]);
    const search = operation(doc, "search");
    expect(search.path).toBe("/lists/{id}/search");
    // `{mode}=1` names a key, not a value: no query parameter can say that, so `mode` is left out.
    expect(search.parameters.map((p) => [p.in, p.name])).toEqual([
      ["path", "id"],
      ["query", "q"],
    ]);
    // POST declares none of the query string's variables: they are left out, the operation stays.
    expect(operation(doc, "create").path).toBe("/lists/{id}/search");
    expect(operation(doc, "create").parameters.map((p) => p.name)).toEqual(["id"]);
  });

  it("says so in located warnings naming the rule", () => {
    const warnings = (parse(spec).warnings ?? []).map((w) => `${w.line}:${w.column} ${w.detail}`);
    expect(warnings).toHaveLength(4);
    expect(warnings[0]).toMatch(/^4:3 path "\/export\?filename=\{filename\}&key=\{APIKEY\}&fixed=1" carries a query string: a path key is a path template and query parameters are declared with "in: query" \(OpenAPI, Paths Object\); the path is "\/export"/);
    expect(warnings.filter((w) => w.includes("left out"))).toEqual([
      expect.stringMatching(/^12:5 the query string of GET \/lists\/\{id\}\/search\?q=\{q\}&\{mode\}=1 .*"mode" \(not the value of a name=value pair\)$/),
      expect.stringMatching(/^19:5 the query string of POST .*"q" \(declared by no parameter\), "mode" \(declared by no parameter\)$/),
    ]);
  });

  it("leaves out the later of two path keys that become the same path with the same method, with a warning naming the rule", () => {
    const doc = parse(v30(`paths:
  /rest?method=a:
    get: {operationId: a, responses: {"200": {description: ok}}}
  /rest?method=b:
    get: {operationId: b, responses: {"200": {description: ok}}}
    post: {operationId: c, responses: {"200": {description: ok}}}
  /items/{id}:
    get: {operationId: d, parameters: [{name: id, in: path, required: true, schema: {type: string}}], responses: {"200": {description: ok}}}
  /items/{key}?full=true:
    put: {operationId: e, parameters: [{name: key, in: path, required: true, schema: {type: string}}], responses: {"200": {description: ok}}}
    get: {operationId: f, parameters: [{name: key, in: path, required: true, schema: {type: string}}], responses: {"200": {description: ok}}}
`));
    // The first of each clashing pair stays; another method on the same path does not clash.
    expect(service(doc).operations.map((o) => o.name).sort()).toEqual(["a", "c", "d", "e"]);
    const clashes = (doc.warnings ?? []).map((w) => `${w.line}:${w.column} ${w.detail}`).filter((w) => w.includes("same operation path"));
    expect(clashes).toEqual([
      "7:5 GET /rest?method=b and GET /rest?method=a are the same operation path once the query string is dropped (a path key is a path template: OpenAPI has no operations told apart by their query string): GET /rest?method=b is left out",
      expect.stringMatching(/^13:\d+ GET \/items\/\{key\}\?full=true and GET \/items\/\{id\} are the same operation path .*: GET \/items\/\{key\}\?full=true is left out$/),
    ]);
  });
});
