/**
 * Every .proto in the shared corpus (<repo>/../shared/corpus/proto) must parse and lower. A few facts are checked
 * against counts taken from the sources; buf-oracle.test.ts compares every declaration with buf's descriptors.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { IrDocument } from "../../../src/ir/model.js";
import { nodeSpecHost } from "../../../src/parsers/host.js";
import { parseProto } from "../../../src/parsers/proto/index.js";
import { field, fields, record } from "./helpers.js";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const corpus = path.resolve(repo, "../shared/corpus/proto");
const present = existsSync(corpus);

function protoFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = path.join(dir, name);
      return statSync(p).isDirectory() ? protoFiles(p) : name.endsWith(".proto") ? [p] : [];
    });
}

const parseCorpus = (rel: string): IrDocument => parseProto(path.join(corpus, rel), nodeSpecHost({ includeDirs: [corpus] }));

/**
 * Known gaps (deliberate differences from protoc, none of which stop a corpus file from parsing):
 *  - `edition = "2023"` files are rejected with "editions are not supported yet" (no corpus file uses editions).
 *  - Float defaults are kept as written ("9e9"), where protoc re-formats them ("9e+09"); integer defaults are
 *    normalised to decimal like protoc does.
 *  - bytes defaults are unescaped to one char per byte, where protoc keeps them C-escaped.
 *  - Option names are not resolved against their extension declarations (custom options are kept by name as
 *    written), and aggregate option values are kept as source text, not validated.
 *  - Comment lines lose trailing whitespace; a group's leading comment is attached to both the group type and its
 *    field (protoc attaches it to the type only).
 */
describe.skipIf(!present)(`proto corpus at ${corpus}`, () => {
  const files = present ? protoFiles(corpus).map((p) => path.relative(corpus, p).split(path.sep).join("/")) : [];

  it("has files", () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it.each(files)("parses %s", (rel) => {
    const doc = parseCorpus(rel);
    expect(doc.format).toBe("proto");
    expect(doc.files[0]).toBe(path.basename(rel));
    // Every reference points at a type that is in the document.
    const ids = new Set(doc.types.map((t) => t.id));
    const refs: string[] = [];
    const walk = (t: unknown): void => {
      if (Array.isArray(t)) t.forEach(walk);
      else if (t && typeof t === "object") {
        const o = t as Record<string, unknown>;
        if (o.kind === "ref" && typeof o.id === "string") refs.push(o.id);
        Object.values(o).forEach(walk);
      }
    };
    walk(doc.types);
    walk(doc.extensions);
    for (const r of refs) expect(ids).toContain(r);
  });

  it("test_messages_proto2: TestAllTypesProto2 has all 137 fields, groups and extensions", () => {
    const doc = parseCorpus("google/protobuf/test_messages_proto2.proto");
    expect(doc.info.syntax).toBe("proto2");
    const m = record(doc, "proto:.protobuf_test_messages.proto2.TestAllTypesProto2");
    expect(fields(m)).toHaveLength(137);
    expect(m.extensionRanges).toEqual([{ from: 120, to: 200 }]);
    expect(record(doc, "proto:.protobuf_test_messages.proto2.TestAllTypesProto2.Data")).toMatchObject({ protoGroup: true });
    expect(field(doc, "proto:.protobuf_test_messages.proto2.TestAllTypesProto2", "data").wire.proto).toMatchObject({ number: 201, group: true });
    expect(field(doc, "proto:.protobuf_test_messages.proto2.TestAllTypesProto2", "default_int64").wire.proto?.default).toBe("-9123456789123456789");
    expect(doc.extensions.length).toBeGreaterThan(0);
  });

  it("test_messages_proto3: well-known type imports and packed defaults", () => {
    const doc = parseCorpus("google/protobuf/test_messages_proto3.proto");
    expect(doc.files).toContain("any.proto");
    const id = "proto:.protobuf_test_messages.proto3.TestAllTypesProto3";
    expect(field(doc, id, "optional_any").type).toEqual({ kind: "ref", id: "proto:.google.protobuf.Any" });
    expect(field(doc, id, "packed_int32").wire.proto?.packed).toBe(true);
    expect(field(doc, id, "unpacked_int32").wire.proto?.packed).toBe(false);
    expect(field(doc, id, "repeated_int32").wire.proto?.packed).toBe(true);
    expect(field(doc, id, "optional_int32")).toMatchObject({ occurs: { min: 1, max: 1 }, wire: { proto: { label: "implicit" } } });
  });

  it("unittest.proto: extensions, groups and the public import", () => {
    const doc = parseCorpus("google/protobuf/unittest.proto");
    expect(doc.files).toEqual(["unittest.proto", "unittest_import.proto", "unittest_import_public.proto"]);
    const own = doc.extensions.filter((e) => e.origin.file === "unittest.proto");
    // 109 top-level extensions plus 16 declared inside messages.
    expect(own.length).toBe(125);
    expect(own.filter((e) => e.fullName.split(".").length === 2)).toHaveLength(109);
    expect(own[0]).toMatchObject({ fullName: "protobuf_unittest.optional_int32_extension", extendee: "proto:.protobuf_unittest.TestAllExtensions" });
    // Resolved through `import public` in unittest_import.proto.
    expect(field(doc, "proto:.protobuf_unittest.TestAllTypes", "optional_public_import_message").type).toEqual({
      kind: "ref",
      id: "proto:.protobuf_unittest_import.PublicImportMessage",
    });
  });

  it("map_unittest.proto: map fields", () => {
    const doc = parseCorpus("google/protobuf/map_unittest.proto");
    const m = record(doc, "proto:.protobuf_unittest.TestMap");
    expect(fields(m)).toHaveLength(19);
    expect(fields(m).every((f) => f.type.kind === "map")).toBe(true);
    expect(field(doc, "proto:.protobuf_unittest.TestMap", "map_int32_enum").type).toEqual({
      kind: "map",
      key: { kind: "scalar", scalar: "int32" },
      value: { kind: "ref", id: "proto:.protobuf_unittest.MapEnum" },
    });
  });

  it("unittest_custom_options.proto: custom options kept by name", () => {
    const doc = parseCorpus("google/protobuf/unittest_custom_options.proto");
    expect(field(doc, "proto:.protobuf_unittest.TestMessageWithCustomOptions", "field1").wire.proto?.options).toEqual({
      ctype: "CORD",
      "(field_opt1)": 8765432109,
    });
    expect(doc.extensions.some((e) => e.extendee === "proto:.google.protobuf.FieldOptions")).toBe(true);
  });

  it("services: grpc health streaming", () => {
    const doc = parseCorpus("grpc/health/v1/health.proto");
    expect(doc.services).toMatchObject([
      {
        fullName: "grpc.health.v1.Health",
        methods: [
          { name: "Check", clientStreaming: false, serverStreaming: false },
          { name: "List", clientStreaming: false, serverStreaming: false },
          { name: "Watch", clientStreaming: false, serverStreaming: true },
        ],
      },
    ]);
  });
});
