/**
 * Wire features against protoc: every field type of test_messages_proto2/3 from protoc's text format, extensions
 * (unittest.proto), unknown fields and closed-enum values kept byte for byte, int64 as strings, map key safety.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { CORPUS, generate, load } from "./generate.js";
import { protocDecode, protocEncode } from "./protoc.js";

const PROTO_DIR = path.join(CORPUS, "proto");
type Module = Record<string, (...args: unknown[]) => unknown>;

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

describe("test_messages_proto2 against protoc", () => {
  const proto = path.join(PROTO_DIR, "google/protobuf/test_messages_proto2.proto");
  let m: Module;
  beforeAll(async () => {
    m = await load<Module>(generate(proto, { includeDirs: [PROTO_DIR] }));
  });
  const text = `
    optional_int32: -5 optional_int64: -9123456789123456789 optional_uint32: 4294967295 optional_uint64: 18446744073709551615
    optional_sint32: -2147483648 optional_sint64: -1 optional_fixed32: 7 optional_fixed64: 9007199254740993
    optional_sfixed32: -7 optional_sfixed64: -9007199254740993 optional_float: 1.5 optional_double: -0.0
    optional_bool: true optional_string: "h\\303\\251" optional_bytes: "\\000\\001\\377"
    optional_nested_message { a: 3 } optional_nested_enum: NEG optional_foreign_enum: FOREIGN_BAZ
    repeated_int32: [1, -1, 300] repeated_string: ["a", ""] repeated_nested_enum: [FOO, BAR]
    packed_int32: [1, 2, -3] packed_double: [0.5, -1e300] unpacked_int32: [4, 5]
    map_int32_int32 { key: 1 value: -1 } map_string_string { key: "__proto__" value: "v" }
    map_bool_bool { key: true value: false } map_int64_int64 { key: -5 value: 6 }
    map_string_nested_message { key: "k" value { a: 9 } }
    oneof_uint32: 17
    Data { group_int32: 42 group_uint32: 43 }
    default_int32: 1
    [protobuf_test_messages.proto2.extension_int32]: 77
  `;

  it("decodes protoc's encoding to the expected values and re-encodes it byte for byte", () => {
    const bytes = protocEncode(proto, PROTO_DIR, "protobuf_test_messages.proto2.TestAllTypesProto2", text);
    const msg = m.decodeTestAllTypesProto2!(bytes) as Record<string, unknown>;
    expect(msg).toMatchObject({
      optionalInt32: -5,
      optionalInt64: -9123456789123456789n,
      optionalUint32: 4294967295,
      optionalUint64: 18446744073709551615n,
      optionalSint32: -2147483648,
      optionalSint64: -1n,
      optionalFixed64: 9007199254740993n,
      optionalSfixed64: -9007199254740993n,
      optionalFloat: 1.5,
      optionalBool: true,
      optionalString: "hé",
      optionalBytes: new Uint8Array([0, 1, 255]),
      optionalNestedMessage: { a: 3 },
      optionalNestedEnum: "NEG",
      optionalForeignEnum: "FOREIGN_BAZ",
      repeatedInt32: [1, -1, 300],
      repeatedString: ["a", ""],
      repeatedNestedEnum: ["FOO", "BAR"],
      packedInt32: [1, 2, -3],
      packedDouble: [0.5, -1e300],
      unpackedInt32: [4, 5],
      mapInt32Int32: { 1: -1 },
      mapBoolBool: { true: false },
      mapInt64Int64: { "-5": 6n },
      mapStringNestedMessage: { k: { a: 9 } },
      oneofField: { case: "oneofUint32", value: 17 },
      data: { groupInt32: 42, groupUint32: 43 },
      defaultInt32: 1,
      $extensions: { "protobuf_test_messages.proto2.extension_int32": 77 },
    });
    expect(Object.is(msg.optionalDouble, -0)).toBe(true);
    // "__proto__" is an ordinary key of the map, not the object's prototype.
    const map = msg.mapStringString as Record<string, string>;
    expect(Object.getOwnPropertyDescriptor(map, "__proto__")?.value).toBe("v");
    expect(Object.getPrototypeOf(map)).toBe(Object.prototype);
    expect(same(m.encodeTestAllTypesProto2!(msg) as Uint8Array, bytes)).toBe(true);
  });

  it("keeps absent proto2 fields absent and exports declared defaults", () => {
    const msg = m.decodeTestAllTypesProto2!(new Uint8Array(0)) as Record<string, unknown>;
    expect(msg).toEqual({});
    const defaults = m.TestAllTypesProto2Defaults as unknown as Record<string, unknown>;
    expect(defaults).toMatchObject({ defaultInt32: -123456789, defaultInt64: -9123456789123456789n, defaultString: "Rosebud", defaultBytes: new Uint8Array([106, 111, 115, 104, 117, 97]) });
  });
});

describe("test_messages_proto3 against protoc", () => {
  const proto = path.join(PROTO_DIR, "google/protobuf/test_messages_proto3.proto");

  it("implicit fields: zero values are present after decoding and not written", async () => {
    const m = await load<Module>(generate(proto, { includeDirs: [PROTO_DIR] }));
    const empty = m.decodeTestAllTypesProto3!(new Uint8Array(0)) as Record<string, unknown>;
    expect(empty).toMatchObject({ optionalInt32: 0, optionalInt64: 0n, optionalString: "", optionalBool: false, optionalNestedEnum: "FOO" });
    expect(empty.optionalNestedMessage).toBeUndefined();
    expect((m.encodeTestAllTypesProto3!(empty) as Uint8Array).length).toBe(0);
  });

  it("open enums keep unknown numbers; packed by default; int64 as strings", async () => {
    const m = await load<Module>(generate(proto, { includeDirs: [PROTO_DIR], int64: "string" }));
    const text = "optional_int64: -9223372036854775808 optional_nested_enum: 77 repeated_int32: [1, 2] repeated_nested_enum: [BAR, 99] optional_string: \"\\360\\237\\230\\200\" map_int64_int64 { key: 1 value: 2 }";
    const bytes = protocEncode(proto, PROTO_DIR, "protobuf_test_messages.proto3.TestAllTypesProto3", text);
    const msg = m.decodeTestAllTypesProto3!(bytes) as Record<string, unknown>;
    expect(msg).toMatchObject({ optionalInt64: "-9223372036854775808", optionalNestedEnum: 77, repeatedInt32: [1, 2], repeatedNestedEnum: ["BAR", 99], optionalString: "😀", mapInt64Int64: { 1: "2" } });
    expect(same(m.encodeTestAllTypesProto3!(msg) as Uint8Array, bytes)).toBe(true);
  });

  it("proto3 strings must be valid UTF-8", async () => {
    const m = await load<Module>(generate(proto, { includeDirs: [PROTO_DIR] }));
    // optional_string = 14: tag 114, length 1, byte 0xff
    expect(() => m.decodeTestAllTypesProto3!(new Uint8Array([114, 1, 0xff]))).toThrow(/TestAllTypesProto3\.optionalString: invalid UTF-8/);
  });
});

describe("extensions (unittest.proto)", () => {
  it("declared extensions are read into $extensions and written back in number order", async () => {
    const proto = path.join(PROTO_DIR, "google/protobuf/unittest.proto");
    const m = await load<Module>(generate(proto, { includeDirs: [PROTO_DIR] }));
    const text = `
      [protobuf_unittest.optional_int32_extension]: 101
      [protobuf_unittest.optional_string_extension]: "ext"
      [protobuf_unittest.optional_nested_message_extension] { bb: 5 }
      [protobuf_unittest.optionalgroup_extension] { a: 17 }
      [protobuf_unittest.repeated_int64_extension]: [3, -4]
      [protobuf_unittest.optional_nested_enum_extension]: BAZ`;
    const bytes = protocEncode(proto, PROTO_DIR, "protobuf_unittest.TestAllExtensions", text);
    const pkg = protocEncode(proto, PROTO_DIR, "protobuf_unittest.TestPackedExtensions", "[protobuf_unittest.packed_int32_extension]: [1, 2]");
    const msg = m.decodeTestAllExtensions!(bytes) as { $extensions?: Record<string, unknown>; $unknown?: Uint8Array };
    expect(msg.$extensions).toEqual({
      "protobuf_unittest.optional_int32_extension": 101,
      "protobuf_unittest.optional_string_extension": "ext",
      "protobuf_unittest.optional_nested_message_extension": { bb: 5 },
      "protobuf_unittest.optionalgroup_extension": { a: 17 },
      "protobuf_unittest.repeated_int64_extension": [3n, -4n],
      "protobuf_unittest.optional_nested_enum_extension": "BAZ",
    });
    expect(msg.$unknown).toBeUndefined();
    expect(same(m.encodeTestAllExtensions!(msg) as Uint8Array, bytes)).toBe(true);
    const packed = m.decodeTestPackedExtensions!(pkg) as { $extensions?: Record<string, unknown> };
    expect(packed.$extensions).toEqual({ "protobuf_unittest.packed_int32_extension": [1, 2] });
    expect(same(m.encodeTestPackedExtensions!(packed) as Uint8Array, pkg)).toBe(true);
  });
});

describe("unknown fields and closed enums", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "specforge-pb-unknown-"));
  const proto = path.join(dir, "evolve.proto");
  writeFileSync(
    proto,
    `syntax = "proto2";
package evolve;
enum Color { RED = 1; GREEN = 2; }
message Old { optional int32 a = 1; optional Color color = 5; repeated Color colors = 6 [packed = true]; }
message New {
  optional int32 a = 1; optional string b = 2; repeated fixed64 c = 3 [packed = true];
  optional group G = 4 { optional int32 x = 1; optional group H = 2 { optional string y = 1; } }
  optional int32 color = 5; repeated int32 colors = 6 [packed = true]; optional float f = 1000;
}
message Node { optional Node child = 1; optional int32 v = 2; }
`,
  );
  let m: Module;
  beforeAll(async () => {
    m = await load<Module>(generate(proto));
  });

  it("fields an older schema does not know survive decode -> encode byte for byte", () => {
    const bytes = protocEncode(proto, dir, "evolve.New", 'a: 1 b: "two" c: [3, 4] G { x: 5 H { y: "six" } } color: 2 f: 7.5');
    const old = m.decodeOld!(bytes) as { a?: number; color?: string; $unknown?: Uint8Array };
    expect(old.a).toBe(1);
    expect(old.color).toBe("GREEN");
    expect(old.$unknown).toBeInstanceOf(Uint8Array);
    // Unknown fields go after the known ones: here protoc wrote them in number order around color (5).
    const reordered = protocEncode(proto, dir, "evolve.New", 'a: 1 color: 2 b: "two" c: [3, 4] G { x: 5 H { y: "six" } } f: 7.5');
    expect(same(m.encodeOld!(old) as Uint8Array, reordered)).toBe(false);
    const text = protocDecode(proto, dir, "evolve.New", m.encodeOld!(old) as Uint8Array);
    expect(text).toBe(protocDecode(proto, dir, "evolve.New", bytes));
  });

  it("a closed enum number the schema does not list is kept as an unknown field", () => {
    const bytes = protocEncode(proto, dir, "evolve.New", "a: 1 color: 9");
    const old = m.decodeOld!(bytes) as Record<string, unknown>;
    expect(old.color).toBeUndefined();
    expect([...(old.$unknown as Uint8Array)]).toEqual([0x28, 9]);
    expect(same(m.encodeOld!(old) as Uint8Array, bytes)).toBe(true);
    const packed = protocEncode(proto, dir, "evolve.New", "colors: [1, 7, 2]");
    const p = m.decodeOld!(packed) as Record<string, unknown>;
    expect(p.colors).toEqual(["RED", "GREEN"]);
    expect(protocDecode(proto, dir, "evolve.New", p.$unknown as Uint8Array).trim()).toBe("colors: 7");
  });

  it("nesting beyond the limit fails instead of overflowing the stack", () => {
    let bytes = new Uint8Array([0x10, 0x01]);
    for (let i = 0; i < 150; i++) bytes = new Uint8Array([0x0a, ...varint(bytes.length), ...bytes]);
    expect(() => m.decodeNode!(bytes)).toThrow(/nesting deeper than 100/);
    expect(() => m.decodeNode!(bytes, { maxDepth: 200 })).not.toThrow();
  });
});

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}
