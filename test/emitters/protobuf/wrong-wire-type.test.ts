/**
 * A known field number arriving with a wire type its declaration does not allow is kept as an unknown field, as
 * protoc and the C++ runtime keep it (issue 18, item 5): decoding succeeds, the field stays unset, and re-encoding
 * writes the very same bytes back. protoc is the reference: `--decode` shows those fields as numbered unknown
 * fields, and `--decode_raw` of our re-encoding equals `--decode_raw` of the input.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tag, varint } from "../../hostile/payloads.js";
import { CORPUS, generate, load } from "./generate.js";
import { protocDecode } from "./protoc.js";

type Codec = Record<string, (...args: unknown[]) => any>;

const PROTO_DIR = path.join(CORPUS, "proto");
const PROTO3 = path.join(PROTO_DIR, "google/protobuf/test_messages_proto3.proto");
const PROTO2 = path.join(PROTO_DIR, "google/protobuf/test_messages_proto2.proto");

const bytes = (...parts: number[][]): Uint8Array => new Uint8Array(parts.flat());
const ascii = (s: string): number[] => [...Buffer.from(s, "latin1")];
const len = (field: number, body: number[]): number[] => [...tag(field, 2), ...varint(body.length), ...body];

function protocDecodeRaw(input: Uint8Array): string {
  return execFileSync("protoc", ["--decode_raw"], { input }).toString("utf8");
}

let proto3: Codec;
let proto2: Codec;
beforeAll(async () => {
  proto3 = await load<Codec>(generate(PROTO3, { includeDirs: [PROTO_DIR] }));
  proto2 = await load<Codec>(generate(PROTO2, { includeDirs: [PROTO_DIR] }));
});

describe("a known field with the wrong wire type is an unknown field", () => {
  // Well-typed fields first (in number order), then the wrong ones, so that a faithful re-encoding (known fields in
  // number order, unknown fields after them in arrival order, as protoc writes them) is byte-identical.
  const wellTyped3 = [[...tag(1, 0), ...varint(150)], len(14, ascii("hi"))];
  /** name -> [field number, the field's bytes]. */
  const wrong3: Record<string, readonly [number, number[]]> = {
    "a message field as a varint": [18, [...tag(18, 0), 7]],
    "a repeated int32 as fixed32": [31, [...tag(31, 5), 1, 0, 0, 0]],
    "a map field as a varint": [56, [...tag(56, 0), 1]],
    "a oneof uint32 as length-delimited": [111, len(111, ascii("x"))],
    "an int32 as length-delimited (packed is only for repeated fields)": [1, len(1, ascii("z"))],
    "a string as fixed64": [14, [...tag(14, 1), 1, 2, 3, 4, 5, 6, 7, 8]],
    "an int32 as a group": [1, [...tag(1, 3), ...tag(2, 0), 5, ...tag(1, 4)]],
  };
  const wrongBytes = Object.values(wrong3).map(([, b]) => b);

  it("proto3: decodes, leaves the fields unset, and writes the same bytes back", () => {
    const input = bytes(...wellTyped3, ...wrongBytes);
    const m = proto3.decodeTestAllTypesProto3!(input);
    expect(m.optionalInt32).toBe(150);
    expect(m.optionalString).toBe("hi");
    expect(m.optionalNestedMessage).toBeUndefined();
    expect(m.repeatedInt32 ?? []).toEqual([]);
    expect(m.mapInt32Int32 ?? {}).toEqual({});
    expect(m.oneofField).toBeUndefined();
    expect([...m.$unknown]).toEqual(wrongBytes.flat());
    expect([...(proto3.encodeTestAllTypesProto3!(m) as Uint8Array)]).toEqual([...input]);
  });

  it.each(Object.entries(wrong3))("proto3, %s: protoc shows it as an unknown field, and so do our bytes", (_name, [fieldNumber, field]) => {
    const input = bytes(...wellTyped3, field);
    const reencoded = proto3.encodeTestAllTypesProto3!(proto3.decodeTestAllTypesProto3!(input)) as Uint8Array;
    const text = protocDecode(PROTO3, PROTO_DIR, "protobuf_test_messages.proto3.TestAllTypesProto3", input);
    // protoc keeps the well-typed fields and prints the wrong one by number (an unknown field), not by name.
    expect(text).toMatch(/^optional_int32: 150\noptional_string: "hi"\n/);
    expect(text).toMatch(new RegExp(`^${fieldNumber}[ :{]`, "m"));
    expect(protocDecodeRaw(reencoded)).toBe(protocDecodeRaw(input));
    expect([...reencoded]).toEqual([...input]);
  });

  it("proto2: a group and a closed enum with the wrong wire type, among well-typed fields", () => {
    const wellTyped = [[...tag(1, 0), 3], [...tag(21, 0), 1], [...tag(201, 3), ...tag(202, 0), 9, ...tag(201, 4)]];
    const wrong = [
      len(201, [...tag(202, 0), 9]), // the group `data` as a length-delimited field
      len(21, [1]), // the closed enum optional_nested_enum as length-delimited
      [...tag(22, 5), 1, 0, 0, 0], // optional_foreign_enum as fixed32
    ];
    const input = bytes(...wellTyped, ...wrong);
    const m = proto2.decodeTestAllTypesProto2!(input);
    expect(m.optionalInt32).toBe(3);
    expect(m.optionalNestedEnum).toBe("BAR");
    expect(m.data).toEqual({ groupInt32: 9 });
    expect(m.optionalForeignEnum).toBeUndefined();
    expect([...m.$unknown]).toEqual(wrong.flat());
    const reencoded = proto2.encodeTestAllTypesProto2!(m) as Uint8Array;
    expect([...reencoded]).toEqual([...input]);
    expect(protocDecodeRaw(reencoded)).toBe(protocDecodeRaw(input));
    const text = protocDecode(PROTO2, PROTO_DIR, "protobuf_test_messages.proto2.TestAllTypesProto2", input);
    expect(text).toContain("optional_nested_enum: BAR\n");
    expect(text).toMatch(/^201 \{\n  202: 9\n\}$/m);
    expect(text).toMatch(/^21: "/m);
    expect(text).toMatch(/^22: 0x00000001$/m);
  });

  it("in a map entry, a key or value with the wrong wire type is skipped and the entry keeps its zero", () => {
    // map_int32_int32 (56) entry { key: 7 (varint), value as fixed32 } -> {7: 0}, the entry protoc reads too.
    // (protoc also keeps the stray bytes inside the entry message; a map of plain values has nowhere to keep them.)
    const input = bytes(len(56, [...tag(1, 0), 7, ...tag(2, 5), 1, 0, 0, 0]));
    const m = proto3.decodeTestAllTypesProto3!(input);
    expect(m.mapInt32Int32).toEqual({ 7: 0 });
    expect(m.$unknown).toBeUndefined();
    const text = protocDecode(PROTO3, PROTO_DIR, "protobuf_test_messages.proto3.TestAllTypesProto3", input);
    expect(text).toBe("map_int32_int32 {\n  key: 7\n  value: 0\n  2: 0x00000001\n}\n");
  });
});
