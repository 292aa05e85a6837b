import { describe, expect, it } from "vitest";
import { compileRoutes } from "../../../src/runtime/rest/router.js";

describe("compileRoutes", () => {
  const route = compileRoutes([
    { method: "GET", path: "/webhooks/{id}", operation: "get" },
    { method: "PUT", path: "/webhooks/{id}", operation: "put" },
    { method: "GET", path: "/webhooks/count", operation: "count" },
    { method: "GET", path: "/webhooks/{webhook_id}/deliveries/{id}", operation: "delivery" },
    { method: "GET", path: "/a/{x}/c", operation: "paramThenC" },
    { method: "GET", path: "/a/b/d", operation: "literalB" },
  ]);

  it("prefers literal segments whatever the declaration order", () => {
    expect(route("GET", "/webhooks/count")).toEqual({ kind: "found", operation: "count", params: [] });
    expect(route("GET", "/webhooks/7")).toEqual({ kind: "found", operation: "get", params: ["7"] });
  });

  it("backtracks to a parameter when the literal branch dead-ends", () => {
    expect(route("GET", "/a/b/c")).toEqual({ kind: "found", operation: "paramThenC", params: ["b"] });
  });

  it("returns parameters in template order, percent-decoded", () => {
    expect(route("GET", "/webhooks/1/deliveries/a%20b")).toEqual({ kind: "found", operation: "delivery", params: ["1", "a b"] });
    expect(route("GET", "/webhooks/1/deliveries/%E0%A4%A")).toMatchObject({ params: ["1", "%E0%A4%A"] });
  });

  it("reports a wrong method with the allowed ones, and unknown paths as undefined", () => {
    expect(route("DELETE", "/webhooks/1")).toEqual({ kind: "method-not-allowed", allow: "GET, PUT" });
    expect(route("GET", "/nope")).toBeUndefined();
    expect(route("GET", "/webhooks/1/deliveries")).toBeUndefined();
  });

  it("matches an empty segment as an (empty) parameter", () => {
    expect(route("GET", "/webhooks/1/deliveries/")).toEqual({ kind: "found", operation: "delivery", params: ["1", ""] });
  });

  it("rejects duplicate routes", () => {
    expect(() => compileRoutes([{ method: "GET", path: "/x", operation: 1 }, { method: "get", path: "/x", operation: 2 }])).toThrow(/duplicate/);
  });
});
