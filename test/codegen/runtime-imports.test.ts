import { describe, expect, it } from "vitest";
import { runtimeAreaModule, runtimeAreaOf } from "../../src/codegen/runtime-imports.js";
import { memorySpecHost } from "../../src/parsers/host.js";
import { generateSpec } from "../../src/pipeline/generate-files.js";

const PROTO = `syntax = "proto3";
package demo;
message Hello { string name = 1; }
service Greeter { rpc Greet(Hello) returns (Hello); }
`;
const OPENAPI = `openapi: 3.0.3
info: { title: Pets, version: "1" }
paths: {}
components:
  schemas:
    Pet: { type: object, required: [url], properties: { url: { type: string, format: uri } } }
`;

/** Every module a generated output imports that is not one of its own files, per file name. */
function runtimeImports(files: readonly { path: string; content: string }[]): Map<string, string[]> {
  return new Map(
    files
      .filter((f) => f.path.endsWith(".ts"))
      .map((f) => [f.path.replace(/^.*\//, ""), [...new Set([...f.content.matchAll(/ from "([^".][^"]*)";/g)].map((m) => m[1]!))].sort()] as const),
  );
}

function generate(file: string, text: string, runtimeModule?: string) {
  return generateSpec({ file, display: file.slice(1), ...(runtimeModule ? { runtimeModule } : {}) }, memorySpecHost({ [file]: text })).files;
}

describe("runtime imports by area", () => {
  it("the area module of each way of naming the runtime; another module is left whole", () => {
    expect(runtimeAreaModule("specforge/runtime", "rpc")).toBe("specforge/runtime/rpc");
    expect(runtimeAreaModule("/repo/src/runtime/index.ts", "json")).toBe("/repo/src/runtime/areas/json.ts");
    expect(runtimeAreaModule("file:///pkg/dist/runtime/index.js", "xml")).toBe("file:///pkg/dist/runtime/areas/xml.js");
    expect(runtimeAreaModule("C:\\pkg\\dist\\runtime\\index.js", "soap")).toBe("C:\\pkg\\dist\\runtime\\areas\\soap.js");
    for (const other of ["@acme/sf-runtime", "specforge/runtime/json", "./my-runtime.js", "/x/runtimes/index.ts"]) expect(runtimeAreaModule(other, "json")).toBeUndefined();
  });

  it("a name goes to the preferred area when it has it, else to the first area that does", () => {
    expect(runtimeAreaOf("ValidationIssue", "protobuf")).toBe("protobuf");
    expect(runtimeAreaOf("ValidationIssue", "xml")).toBe("xml");
    expect(runtimeAreaOf("pbReader", "rpc")).toBe("protobuf");
    expect(runtimeAreaOf("HttpHandler", "soap")).toBe("soap");
    expect(runtimeAreaOf("HttpHandler", "json")).toBe("soap");
    expect(runtimeAreaOf("notARuntimeName", "json")).toBeUndefined();
  });

  it("each generated file imports its artifact's area (specforge/runtime by default)", () => {
    const proto = runtimeImports(generate("/demo.proto", PROTO));
    expect(proto.get("protobuf.ts")).toEqual(["specforge/runtime/protobuf"]);
    expect(proto.get("protojson.ts")).toEqual(["specforge/runtime/protobuf"]);
    expect(proto.get("connect.ts")).toEqual(["specforge/runtime/rpc"]);
    expect(proto.get("types.ts")).toEqual([]);
    const openapi = runtimeImports(generate("/pets.yaml", OPENAPI));
    expect(openapi.get("validate.ts")).toEqual(["specforge/runtime/json"]);
  });

  it("a path to the runtime's entry is routed to its areas beside it; any other module is imported whole, without the API check", () => {
    const routed = generate("/pets.yaml", OPENAPI, "/opt/specforge/dist/runtime/index.js");
    expect(runtimeImports(routed).get("validate.ts")).toEqual(["/opt/specforge/dist/runtime/areas/json.js"]);
    const own = generate("/pets.yaml", OPENAPI, "@acme/sf-runtime");
    const validate = own.find((f) => f.path.endsWith("/validate.ts"))!.content;
    expect(runtimeImports(own).get("validate.ts")).toEqual(["@acme/sf-runtime"]);
    expect(validate).toContain("jsonIsUri");
    expect(validate).not.toContain("RuntimeApi");
  });
});
