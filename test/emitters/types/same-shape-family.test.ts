/**
 * A base that other schemas extend (allOf) is referred to by its family name (`Any<Base>`). When the base is an
 * inline schema with the shape of an earlier type, types.ts declares it as an alias of that type: the family name
 * must be declared too (azure.com/network-applicationGateway: 32 errors "no exported member AnyApplicationGateway…").
 */
import { beforeAll, describe, expect, it } from "vitest";
import { diagnostics, fn, generateInline, type Generated } from "../json-validators/helpers.js";

const SPEC = `openapi: 3.0.3
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    SubResource:
      type: object
      properties:
        id: {type: string}
    Gateway:
      type: object
      properties:
        link:
          type: object
          properties:
            id: {type: string}
        certificates:
          type: array
          items: {$ref: "#/components/schemas/Gateway/properties/link"}
    Certificate:
      allOf:
        - $ref: "#/components/schemas/Gateway/properties/link"
      properties:
        name: {type: string}
`;

describe("a same-shape alias that is a base of other records", () => {
  let g: Generated;
  beforeAll(async () => {
    g = await generateInline(SPEC);
  });

  it("declares its family name and type-checks strict", () => {
    const types = [...g.files].find(([p]) => p.endsWith("/types.ts"))![1];
    expect(types).toMatch(/export type GatewayLink = SubResource;/);
    expect(types).toMatch(/export type AnyGatewayLink = GatewayLink;/);
    expect(diagnostics(g)).toEqual([]);
  });

  it("round-trips a value through the JSON codec and validator", () => {
    const value = { link: { id: "a" }, certificates: [{ id: "b" }] };
    const text = fn<(v: unknown) => string>(g.json, "encodeGatewayJson")(value);
    expect(JSON.parse(text)).toEqual(value);
    expect(fn<(t: string) => unknown>(g.json, "decodeGatewayJson")(text)).toEqual(value);
    expect(fn<(v: unknown) => boolean>(g.validate, "isGateway")({ link: { id: 3 } })).toBe(false);
  });
});
