import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import { parsePluginParameter } from "../../src/plugin/parameters.js";

describe("plugin parameter", () => {
  it("is empty without a parameter", () => {
    expect(parsePluginParameter("")).toEqual({});
  });

  it("reads artifacts, int64 and runtime", () => {
    expect(parsePluginParameter("artifacts=types+protobuf,int64=string, runtime=@acme/sf-runtime")).toEqual({
      artifactNames: ["types", "protobuf"],
      int64: "string",
      runtimeModule: "@acme/sf-runtime",
    });
  });

  it("expands artifact groups to their artifacts", () => {
    const { artifactNames } = parsePluginParameter("artifacts=serializers");
    expect(artifactNames).toContain("protobuf");
    expect(artifactNames).toContain("protojson");
    expect(artifactNames).not.toContain("types");
  });

  it.each([
    ["artifacts=types+nope", /unknown artifact "nope"/],
    ["artifacts=", /names no artifacts/],
    ["int64=long", /int64=long: expected bigint, string, number/],
    ["colour=blue", /unknown plugin parameter "colour"/],
    ["types", /not key=value/],
  ])("refuses %s", (parameter, message) => {
    expect(() => parsePluginParameter(parameter)).toThrow(UsageError);
    expect(() => parsePluginParameter(parameter)).toThrow(message);
  });
});
