/**
 * The descriptor front end on small specs compiled by protoc: what it does without SourceCodeInfo, and how it
 * refuses requests a compiler would not produce.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { create } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema, type FileDescriptorProto } from "@bufbuild/protobuf/wkt";
import { afterAll, describe, expect, it } from "vitest";
import { SpecError } from "../../../src/errors.js";
import type { RecordType } from "../../../src/ir/model.js";
import { lowerDescriptors } from "../../../src/parsers/proto-descriptors/index.js";
import { protocDescriptors } from "./descriptor-sets.js";

const dir = mkdtempSync(path.join(tmpdir(), "specforge-desc-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SPEC = `syntax = "proto3";
package demo;

// An enum declared first.
enum Kind { KIND_UNSPECIFIED = 0; }

// A message.
message Hello {
  // The name.
  string name = 1;
  optional int32 count = 2; // trailing
  Kind kind = 3;
}
`;

function compile(): FileDescriptorProto[] {
  writeFileSync(path.join(dir, "demo.proto"), SPEC);
  return protocDescriptors(dir, ["demo.proto"]);
}

describe("descriptor front end", () => {
  it("takes docs, positions and declaration order from SourceCodeInfo", () => {
    const doc = lowerDescriptors(compile(), "demo.proto");
    expect(doc.types.map((t) => t.id)).toEqual(["proto:.demo.Kind", "proto:.demo.Hello"]);
    const hello = doc.types[1] as RecordType;
    expect(hello.doc).toBe("A message.");
    expect(hello.origin).toMatchObject({ file: "demo.proto", line: 8, column: 1 });
    expect(hello.members.map((m) => (m.kind === "field" ? [m.name, m.doc, m.wire.proto?.label] : [m.kind]))).toEqual([
      ["name", "The name.", "implicit"],
      ["count", "trailing", "optional"],
      ["kind", undefined, "implicit"],
    ]);
  });

  it("without SourceCodeInfo: no docs, positions 1:1, the descriptor's order (messages before enums)", () => {
    const files = compile().map((f) => create(FileDescriptorProtoSchema, { ...f, sourceCodeInfo: undefined }));
    const doc = lowerDescriptors(files, "demo.proto");
    expect(doc.types.map((t) => t.id)).toEqual(["proto:.demo.Hello", "proto:.demo.Kind"]);
    expect(doc.types.every((t) => t.doc === undefined && t.origin.line === 1 && t.origin.column === 1)).toBe(true);
  });

  it("refuses a field naming a type the request does not define, at the field", () => {
    const files = compile();
    files[0]!.messageType[0]!.field[2]!.typeName = ".demo.Missing";
    expect(() => lowerDescriptors(files, "demo.proto")).toThrow(SpecError);
    expect(() => lowerDescriptors(files, "demo.proto")).toThrow('demo.proto:12:3: field .demo.Hello.kind names type ".demo.Missing", which the request does not define');
  });

  it("refuses an entry that is not in the request", () => {
    expect(() => lowerDescriptors(compile(), "other.proto")).toThrow(/import "other.proto" is not among the request's files/);
  });
});
