/**
 * A real compiler as the .proto front end's oracle (issue 18, item 2). For every .proto in the shared corpus, the
 * IR that parseProto lowers (and the codec plan the protobuf emitters derive from it) is compared with the
 * FileDescriptorSet that `buf build` produces: every message, field number, type, label, presence, packed-ness,
 * default, json_name, oneof, UTF-8 validation, enum and value, extension (extendee), service and method, extension
 * and reserved ranges, and deprecation. One buf invocation builds the whole corpus.
 *
 * A difference is a bug to fix in src/parsers/proto, or is listed in KNOWN_DIFFERENCES with the reason; the list is
 * enforced exactly, so a fixed difference must be removed from it.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { FileRegistry } from "@bufbuild/protobuf";
import { beforeAll, describe, expect, it } from "vitest";
import { nodeSpecHost } from "../../../src/parsers/host.js";
import { parseProto } from "../../../src/parsers/proto/index.js";
import { SHARED } from "../../helpers/seeds.js";
import { bufBuild, protocBuild } from "./oracle/compilers.js";
import { descriptorFacts } from "./oracle/facts-descriptor.js";
import { irFacts } from "./oracle/facts-ir.js";
import { diffFacts, type Facts } from "./oracle/facts.js";

const CORPUS = path.join(SHARED, "corpus/proto");
const EDITIONS = path.join(SHARED, "corpus/proto-editions");
const present = existsSync(CORPUS);

/**
 * Files buf refuses, with its reason; they are compared with Debian's protoc (3.21) instead, which compiles them.
 * A test below checks that buf still refuses each one, so the list cannot go stale.
 */
const BUF_REFUSES: Readonly<Record<string, string>> = {
  // buf does not implement message-set extensions inside option values (protoc does; the file is upstream's own
  // test of exactly that).
  "google/protobuf/unittest_custom_options.proto": "may not be used in an option: it uses 'message set wire format'",
};

/** Accepted differences between our IR and the compiler's descriptors, by file: none today. */
const KNOWN_DIFFERENCES: Readonly<Record<string, readonly string[]>> = {};

function protoFiles(root: string, dir = root): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = path.join(dir, name);
      return statSync(p).isDirectory() ? protoFiles(root, p) : name.endsWith(".proto") ? [path.relative(root, p).split(path.sep).join("/")] : [];
    });
}

/** Our facts for one corpus file, parsed as the entry with the given import roots. */
function ourFacts(root: string, rel: string, includeDirs: readonly string[]): Facts {
  const doc = parseProto(path.join(root, rel), nodeSpecHost({ includeDirs }));
  return irFacts(doc, path.basename(rel));
}

function compilerFacts(registry: FileRegistry, rel: string): Facts {
  const file = registry.getFile(rel);
  if (!file) throw new Error(`the compiler's descriptor set has no ${rel}`);
  return descriptorFacts(file);
}

describe.skipIf(!present)("the .proto front end agrees with buf (and protoc) on the corpus", () => {
  const files = present ? protoFiles(CORPUS) : [];
  let buf: FileRegistry;
  beforeAll(() => {
    buf = bufBuild(CORPUS, Object.keys(BUF_REFUSES));
  });

  it("covers the whole corpus", () => {
    expect(files.length).toBeGreaterThan(25);
    for (const rel of files) if (!Object.hasOwn(BUF_REFUSES, rel)) expect(buf.getFile(rel), rel).toBeDefined();
  });

  it("buf still refuses the files it is excused from", () => {
    let message = "";
    try {
      bufBuild(CORPUS);
    } catch (e) {
      message = (e as Error).message;
    }
    for (const [rel, reason] of Object.entries(BUF_REFUSES)) expect(message).toContain(`${rel}:`), expect(message).toContain(reason);
  });

  it.each(files)("%s: every declaration matches the compiler's descriptor", (rel) => {
    const reference = Object.hasOwn(BUF_REFUSES, rel) ? protocBuild(CORPUS, rel) : buf;
    const ours = ourFacts(CORPUS, rel, [CORPUS]);
    const theirs = compilerFacts(reference, rel);
    expect(diffFacts(ours, theirs, Object.hasOwn(BUF_REFUSES, rel) ? "protoc" : "buf")).toEqual(KNOWN_DIFFERENCES[rel] ?? []);
  });

  it("compares what it claims to: a sample of facts from both sides", () => {
    const p3 = compilerFacts(buf, "google/protobuf/test_messages_proto3.proto");
    const ours3 = ourFacts(CORPUS, "google/protobuf/test_messages_proto3.proto", [CORPUS]);
    const p2 = ourFacts(CORPUS, "google/protobuf/test_messages_proto2.proto", [CORPUS]);
    const m3 = "field .protobuf_test_messages.proto3.TestAllTypesProto3";
    const m2 = "field .protobuf_test_messages.proto2.TestAllTypesProto2";
    for (const facts of [p3, ours3]) {
      expect(facts.get(`${m3}.repeated_int32 packed`)).toBe("true");
      expect(facts.get(`${m3}.unpacked_int32 packed`)).toBe("false");
      expect(facts.get(`${m3}.optional_int32 presence`)).toBe("implicit");
      expect(facts.get(`${m3}.optional_string utf8-verified`)).toBe("true");
      expect(facts.get(`${m3}._field_name3 json`)).toBe("FieldName3");
      expect(facts.get(`${m3}.oneof_uint32 oneof`)).toBe("oneof_field");
      expect(facts.get(`${m3}.map_int32_int32 type`)).toBe("map<int32, int32>");
    }
    expect(ourFacts(CORPUS, "google/protobuf/unittest.proto", [CORPUS]).get("field .protobuf_unittest.TestJsonName.field_name6 json")).toBe("@type");
    expect(p2.get(`${m2}.default_int64 default`)).toBe("-9123456789123456789");
    expect(p2.get(`${m2}.data type`)).toBe("group .protobuf_test_messages.proto2.TestAllTypesProto2.Data");
    expect(p2.get(`${m2}.optional_string utf8-verified`)).toBe("false");
    expect(p2.get("message .protobuf_test_messages.proto2.TestAllTypesProto2.MessageSetCorrect extension-ranges")).toBe("4-2147483646");
  });
});

/**
 * proto-editions/: the proto2/proto3 files and the `edition = "2023"` files, whose presence, packing, closedness,
 * group (DELIMITED) encoding and UTF-8 checks come from resolved features.
 */
describe.skipIf(!existsSync(EDITIONS))("proto-editions/ against buf", () => {
  const files = existsSync(EDITIONS) ? protoFiles(EDITIONS) : [];
  let buf: FileRegistry;
  beforeAll(() => {
    buf = bufBuild(EDITIONS);
  });

  it.each(files)("%s", (rel) => {
    // Well-known types come from the proto corpus (buf has its own copies of them built in).
    const ours = ourFacts(EDITIONS, rel, [EDITIONS, CORPUS]);
    expect(diffFacts(ours, compilerFacts(buf, rel), "buf")).toEqual(KNOWN_DIFFERENCES[`proto-editions/${rel}`] ?? []);
  });

  it("compares what it claims to: resolved features on both sides", () => {
    const p2 = "editions/golden/test_messages_proto2_editions.proto";
    const m2 = "field .protobuf_test_messages.editions.proto2.TestAllTypesProto2";
    const r2 = "field .protobuf_test_messages.editions.proto2.TestAllRequiredTypesProto2";
    const e23 = "conformance/test_protos/test_messages_edition2023.proto";
    const m23 = "field .protobuf_test_messages.editions.TestAllTypesEdition2023";
    for (const [p2Facts, e23Facts] of [
      [compilerFacts(buf, p2), compilerFacts(buf, e23)],
      [ourFacts(EDITIONS, p2, [EDITIONS, CORPUS]), ourFacts(EDITIONS, e23, [EDITIONS, CORPUS])],
    ] as const) {
      expect(p2Facts.get(`${m2}.repeated_int32 packed`)).toBe("false");
      expect(p2Facts.get(`${m2}.packed_int32 packed`)).toBe("true");
      expect(p2Facts.get(`${m2}.optional_string utf8-verified`)).toBe("false");
      expect(p2Facts.get(`${m2}.optional_int32 presence`)).toBe("explicit");
      expect(p2Facts.get(`${m2}.data type`)).toBe("group .protobuf_test_messages.editions.proto2.TestAllTypesProto2.Data");
      expect(p2Facts.get(`${r2}.required_int32 label`)).toBe("required");
      expect(p2Facts.get("enum .protobuf_test_messages.editions.proto2.ForeignEnumProto2 closed")).toBe("true");
      expect(e23Facts.get(`${m23}.delimited_field type`)).toBe("group .protobuf_test_messages.editions.TestAllTypesEdition2023.GroupLikeType");
      expect(e23Facts.get(`${m23}.optional_string utf8-verified`)).toBe("true");
    }
  });
});
