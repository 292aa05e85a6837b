/** Schema lowering: one table row per construct; each row names a type by JSON pointer and its expected shape. */
import { describe, expect, it } from "vitest";
import { parse, ref, scalar, type, v30, v31 } from "./helpers.js";

interface Row {
  readonly name: string;
  readonly spec: string;
  readonly others?: Record<string, string>;
  readonly pointer: string;
  readonly file?: string;
  readonly expected: object;
}

const rows: Row[] = [
  {
    name: "component object: fields, required, doc, default, readOnly/writeOnly, deprecated",
    spec: v30(`components:
  schemas:
    Webhook:
      type: object
      description: A hook.
      required: [url]
      properties:
        url: {type: string, description: Target., writeOnly: true}
        id: {type: string, readOnly: true}
        retries: {type: integer, format: int32, default: 3, deprecated: true}
`),
    pointer: "#/components/schemas/Webhook",
    expected: {
      kind: "record",
      name: "Webhook",
      scope: "api.yaml",
      doc: "A hook.",
      origin: { file: "api.yaml", line: 5, column: 5, pointer: "#/components/schemas/Webhook", construct: "openapi schema #/components/schemas/Webhook" },
      members: [
        { kind: "field", name: "url", type: scalar("string"), occurs: { min: 1, max: 1 }, nullable: false, doc: "Target.", wire: { json: { key: "url", writeOnly: true } } },
        { name: "id", occurs: { min: 0, max: 1 }, wire: { json: { key: "id", readOnly: true } } },
        { name: "retries", type: scalar("int32"), default: "3", deprecated: true, origin: { line: 12, column: 9 } },
      ],
    },
  },
  {
    name: "in-file $ref becomes a RefType",
    spec: v30(`components:
  schemas:
    Owner: {type: object, properties: {name: {type: string}}}
    Pet: {type: object, properties: {owner: {$ref: "#/components/schemas/Owner"}}}
`),
    pointer: "#/components/schemas/Pet",
    expected: { members: [{ name: "owner", type: ref("#/components/schemas/Owner") }] },
  },
  {
    name: "cross-file $ref resolves relative to the referencing file",
    spec: v30(`components:
  schemas:
    Pet: {type: object, properties: {tag: {$ref: "./shared/common.yaml#/components/schemas/Tag"}}}
`),
    others: {
      "shared/common.yaml": `components:\n  schemas:\n    Tag: {type: object, properties: {label: {$ref: "#/components/schemas/Label"}}}\n    Label: {type: string, maxLength: 5}\n`,
    },
    pointer: "#/components/schemas/Pet",
    expected: { members: [{ type: ref("#/components/schemas/Tag", "shared/common.yaml") }] },
  },
  {
    name: "cross-file types keep their own file as scope and origin",
    spec: v30(`components:
  schemas:
    Pet: {type: object, properties: {tag: {$ref: "./shared/common.yaml#/components/schemas/Tag"}}}
`),
    others: {
      "shared/common.yaml": `components:\n  schemas:\n    Tag: {type: object, properties: {label: {$ref: "#/components/schemas/Label"}}}\n    Label: {type: string, maxLength: 5}\n`,
    },
    pointer: "#/components/schemas/Label",
    file: "shared/common.yaml",
    expected: { kind: "alias", name: "Label", scope: "shared/common.yaml", target: scalar("string"), facets: { maxLength: 5 }, origin: { file: "shared/common.yaml", line: 4, column: 5 } },
  },
  {
    name: "a whole file as a schema is named after the file",
    spec: v30(`components:
  schemas:
    Pet: {type: object, properties: {addr: {$ref: "postal-address.json"}}}
`),
    others: { "postal-address.json": `{"type": "object", "properties": {"street": {"type": "string"}}}` },
    pointer: "#",
    file: "postal-address.json",
    expected: { kind: "record", name: "PostalAddress", members: [{ name: "street" }] },
  },
  {
    name: "recursive schema",
    spec: v30(`components:
  schemas:
    Node:
      type: object
      properties:
        children: {type: array, items: {$ref: "#/components/schemas/Node"}}
        parent: {$ref: "#/components/schemas/Node"}
`),
    pointer: "#/components/schemas/Node",
    expected: {
      members: [
        { name: "children", type: { kind: "list", of: ref("#/components/schemas/Node") } },
        { name: "parent", type: ref("#/components/schemas/Node") },
      ],
    },
  },
  {
    name: "inline objects become anonymous named types (Parent + Property)",
    spec: v30(`components:
  schemas:
    Pet:
      type: object
      properties:
        owner_info: {type: object, properties: {name: {type: string}}}
`),
    pointer: "#/components/schemas/Pet/properties/owner_info",
    expected: { kind: "record", name: "PetOwnerInfo", anonymous: true, members: [{ name: "name" }] },
  },
  {
    name: "inline array items objects are named Parent + Property + Item",
    spec: v30(`components:
  schemas:
    Pet:
      type: object
      properties:
        toys: {type: array, minItems: 1, maxItems: 3, uniqueItems: true, items: {type: object, properties: {n: {type: string}}}}
`),
    pointer: "#/components/schemas/Pet",
    expected: {
      members: [{ name: "toys", type: { kind: "list", of: ref("#/components/schemas/Pet/properties/toys/items"), facets: { minItems: 1, maxItems: 3, uniqueItems: true } } }],
    },
  },
  {
    name: "allOf [$ref, inline] is an extension of the ref",
    spec: v30(`components:
  schemas:
    Base: {type: object, properties: {id: {type: string}}}
    Cat:
      allOf:
        - $ref: "#/components/schemas/Base"
        - type: object
          required: [meows]
          properties:
            meows: {type: boolean}
`),
    pointer: "#/components/schemas/Cat",
    expected: {
      kind: "record",
      base: { id: "openapi:api.yaml#/components/schemas/Base", derivation: "extension" },
      members: [{ name: "meows", type: scalar("boolean"), occurs: { min: 1, max: 1 } }],
    },
  },
  {
    name: "allOf of several refs is merged into one record",
    spec: v30(`components:
  schemas:
    A: {type: object, required: [a], properties: {a: {type: string}}}
    B: {type: object, properties: {b: {type: number}}}
    AB: {allOf: [{$ref: "#/components/schemas/A"}, {$ref: "#/components/schemas/B"}]}
`),
    pointer: "#/components/schemas/AB",
    expected: {
      kind: "record",
      members: [
        { name: "a", occurs: { min: 1, max: 1 }, origin: { pointer: "#/components/schemas/A/properties/a" } },
        { name: "b", type: scalar("double") },
      ],
    },
  },
  {
    // DigitalOcean: `allOf: [$ref, {description}]` (and an example) on a property whose target is an array.
    name: "allOf [$ref, annotations only] is the ref itself, not a record",
    spec: v30(`components:
  schemas:
    Tags: {type: array, items: {type: string}}
    Window: {type: object, nullable: true, properties: {start: {type: string}}}
    Firewall:
      type: object
      properties:
        tags:
          allOf:
            - $ref: "#/components/schemas/Tags"
            - description: The tags.
              example: [a, b]
        window:
          allOf:
            - $ref: "#/components/schemas/Window"
            - description: The backup window, if any.
`),
    pointer: "#/components/schemas/Firewall",
    expected: {
      members: [
        { name: "tags", type: ref("#/components/schemas/Tags"), nullable: false },
        // The target admits null, and a description does not take that away.
        { name: "window", type: ref("#/components/schemas/Window"), nullable: true },
      ],
    },
  },
  {
    name: "allOf [$ref scalar, {maxLength}] layers the constraint over the ref as facets",
    spec: v30(`components:
  schemas:
    Label: {type: string, pattern: "^[a-z]+$"}
    Volume:
      type: object
      properties:
        label:
          allOf:
            - $ref: "#/components/schemas/Label"
            - maxLength: 16
`),
    pointer: "#/components/schemas/Volume",
    expected: { members: [{ name: "label", type: ref("#/components/schemas/Label"), facets: { maxLength: 16 } }] },
  },
  {
    name: "allOf [$ref record, {description}] names the record, and still extends like a record when used as a base",
    spec: v30(`components:
  schemas:
    Base: {type: object, properties: {id: {type: string}}}
    Described: {allOf: [{$ref: "#/components/schemas/Base"}, {description: Same as Base.}]}
    Cat:
      allOf:
        - $ref: "#/components/schemas/Described"
        - type: object
          properties:
            meows: {type: boolean}
`),
    pointer: "#/components/schemas/Cat",
    expected: {
      kind: "record",
      base: { id: "openapi:api.yaml#/components/schemas/Described", derivation: "extension" },
      members: [{ name: "meows" }],
    },
  },
  {
    // DigitalOcean's list responses: `meta: {allOf: [$ref meta_properties, {required: [total]}]}`.
    name: "allOf [$ref Base, {required}] flattens Base into a record where the inherited property is required",
    spec: v30(`components:
  schemas:
    Meta: {type: object, properties: {total: {type: integer}, next: {type: string}}}
    Page:
      allOf:
        - $ref: "#/components/schemas/Meta"
        - required: [total]
`),
    pointer: "#/components/schemas/Page",
    expected: {
      kind: "record",
      members: [
        { name: "total", type: { kind: "scalar", scalar: "double", builtin: "integer" }, occurs: { min: 1, max: 1 }, origin: { pointer: "#/components/schemas/Meta/properties/total" } },
        { name: "next", occurs: { min: 0, max: 1 } },
      ],
    },
  },
  {
    // Box's ShieldInformationBarrierSegmentRestriction--Mini: the base requires `segment` without declaring it (any
    // value), the extension declares it. One property, the extension's type, still required (was declared twice).
    name: "allOf [$ref Base, {properties}] where Base only requires a property the extension declares flattens into one property",
    spec: v30(`components:
  schemas:
    Base: {type: object, required: [segment], properties: {id: {type: string}}}
    Mini:
      allOf:
        - $ref: "#/components/schemas/Base"
        - properties: {segment: {type: object, properties: {id: {type: string}}}}
`),
    pointer: "#/components/schemas/Mini",
    expected: {
      kind: "record",
      members: [
        { name: "id", occurs: { min: 0, max: 1 } },
        { name: "segment", type: { kind: "ref" }, occurs: { min: 1, max: 1 }, origin: { pointer: "#/components/schemas/Mini/allOf/1/properties/segment" } },
      ],
    },
  },
  {
    // DigitalOcean's create-replica body: `allOf: [$ref database_replica]` with `required: [name, size]` beside it.
    name: "required beside allOf [$ref Record] makes a record requiring them; a required name declared nowhere must still be present",
    spec: v30(`components:
  schemas:
    Replica: {type: object, properties: {name: {type: string}, size: {type: string}}}
    NewReplica:
      allOf:
        - $ref: "#/components/schemas/Replica"
      required: [name, tier]
`),
    pointer: "#/components/schemas/NewReplica",
    expected: {
      kind: "record",
      members: [
        { name: "name", type: scalar("string"), occurs: { min: 1, max: 1 } },
        { name: "size", occurs: { min: 0, max: 1 } },
        { name: "tier", type: scalar("any"), occurs: { min: 1, max: 1 }, origin: { pointer: "#/components/schemas/NewReplica/required/1" } },
      ],
    },
  },
  {
    name: "oneOf with discriminator mapping",
    spec: v30(`components:
  schemas:
    Cat: {type: object, properties: {kind: {type: string}}}
    Dog: {type: object, properties: {kind: {type: string}}}
    Pet:
      oneOf:
        - $ref: "#/components/schemas/Cat"
        - $ref: "#/components/schemas/Dog"
      discriminator:
        propertyName: kind
        mapping:
          cat: "#/components/schemas/Cat"
          doggo: Dog
`),
    pointer: "#/components/schemas/Pet",
    expected: {
      kind: "union",
      discriminator: { kind: "property", property: "kind" },
      variants: [
        { name: "Cat", type: ref("#/components/schemas/Cat"), tag: "cat" },
        { name: "Dog", type: ref("#/components/schemas/Dog"), tag: "doggo" },
      ],
    },
  },
  {
    name: "discriminator without mapping tags variants by schema name",
    spec: v30(`components:
  schemas:
    Cat: {type: object, properties: {kind: {type: string}}}
    Dog: {type: object, properties: {kind: {type: string}}}
    Pet:
      anyOf: [{$ref: "#/components/schemas/Cat"}, {$ref: "#/components/schemas/Dog"}]
      discriminator: {propertyName: kind}
`),
    pointer: "#/components/schemas/Pet",
    expected: { variants: [{ name: "Cat", tag: "Cat" }, { name: "Dog", tag: "Dog" }] },
  },
  {
    name: "anyOf without discriminator: non-exclusive union",
    spec: v30(`components:
  schemas:
    Id:
      anyOf: [{type: string}, {type: integer, format: int64}]
`),
    pointer: "#/components/schemas/Id",
    expected: {
      kind: "union",
      discriminator: { kind: "none", exclusive: false },
      variants: [
        { name: "string", type: scalar("string") },
        { name: "int64", type: scalar("int64") },
      ],
    },
  },
  {
    name: "inline oneOf is a UnionExpr",
    spec: v30(`components:
  schemas:
    Box:
      type: object
      properties:
        v: {oneOf: [{type: string}, {type: boolean}]}
`),
    pointer: "#/components/schemas/Box",
    expected: { members: [{ name: "v", type: { kind: "union", of: [scalar("string"), scalar("boolean")] } }] },
  },
  {
    name: "nullable: 3.0 keyword",
    spec: v30(`components:
  schemas:
    Box:
      type: object
      properties:
        a: {type: string, nullable: true}
        b: {allOf: [{$ref: "#/components/schemas/Box"}], nullable: true}
        c: {type: string}
`),
    pointer: "#/components/schemas/Box",
    expected: {
      members: [
        { name: "a", type: scalar("string"), nullable: true },
        { name: "b", type: ref("#/components/schemas/Box"), nullable: true },
        { name: "c", nullable: false },
      ],
    },
  },
  {
    name: "nullable: 3.1 type arrays, oneOf with null, multi-type unions",
    spec: v31(`components:
  schemas:
    Box:
      type: object
      properties:
        a: {type: [string, "null"]}
        b: {oneOf: [{$ref: "#/components/schemas/Box"}, {type: "null"}]}
        c: {type: [string, integer]}
        d: {type: array, items: {type: [integer, "null"], format: int32}}
`),
    pointer: "#/components/schemas/Box",
    expected: {
      members: [
        { name: "a", type: scalar("string"), nullable: true },
        { name: "b", type: ref("#/components/schemas/Box"), nullable: true },
        { name: "c", type: { kind: "union", of: [scalar("string"), scalar("double", "integer")] }, nullable: false },
        { name: "d", type: { kind: "list", of: { kind: "union", of: [scalar("int32"), { kind: "literal", value: null }] } } },
      ],
    },
  },
  {
    name: "a $ref to a nullable component makes the field nullable",
    spec: v31(`components:
  schemas:
    MaybeName: {type: [string, "null"]}
    Box: {type: object, properties: {n: {$ref: "#/components/schemas/MaybeName"}}}
`),
    pointer: "#/components/schemas/Box",
    expected: { members: [{ name: "n", type: ref("#/components/schemas/MaybeName"), nullable: true }] },
  },
  {
    name: "string enum",
    spec: v30(`components:
  schemas:
    Status: {type: string, enum: [active, paused], description: State.}
`),
    pointer: "#/components/schemas/Status",
    expected: {
      kind: "enum",
      doc: "State.",
      base: scalar("string"),
      values: [
        { name: "active", value: "active", origin: { line: 5, column: 35 } },
        { name: "paused", value: "paused" },
      ],
    },
  },
  {
    name: "integer enum keeps number values",
    spec: v30(`components:
  schemas:
    Level: {type: integer, format: int32, enum: [1, 2, 3]}
`),
    pointer: "#/components/schemas/Level",
    expected: { kind: "enum", base: scalar("int32"), values: [{ name: "1", value: 1 }, { name: "2", value: 2 }, { name: "3", value: 3 }] },
  },
  {
    name: "mixed enum without type has base any",
    spec: v30(`components:
  schemas:
    Mixed: {enum: [a, 1, true]}
`),
    pointer: "#/components/schemas/Mixed",
    expected: { kind: "enum", base: scalar("any"), values: [{ value: "a" }, { value: 1 }, { value: true }] },
  },
  {
    name: "inline enum with null is an anonymous enum and the field is nullable",
    spec: v31(`components:
  schemas:
    Box:
      type: object
      properties:
        color: {type: [string, "null"], enum: [red, null]}
`),
    pointer: "#/components/schemas/Box/properties/color",
    expected: { kind: "enum", name: "BoxColor", anonymous: true, values: [{ value: "red" }] },
  },
  {
    name: "formats and facets (3.0 boolean exclusive bounds, exact big numbers)",
    spec: v30(`components:
  schemas:
    F:
      type: object
      properties:
        d: {type: string, format: date}
        dt: {type: string, format: date-time}
        by: {type: string, format: byte}
        bin: {type: string, format: binary}
        u: {type: string, format: uri}
        s: {type: string, minLength: 1, maxLength: 9, pattern: "^[a-z]+$"}
        i32: {type: integer, format: int32, minimum: 0, exclusiveMinimum: true, maximum: 10}
        i64: {type: integer, format: int64, maximum: 9223372036854775807}
        i: {type: integer, multipleOf: 5}
        f: {type: number, format: float, maximum: 1.50, exclusiveMaximum: true}
        n: {type: number}
        b: {type: boolean}
`),
    pointer: "#/components/schemas/F",
    expected: {
      members: [
        { name: "d", type: scalar("date"), facets: { format: "date" } },
        { name: "dt", type: scalar("dateTime") },
        { name: "by", type: scalar("bytes") },
        { name: "bin", type: scalar("bytes"), facets: { format: "binary" } },
        { name: "u", type: scalar("anyURI"), facets: { format: "uri" } },
        { name: "s", type: scalar("string"), facets: { minLength: 1, maxLength: 9, patterns: ["^[a-z]+$"] } },
        { name: "i32", type: scalar("int32"), facets: { minExclusive: "0", maxInclusive: "10" } },
        { name: "i64", type: scalar("int64"), facets: { maxInclusive: "9223372036854775807" } },
        { name: "i", type: scalar("double", "integer"), facets: { multipleOf: "5" } },
        { name: "f", type: scalar("float"), facets: { maxExclusive: "1.50" } },
        { name: "n", type: scalar("double") },
        { name: "b", type: scalar("boolean") },
      ],
    },
  },
  {
    name: "3.1 numeric exclusive bounds",
    spec: v31(`components:
  schemas:
    Pct: {type: number, exclusiveMinimum: 0, exclusiveMaximum: 100}
`),
    pointer: "#/components/schemas/Pct",
    expected: { kind: "alias", target: scalar("double"), facets: { minExclusive: "0", maxExclusive: "100" } },
  },
  {
    name: "additionalProperties false / true / schema on records",
    spec: v30(`components:
  schemas:
    Closed: {type: object, additionalProperties: false, properties: {a: {type: string}}}
    Open: {type: object, additionalProperties: true, properties: {a: {type: string}}}
    Typed: {type: object, additionalProperties: {type: integer, format: int64}, properties: {a: {type: string}}}
`),
    pointer: "#/components/schemas/Typed",
    expected: { kind: "record", additionalProperties: scalar("int64") },
  },
  {
    name: "additionalProperties: false",
    spec: v30(`components:
  schemas:
    Closed: {type: object, additionalProperties: false, properties: {a: {type: string}}}
`),
    pointer: "#/components/schemas/Closed",
    expected: { kind: "record", additionalProperties: false },
  },
  {
    name: "additionalProperties: true",
    spec: v30(`components:
  schemas:
    Open: {type: object, additionalProperties: true, properties: {a: {type: string}}}
`),
    pointer: "#/components/schemas/Open",
    expected: { kind: "record", additionalProperties: scalar("any") },
  },
  {
    name: "an object with only additionalProperties is a map",
    spec: v30(`components:
  schemas:
    Labels: {type: object, additionalProperties: {type: string}}
`),
    pointer: "#/components/schemas/Labels",
    expected: { kind: "alias", target: { kind: "map", key: scalar("string"), value: scalar("string") } },
  },
  {
    name: "const is a literal, {} is any",
    spec: v31(`components:
  schemas:
    Box:
      type: object
      properties:
        kind: {const: box}
        anything: {}
`),
    pointer: "#/components/schemas/Box",
    expected: {
      members: [
        { name: "kind", type: { kind: "literal", value: "box" } },
        { name: "anything", type: scalar("any") },
      ],
    },
  },
  {
    name: "JSON input",
    spec: `{
  "openapi": "3.1.0",
  "info": {"title": "J", "version": "2"},
  "components": {"schemas": {"Item": {"type": "object", "properties": {"qty": {"type": "integer", "format": "int32"}}}}}
}`,
    pointer: "#/components/schemas/Item",
    expected: { kind: "record", origin: { line: 4, column: 30 }, members: [{ name: "qty", type: scalar("int32"), origin: { line: 4, column: 72 } }] },
  },
];

describe("openapi schemas", () => {
  it.each(rows)("$name", (row) => {
    const doc = parse(row.spec, row.others);
    expect(type(doc, row.pointer, row.file)).toMatchObject(row.expected);
  });
});

describe("openapi document-level behaviour", () => {
  it("orders types by declaration, entry file first, and lists every file read", () => {
    const doc = parse(
      v30(`components:
  schemas:
    Zed: {type: object, properties: {c: {$ref: "common.yaml#/components/schemas/C"}, inner: {type: object, properties: {x: {type: string}}}}}
    Alpha: {type: string}
`),
      { "common.yaml": `components:\n  schemas:\n    Unused: {type: string}\n    C: {type: string}\n` },
    );
    expect(doc.files).toEqual(["api.yaml", "common.yaml"]);
    expect(doc.types.map((t) => t.name)).toEqual(["Zed", "ZedInner", "Alpha", "C"]);
    expect(doc).toMatchObject({ format: "openapi", entry: "api.yaml", info: { title: "T", version: "1" } });
  });

  it("parses every referenced file once", () => {
    const reads: string[] = [];
    const files: Record<string, string> = {
      "/spec/api.yaml": v30(`components:
  schemas:
    A: {$ref: "c.yaml#/components/schemas/X"}
    B: {$ref: "c.yaml#/components/schemas/Y"}
`),
      "/spec/c.yaml": `components:\n  schemas:\n    X: {type: string}\n    Y: {type: integer}\n`,
    };
    const host = {
      readFile: (p: string) => {
        reads.push(p);
        return files[p]!;
      },
      displayPath: (p: string) => p,
    };
    return import("../../../src/parsers/openapi/index.js").then(({ parseOpenApi }) => {
      const doc = parseOpenApi("/spec/api.yaml", host);
      expect(reads).toEqual(["/spec/api.yaml", "/spec/c.yaml"]);
      expect(type(doc, "#/components/schemas/A")).toMatchObject({ kind: "alias", target: ref("#/components/schemas/X", "c.yaml") });
    });
  });

  it("keeps a __proto__ property as an ordinary field", () => {
    const doc = parse(
      v30(`components:
  schemas:
    Odd: {type: object, properties: {__proto__: {type: string}, constructor: {type: integer}}}
`),
    );
    expect(type(doc, "#/components/schemas/Odd")).toMatchObject({ members: [{ name: "__proto__" }, { name: "constructor" }] });
    expect(({} as Record<string, unknown>)["type"]).toBeUndefined();
  });

  it("gives colliding inline names a numeric suffix and never takes a component name", () => {
    const doc = parse(
      v30(`components:
  schemas:
    A: {type: object, properties: {b: {type: object, properties: {x: {type: string}}}}}
    AB: {type: object, properties: {y: {type: string}}}
`),
    );
    expect(type(doc, "#/components/schemas/A/properties/b").name).toBe("AB2");
    expect(type(doc, "#/components/schemas/AB").name).toBe("AB");
  });

  it("accepts YAML anchors and aliases within the budget", () => {
    const doc = parse(
      v30(`components:
  schemas:
    Name: &name {type: string, maxLength: 3}
    Other: *name
`),
    );
    expect(type(doc, "#/components/schemas/Other")).toMatchObject({ kind: "alias", facets: { maxLength: 3 } });
  });
});
