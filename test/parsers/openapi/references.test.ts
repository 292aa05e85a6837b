/**
 * References as real documents use them: `$ref` on path items (also into another file's `paths`) and on operations
 * (DigitalOcean's layout), Reference Object overrides, `$ref` siblings in 3.1 schemas, files of definitions,
 * recursive schemas, and the errors for what cannot be resolved.
 */
import { describe, expect, it } from "vitest";
import type { AliasType, RecordType } from "../../../src/ir/model.js";
import { operation, parse, parseError, ref, scalar, service, type, v30, v31 } from "./helpers.js";

describe("$ref on path items", () => {
  const shared = `paths:
  /pets/{id}:
    parameters:
      - $ref: "#/components/parameters/Id"
    get:
      operationId: getPet
      summary: From the shared file.
      responses:
        "200":
          description: ok
          content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}
components:
  parameters:
    Id: {name: id, in: path, required: true, schema: {type: integer, format: int64}}
  schemas:
    Pet: {type: object, properties: {name: {type: string}}}
`;

  it("follows a $ref into another file's paths, resolving that item's own refs relative to its file", () => {
    const doc = parse(v30(`paths:\n  /pets/{id}:\n    $ref: "shared.yaml#/paths/~1pets~1{id}"\n`), { "shared.yaml": shared });
    const op = operation(doc, "getPet");
    expect(op).toMatchObject({ method: "get", path: "/pets/{id}", summary: "From the shared file." });
    expect(op.parameters).toMatchObject([{ name: "id", in: "path", type: scalar("int64"), origin: { file: "shared.yaml" } }]);
    expect(op.responses[0]!.contents[0]!.type).toEqual(ref("#/components/schemas/Pet", "shared.yaml"));
    expect(op.origin).toMatchObject({ file: "shared.yaml", pointer: "#/paths/~1pets~1{id}/get" });
  });

  it("accepts a percent-encoded path key in the pointer", () => {
    const doc = parse(v30(`paths:\n  /pets/{id}:\n    $ref: "shared.yaml#/paths/~1pets~1%7Bid%7D"\n`), { "shared.yaml": shared });
    expect(operation(doc, "getPet").path).toBe("/pets/{id}");
  });

  it("layers the referencing item's own fields over the referenced item's", () => {
    const doc = parse(
      v30(`paths:
  /pets/{id}:
    $ref: "shared.yaml#/paths/~1pets~1{id}"
    delete:
      operationId: deletePet
      responses: {"204": {description: gone}}
`),
      { "shared.yaml": shared },
    );
    expect(service(doc).operations.map((o) => [o.name, o.method])).toEqual([["getPet", "get"], ["deletePet", "delete"]]);
    // The path-level parameters come from the referenced item, so the local operation has its `id` too.
    expect(operation(doc, "deletePet").parameters.map((p) => p.name)).toEqual(["id"]);
  });

  it("follows a $ref to components/pathItems (3.1)", () => {
    const doc = parse(
      v31(`paths:
  /ping:
    $ref: "#/components/pathItems/Ping"
components:
  pathItems:
    Ping:
      get:
        operationId: ping
        responses: {"204": {description: pong}}
`),
    );
    expect(operation(doc, "ping").path).toBe("/ping");
  });

  it("refuses a cycle of path item refs, at the item", () => {
    const spec = v31(`paths:
  /a:
    $ref: "#/components/pathItems/A"
components:
  pathItems:
    A: {$ref: "#/components/pathItems/B"}
    B: {$ref: "#/components/pathItems/A"}
`);
    expect(parseError(spec)).toBe("/spec/api.yaml:8:5: circular $ref between path items");
  });
});

describe("$ref on operations (an extension: DigitalOcean's layout)", () => {
  const files = {
    "resources/keys/keys_get.yml": `operationId: keys_get
summary: One key.
parameters:
  - $ref: 'parameters.yml#/key_id'
responses:
  '200':
    $ref: 'responses/key.yml'
`,
    "resources/keys/parameters.yml": `key_id:
  name: key_id
  in: path
  required: true
  description: The key's id.
  schema: {type: integer}
`,
    "resources/keys/responses/key.yml": `description: A key.
content:
  application/json:
    schema:
      $ref: '../models/key.yml'
`,
    "resources/keys/models/key.yml": `type: object
properties:
  id: {type: integer}
`,
  };

  it("resolves an operation given as {$ref: file}, with its parameters and responses relative to that file", () => {
    const doc = parse(v30(`paths:\n  /v2/keys/{key_id}:\n    get:\n      $ref: 'resources/keys/keys_get.yml'\n`), files);
    const op = operation(doc, "keys_get");
    expect(op).toMatchObject({ method: "get", path: "/v2/keys/{key_id}", summary: "One key." });
    expect(op.parameters).toMatchObject([{ name: "key_id", in: "path", required: true, doc: "The key's id." }]);
    expect(op.responses[0]).toMatchObject({ status: "200", doc: "A key.", contents: [{ mediaType: "application/json", type: ref("#", "resources/keys/models/key.yml") }] });
  });

  it("still reports an undeclared path parameter, at the referenced operation", () => {
    const doc = v30(`paths:\n  /v2/keys/{other}:\n    get:\n      $ref: 'resources/keys/keys_get.yml'\n`);
    expect(parseError(doc, files)).toBe('/spec/resources/keys/keys_get.yml:1:1: path parameter "other" of GET /v2/keys/{other} is not declared');
  });

  it("refuses an operation $ref that does not lead to an object", () => {
    const doc = v30(`paths:\n  /a:\n    get:\n      $ref: '#/x'\nx: 3\n`);
    expect(parseError(doc)).toBe("/spec/api.yaml:7:1: the get operation must be an object");
  });
});

describe("Reference Object overrides", () => {
  it("takes description and summary written beside a $ref over the target's", () => {
    const doc = parse(
      v31(`paths:
  /a/{id}:
    get:
      operationId: getA
      parameters:
        - {$ref: "#/components/parameters/Id", description: The A's id.}
      responses:
        "200": {$ref: "#/components/responses/Ok", description: The A.}
        "404": {$ref: "#/components/responses/Ok"}
components:
  parameters:
    Id: {name: id, in: path, required: true, description: Some id., schema: {type: string}}
  responses:
    Ok: {description: Fine.}
`),
    );
    const op = operation(doc, "getA");
    expect(op.parameters[0]).toMatchObject({ name: "id", doc: "The A's id." });
    expect(op.responses.map((r) => [r.status, r.doc])).toEqual([["200", "The A."], ["404", "Fine."]]);
  });
});

describe("$ref siblings in schemas", () => {
  const schemas = `components:
  schemas:
    Name: {type: string, maxLength: 10}
    Base: {type: object, required: [id], properties: {id: {type: integer}}}
    Short: {$ref: "#/components/schemas/Name", maxLength: 3, description: A short name.}
    Extended:
      $ref: "#/components/schemas/Base"
      required: [label]
      properties:
        label: {type: string}
    Holder:
      type: object
      properties:
        nick: {$ref: "#/components/schemas/Name", pattern: "^[a-z]+$"}
`;

  it("3.1: facets beside a $ref apply as well, on a component and on a property", () => {
    const doc = parse(v31(schemas));
    expect(type(doc, "#/components/schemas/Short")).toMatchObject({ kind: "alias", target: ref("#/components/schemas/Name"), facets: { maxLength: 3 }, doc: "A short name." });
    const holder = type(doc, "#/components/schemas/Holder") as RecordType;
    expect(holder.members[0]).toMatchObject({ name: "nick", type: ref("#/components/schemas/Name"), facets: { patterns: ["^[a-z]+$"] } });
  });

  it("3.1: object keywords beside a $ref make an object with the reference's properties and its own", () => {
    const doc = parse(v31(schemas));
    const t = type(doc, "#/components/schemas/Extended") as RecordType;
    expect(t.kind).toBe("record");
    expect(t.members.map((m) => [m.name, m.kind === "field" ? m.occurs.min : -1])).toEqual([["id", 1], ["label", 1]]);
  });

  it("3.0: keywords beside a $ref are ignored, as the specification says", () => {
    const doc = parse(v30(schemas));
    expect(type(doc, "#/components/schemas/Short")).toMatchObject({ kind: "alias", target: ref("#/components/schemas/Name") });
    expect((type(doc, "#/components/schemas/Short") as AliasType).facets).toBeUndefined();
    expect(type(doc, "#/components/schemas/Extended")).toMatchObject({ kind: "alias", target: ref("#/components/schemas/Base") });
  });

  it("3.1: a keyword beside a $ref that the reference's type cannot carry is a check of the rest of the schema", () => {
    const spec = v31(`components:\n  schemas:\n    A: {type: string}\n    B: {$ref: "#/components/schemas/A", enum: [x]}\n`);
    const doc = parse(spec);
    const b = type(doc, "#/components/schemas/B") as AliasType;
    expect(b.target).toEqual(ref("#/components/schemas/A"));
    expect(b.checks).toEqual([{ kind: "matches", type: ref("#/components/schemas/B/$rest") }]);
    expect(type(doc, "#/components/schemas/B/$rest")).toMatchObject({ kind: "enum", values: [{ value: "x" }] });
    expect(doc.warnings).toBeUndefined();
  });
});

describe("files of definitions and $ref standing for a properties map", () => {
  const definitions = `apiAgent:
  type: object
  properties:
    name: {type: string}
    children:
      type: array
      items: {$ref: '#/apiAgent'}
    deployment: {$ref: '#/apiDeployment'}
apiDeployment:
  type: object
  properties:
    agent: {$ref: '#/apiAgent'}
    byName: {type: object, additionalProperties: {$ref: '#/apiDeployment'}}
`;
  const attributes = `lb_ids:\n  droplet_ids:\n    type: array\n    items: {type: integer}\n`;

  it("names top-level entries of a non-OpenAPI file by their key, and recursion through them terminates", () => {
    const doc = parse(
      v30(`components:
  schemas:
    Wrapper:
      type: object
      properties:
        agent: {$ref: 'definitions.yml#/apiAgent'}
`),
      { "definitions.yml": definitions },
    );
    const agent = type(doc, "#/apiAgent", "definitions.yml") as RecordType;
    expect(agent).toMatchObject({ kind: "record", name: "apiAgent", scope: "definitions.yml" });
    expect(agent.anonymous).toBeUndefined();
    expect(agent.members.map((m) => (m.kind === "field" ? m.type : null))).toEqual([
      scalar("string"),
      { kind: "list", of: ref("#/apiAgent", "definitions.yml") },
      ref("#/apiDeployment", "definitions.yml"),
    ]);
    const deployment = type(doc, "#/apiDeployment", "definitions.yml") as RecordType;
    expect(deployment.members.map((m) => (m.kind === "field" ? m.type : null))).toEqual([
      ref("#/apiAgent", "definitions.yml"),
      { kind: "map", key: scalar("string"), value: ref("#/apiDeployment", "definitions.yml") },
    ]);
  });

  it("follows `properties: {$ref: ...}` to the map of properties it stands for", () => {
    const doc = parse(
      v30(`components:
  schemas:
    LB:
      type: object
      properties:
        $ref: 'attributes.yml#/lb_ids'
`),
      { "attributes.yml": attributes },
    );
    expect((type(doc, "#/components/schemas/LB") as RecordType).members).toMatchObject([{ name: "droplet_ids", type: { kind: "list", of: scalar("double", "integer") } }]);
  });
});

describe("recursive schemas", () => {
  it("lowers self and mutual recursion through properties, arrays, maps and an array alias", () => {
    const doc = parse(
      v31(`components:
  schemas:
    Node:
      type: object
      properties:
        next: {$ref: "#/components/schemas/Node"}
        children: {type: array, items: {$ref: "#/components/schemas/Node"}}
        byName: {type: object, additionalProperties: {$ref: "#/components/schemas/Node"}}
        forest: {$ref: "#/components/schemas/Forest"}
    Forest:
      type: array
      items: {$ref: "#/components/schemas/Tree"}
    Tree:
      type: object
      properties:
        forest: {$ref: "#/components/schemas/Forest"}
        inline:
          type: object
          properties:
            back: {$ref: "#/components/schemas/Tree"}
    Nested:
      type: array
      items: {$ref: "#/components/schemas/Nested"}
`),
    );
    expect(type(doc, "#/components/schemas/Forest")).toMatchObject({ kind: "alias", target: { kind: "list", of: ref("#/components/schemas/Tree") } });
    expect(type(doc, "#/components/schemas/Nested")).toMatchObject({ kind: "alias", target: { kind: "list", of: ref("#/components/schemas/Nested") } });
    const inline = type(doc, "#/components/schemas/Tree/properties/inline") as RecordType;
    expect(inline.members[0]).toMatchObject({ name: "back", type: ref("#/components/schemas/Tree") });
  });

  it("still refuses a cycle of plain aliases", () => {
    const spec = v31(`components:\n  schemas:\n    A: {$ref: "#/components/schemas/B"}\n    B: {$ref: "#/components/schemas/A"}\n`);
    expect(parseError(spec)).toBe("/spec/api.yaml:5:5: circular $ref: A -> B -> A");
  });
});

describe("nullable named types", () => {
  it("marks a named type whose schema admits null, in each of the ways a schema can say it", () => {
    const doc = parse(
      v31(`components:
  schemas:
    Obj: {type: [object, "null"], properties: {a: {type: string}}}
    Str: {type: [string, "null"]}
    Enum: {enum: [a, b, null]}
    Choice: {oneOf: [{type: string}, {type: integer}, {type: "null"}]}
    Plain: {type: string}
    Fixed: {const: x}
    Alias: {$ref: "#/components/schemas/Str"}
`),
    );
    const nullable = (name: string) => type(doc, `#/components/schemas/${name}`).nullable ?? false;
    expect(["Obj", "Str", "Enum", "Choice", "Plain", "Fixed", "Alias"].map(nullable)).toEqual([true, true, true, true, false, false, true]);
    expect(type(doc, "#/components/schemas/Fixed")).toMatchObject({ kind: "alias", target: { kind: "literal", value: "x" } });
  });

  it("3.0: nullable: true on a component, also with an enum that does not list null", () => {
    const doc = parse(v30(`components:\n  schemas:\n    U: {type: object, nullable: true, properties: {a: {type: string}}}\n    E: {type: string, nullable: true, enum: [a]}\n`));
    expect(type(doc, "#/components/schemas/U")).toMatchObject({ kind: "record", nullable: true });
    expect(type(doc, "#/components/schemas/E")).toMatchObject({ kind: "enum", nullable: true, values: [{ value: "a" }] });
  });
});

describe("named bodies", () => {
  it("gives every JSON or form body a named type, a text body only when constrained", () => {
    const doc = parse(
      v30(`paths:
  /a:
    post:
      operationId: postA
      requestBody:
        content:
          application/json: {schema: {oneOf: [{type: string}, {type: integer}]}}
          application/x-www-form-urlencoded: {schema: {type: object, additionalProperties: {type: string}}}
      responses:
        "200":
          description: ok
          content:
            application/json: {schema: {type: array, items: {type: string}}}
            text/plain: {schema: {type: string}}
            application/octet-stream: {schema: {type: string, format: binary}}
        "201":
          description: any JSON
          content:
            application/json: {schema: {}}
`),
    );
    const op = operation(doc, "postA");
    const names = (contents: readonly { type: { kind: string; id?: string } }[]) =>
      contents.map((c) => (c.type.kind === "ref" ? doc.types.find((t) => t.id === c.type.id)!.name : c.type.kind));
    expect(names(op.requestBody!.contents)).toEqual(["PostARequest", "PostARequest2"]);
    expect(names(op.responses[0]!.contents)).toEqual(["PostAResponse200", "scalar", "scalar"]);
    expect(names(op.responses[1]!.contents)).toEqual(["scalar"]);
    expect(type(doc, "#/paths/~1a/post/requestBody/content/application~1json/schema")).toMatchObject({
      kind: "alias",
      anonymous: true,
      target: { kind: "union", of: [scalar("string"), scalar("double", "integer")] },
    });
  });
});
