import { beforeAll, describe, expect, it } from "vitest";
import { diagnostics, fn, generateInline, v31, type Generated } from "./helpers.js";

/**
 * Types of the same shape share one set of functions: the later type's exported names are the earlier one's
 * functions (checked by identity), typed for it, in validate.ts and json.ts; types.ts declares an inline schema
 * that reads exactly like an earlier type as an alias of it.
 */
const SPEC = v31(`paths: {}
components:
  schemas:
    Order:
      type: object
      required: [id]
      properties:
        id: {type: string, maxLength: 5}
        status: {type: string, enum: [open, closed]}
        tags: {type: array, items: {type: string, maxLength: 5}}
        parent: {$ref: "#/components/schemas/Node"}
    Invoice:
      type: object
      required: [id]
      properties:
        id: {type: string, maxLength: 5}
        state: {type: string, enum: [open, closed], description: Where the invoice is.}
        tags: {type: array, items: {type: string, maxLength: 5}}
        other: {type: string, enum: [open, shut]}
    Node:
      type: object
      properties:
        next: {$ref: "#/components/schemas/Node"}
        kids: {type: array, items: {type: object, properties: {next: {$ref: "#/components/schemas/Node"}}}}
    Chain:
      type: object
      properties:
        next: {$ref: "#/components/schemas/Chain"}
        kids: {type: array, items: {type: object, properties: {next: {$ref: "#/components/schemas/Chain"}}}}
`);

let g: Generated;
beforeAll(async () => {
  g = await generateInline(SPEC);
});

const types = () => [...g.files].find(([p]) => p.endsWith("/types.ts"))![1];

describe("same-shape types", () => {
  it("type-check under strict", () => {
    expect(diagnostics(g)).toEqual([]);
  });

  it.each([
    ["InvoiceState", "OrderStatus"],
    ["InvoiceTagsItem", "OrderTagsItem"],
    ["Chain", "Node"],
    ["ChainKidsItem", "NodeKidsItem"],
  ])("%s uses the functions of %s", (later, earlier) => {
    for (const prefix of ["is", "validate", "assert"]) expect(g.validate[`${prefix}${later}`]).toBe(g.validate[`${prefix}${earlier}`]);
    for (const [prefix, suffix] of [["encode", "Json"], ["decode", "Json"]]) {
      expect(g.json[`${prefix}${later}${suffix}`]).toBe(g.json[`${prefix}${earlier}${suffix}`]);
    }
  });

  it("keeps types of another shape apart", () => {
    expect(g.validate["isInvoiceOther"]).not.toBe(g.validate["isOrderStatus"]);
    expect(fn<(v: unknown) => boolean>(g.validate, "isInvoiceOther")("shut")).toBe(true);
    expect(fn<(v: unknown) => boolean>(g.validate, "isOrderStatus")("shut")).toBe(false);
  });

  it("checks the shared shape through the aliases and the records that use them", () => {
    const validateInvoice = fn<(v: unknown) => { path: string; rule: string }[]>(g.validate, "validateInvoice");
    const found = validateInvoice({ id: "toolong", state: "gone", tags: ["ok", "toolong"], other: "closed" }).map((i) => `${i.path} ${i.rule}`);
    expect(found).toEqual(["/id maxLength", "/state enum", "/tags/1 maxLength", "/other enum"]);
    const isChain = fn<(v: unknown) => boolean>(g.validate, "isChain");
    expect(isChain({ next: { next: {} }, kids: [{ next: {} }] })).toBe(true);
    expect(isChain({ next: { next: { kids: [{ next: 1 }] } } })).toBe(false);
    const decodeChain = fn<(t: string) => unknown>(g.json, "decodeChainJson");
    expect(decodeChain('{"kids":[{"next":{}}]}')).toEqual({ kids: [{ next: {} }] });
  });

  it("declares an inline schema like an earlier one as an alias, unless its description differs", () => {
    expect(types()).toContain("export type InvoiceTagsItem = OrderTagsItem;");
    expect(types()).toContain("export type ChainKidsItem = NodeKidsItem;");
    // The description is part of the declaration: InvoiceState keeps its own.
    expect(types()).toContain('export type InvoiceState = "open" | "closed";');
    // Component schemas keep their own declarations, even when they have an earlier one's shape.
    expect(types()).toContain("export interface Chain {");
  });
});

describe("nullable types of the same shape", () => {
  // DigitalOcean's tags_array and existing_tags_array: two nullable arrays of strings, one set of functions.
  const NULLABLE = v31(`paths: {}
components:
  schemas:
    TagsArray: {type: [array, "null"], items: {type: string}}
    ExistingTagsArray: {type: [array, "null"], items: {type: string}}
    PlainTags: {type: array, items: {type: string}}
`);

  it("share functions whose exported signatures admit null, and stay apart from the non-null shape", async () => {
    const n = await generateInline(NULLABLE);
    expect(diagnostics(n)).toEqual([]);
    expect(n.validate["isExistingTagsArray"]).toBe(n.validate["isTagsArray"]);
    expect(n.validate["isPlainTags"]).not.toBe(n.validate["isTagsArray"]);
    const is = fn<(v: unknown) => boolean>(n.validate, "isExistingTagsArray");
    expect([null, ["a"], [1]].map(is)).toEqual([true, true, false]);
    expect(fn<(t: string) => unknown>(n.json, "decodeExistingTagsArrayJson")("null")).toBeNull();
    expect(fn<(v: unknown) => boolean>(n.validate, "isPlainTags")(null)).toBe(false);
  });
});
