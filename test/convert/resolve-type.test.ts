import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConvertTarget } from "../../src/convert/resolve-type.js";
import { assignNames } from "../../src/naming/assign-names.js";
import { memorySpecHost, nodeSpecHost } from "../../src/parsers/host.js";
import { loadSpec } from "../../src/pipeline/load-spec.js";
import { REPO } from "../helpers/seeds.js";

function resolveIn(file: string, query: string, host = nodeSpecHost()) {
  const doc = loadSpec(file, host);
  return resolveConvertTarget(doc, assignNames(doc), query);
}

const CONTENT = path.join(REPO, "specs/content.proto");
const PARTNER = path.join(REPO, "specs/partner.wsdl");
const WEBHOOKS = path.join(REPO, "specs/webhooks.openapi.yaml");

describe("resolveConvertTarget", () => {
  it.each([
    ["contentApi.Response", "Response$", "proto:.contentApi.Response"],
    [".contentApi.Response", "Response$", "proto:.contentApi.Response"],
    ["Response", "Response$", "proto:.contentApi.Response"],
    ["Response$", "Response$", "proto:.contentApi.Response"],
    ["contentApi.Link", "Link", "proto:.contentApi.Link"],
  ])("proto %s -> %s", (query, tsName, id) => {
    expect(resolveIn(CONTENT, query)).toEqual({ kind: "type", display: query.replace(/^\./, "").includes(".") ? query.replace(/^\./, "") : expect.any(String), id, tsName });
  });

  it("proto: nested messages by their path in the package; a simple name in two packages is ambiguous", () => {
    const host = memorySpecHost({
      "/p/a.proto": 'syntax = "proto3"; package a; import "b.proto"; message Outer { message Inner { int32 x = 1; } } message Same {}',
      "/p/b.proto": 'syntax = "proto3"; package b; message Same {}',
    });
    expect(resolveIn("/p/a.proto", "Outer.Inner", host)).toMatchObject({ tsName: "Outer_Inner", display: "a.Outer.Inner" });
    expect(resolveIn("/p/a.proto", "b.Same", host)).toMatchObject({ display: "b.Same" });
    expect(() => resolveIn("/p/a.proto", "Same", host)).toThrow(/ambiguous: a\.Same, b\.Same/);
  });

  it("XSD: {ns}local, the local name, the codec name or the element's type name", () => {
    const expected = { kind: "element", display: "{urn:partner.api.example}login", encode: "encodeLoginElement", decode: "decodeLoginElement" };
    for (const q of ["{urn:partner.api.example}login", "login", "Login"]) expect(resolveIn(PARTNER, q)).toMatchObject(expected);
    expect(resolveIn(PARTNER, "QueryOptions")).toMatchObject({ encode: "encodeQueryOptionsElement", decode: "decodeQueryOptionsElement", typeId: expect.stringContaining("QueryOptions") });
  });

  it("OpenAPI: the schema name", () => {
    expect(resolveIn(WEBHOOKS, "Webhook")).toMatchObject({ kind: "type", display: "Webhook", tsName: "Webhook" });
  });

  it("an unknown name is a usage error that suggests near names", () => {
    expect(() => resolveIn(CONTENT, "response")).toThrow(/did you mean: contentApi\.Response/);
    expect(() => resolveIn(PARTNER, "{urn:other}login")).toThrow(/no such type/);
  });
});
