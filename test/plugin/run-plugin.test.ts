/**
 * runPlugin in process: requests built with @bufbuild/protobuf, the way protoc and buf build them.
 */
import { create, fromBinary, isFieldSet, toBinary } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  CodeGeneratorResponse_Feature,
  CodeGeneratorResponseSchema,
  Edition,
  type FileDescriptorProto,
} from "@bufbuild/protobuf/wkt";
import path from "node:path";
import { existsSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { nodeSpecHost } from "../../src/parsers/host.js";
import { generateSpec } from "../../src/pipeline/generate-files.js";
import { runPlugin } from "../../src/plugin/run-plugin.js";
import { SHARED } from "../helpers/seeds.js";
import { protocDescriptors } from "../parsers/proto-descriptors/descriptor-sets.js";

const CORPUS = path.join(SHARED, "corpus/proto");
const ENTRY = "google/protobuf/unittest.proto";

function run(protoFile: readonly FileDescriptorProto[], fileToGenerate: string[], parameter?: string) {
  const request = create(CodeGeneratorRequestSchema, { protoFile: [...protoFile], fileToGenerate, ...(parameter !== undefined ? { parameter } : {}) });
  return fromBinary(CodeGeneratorResponseSchema, runPlugin(toBinary(CodeGeneratorRequestSchema, request)));
}

describe.skipIf(!existsSync(CORPUS))("protoc-gen-specforge, in process", () => {
  let files: FileDescriptorProto[];
  beforeAll(() => {
    files = protocDescriptors(CORPUS, [ENTRY]);
  });

  it("declares proto3 optional and editions from proto2 to 2024", () => {
    const response = run(files, [ENTRY]);
    expect(isFieldSet(response, CodeGeneratorResponseSchema.field.error)).toBe(false);
    expect(response.supportedFeatures).toBe(BigInt(CodeGeneratorResponse_Feature.PROTO3_OPTIONAL | CodeGeneratorResponse_Feature.SUPPORTS_EDITIONS));
    expect([response.minimumEdition, response.maximumEdition]).toEqual([Edition.EDITION_PROTO2, Edition.EDITION_2024]);
  });

  it("writes what `specforge generate` writes, under the file's path without .proto", () => {
    const response = run(files, [ENTRY], "artifacts=types+protobuf,int64=string");
    const expected = generateSpec(
      { file: path.join(CORPUS, ENTRY), display: ENTRY, outDir: "google/protobuf/unittest", int64: "string", artifactNames: ["types", "protobuf"] },
      nodeSpecHost({ includeDirs: [CORPUS] }),
    );
    expect(response.file.map((f) => f.name)).toEqual(["google/protobuf/unittest/types.ts", "google/protobuf/unittest/protobuf.ts", "google/protobuf/unittest/index.ts"]);
    expect(response.file.map((f) => [f.name, f.content])).toEqual(expected.files.map((f) => [f.path, f.content]));
    expect(response.file[0]!.content).toContain("  optionalInt64?: string;\n");
  });

  it("generates each requested file on its own", () => {
    const response = run(files, [ENTRY, "google/protobuf/unittest_import.proto"], "artifacts=types");
    expect(response.file.map((f) => f.name)).toEqual([
      "google/protobuf/unittest/types.ts",
      "google/protobuf/unittest/index.ts",
      "google/protobuf/unittest_import/types.ts",
      "google/protobuf/unittest_import/index.ts",
    ]);
  });

  it("reports a bad parameter in the response's error field", () => {
    const response = run(files, [ENTRY], "int64=long");
    expect(response.file).toEqual([]);
    expect(response.error).toBe("plugin parameter int64=long: expected bigint, string, number");
  });

  it("refuses an edition it does not know with its file:line:col", () => {
    const edition = files.find((f) => f.name === ENTRY)!;
    const copy = create(CodeGeneratorRequestSchema, { protoFile: files }).protoFile.map((f) => (f === edition ? { ...f } : f));
    const target = copy.find((f) => f.name === ENTRY)!;
    target.syntax = "editions";
    target.edition = Edition.EDITION_UNSTABLE;
    const response = run(copy, [ENTRY]);
    expect(response.file).toEqual([]);
    expect(response.error).toMatch(/^google\/protobuf\/unittest\.proto:\d+:\d+: edition UNSTABLE is not supported by specforge \(proto2, proto3 and editions 2023, 2024 are\)$/);
  });

  it("reports a file missing from the request", () => {
    const response = run(files.filter((f) => f.name !== "google/protobuf/unittest_import.proto"), [ENTRY]);
    expect(response.error).toMatch(/import "google\/protobuf\/unittest_import.proto" is not among the request's files/);
  });

  it("answers an undecodable request with an internal error, not a response", () => {
    expect(() => runPlugin(new Uint8Array([0xff, 0xff, 0xff]))).toThrow();
  });
});
