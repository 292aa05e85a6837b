/**
 * toText<T> against `protoc --decode` (protoc 3.21, the reference printer): the spinn3r payloads (specs/content.proto)
 * and rich test_messages_proto2/proto3 payloads (every scalar kind, awkward floats and strings, maps, groups,
 * extensions, oneofs, unknown fields of every wire type) print exactly as protoc prints them, and `protoc --encode`
 * of our text gives back the original bytes.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { emitProtobufCodecs } from "../../../src/emitters/protobuf/emit-codec.js";
import { emitProtoText } from "../../../src/emitters/prototext/emit-prototext.js";
import { CORPUS, generate, load, REPO } from "../protobuf/generate.js";
import { protocDecode } from "../protobuf/protoc.js";

/** protoc --encode with its warnings (content.proto's deprecated fields) kept out of the test output. */
function protocEncode(proto: string, includeDir: string, message: string, text: string): Uint8Array {
  const args = [`-I${includeDir}`, `--encode=${message}`, path.relative(includeDir, proto)];
  return new Uint8Array(execFileSync("protoc", args, { cwd: includeDir, input: text, stdio: ["pipe", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 }));
}

type Fns = Record<string, (...args: unknown[]) => unknown>;
const emitters = [emitProtobufCodecs, emitProtoText];

async function codecs(proto: string, includeDirs: string[]): Promise<{ pb: Fns; text: Fns }> {
  const g = generate(proto, { includeDirs, emitters });
  return { pb: await load<Fns>(g), text: await load<Fns>(g, "prototext.ts") };
}

const CONTENT = path.join(REPO, "specs/content.proto");
const SPECS = path.join(REPO, "specs");
const CORPUS_PROTO = path.join(CORPUS, "proto");
const PROTO3 = path.join(CORPUS_PROTO, "google/protobuf/test_messages_proto3.proto");
const PROTO2 = path.join(CORPUS_PROTO, "google/protobuf/test_messages_proto2.proto");
const T3 = "protobuf_test_messages.proto3.TestAllTypesProto3";
const T2 = "protobuf_test_messages.proto2.TestAllTypesProto2";

const RICH3 = `
optional_int32: -42 optional_int64: -9000000000000000000 optional_uint32: 4000000000 optional_uint64: 18000000000000000000
optional_sint32: -7 optional_sint64: -8 optional_fixed32: 9 optional_fixed64: 10 optional_sfixed32: -11 optional_sfixed64: -12
optional_float: 1.5 optional_double: -2.25 optional_bool: true optional_string: "h\\303\\251llo \\"q\\" 'a' \\\\ \\n\\t\\r\\001\\177"
optional_bytes: "\\000\\377abc"
optional_nested_message { a: 5 corecursive { optional_int32: 1 } } optional_nested_enum: NEG optional_aliased_enum: ALIAS_BAZ
repeated_int32: [-1, 2, -3] repeated_int64: [-5] repeated_string: ["a", ""] repeated_nested_enum: [FOO, BAZ]
repeated_double: [0.1, 1e21, 1e-7, 123456789012345680, 0.30000000000000004, 5e-324, 1.7976931348623157e308, -0, inf, -inf, nan, 100, 1e15, 1e16, 0.0001, 0.00001]
repeated_float: [0.1, 3.4028235e38, 1e-45, 1e-40, 1.17549435e-38, 16777217, 0.333333343, 1e6, 1e-5, -inf, nan]
unpacked_int32: [1, -2] unpacked_double: [0.5] packed_sint64: [-1, 1] packed_fixed32: [7, 8]
map_int32_int32 { key: 3 value: 4 } map_int32_int32 { key: -1 value: -2 } map_string_string { key: "k" value: "v" }
map_string_string { key: "B" value: "" } map_string_string { key: "a" value: "x" }
map_bool_bool { key: true value: false } map_bool_bool { key: false value: true } map_string_nested_message { key: "m" value { a: 1 } }
map_int64_int64 { key: -9000000000000000000 value: 1 } map_int64_int64 { key: 5 value: 2 }
map_string_foreign_enum { key: "e" value: FOREIGN_BAR }
oneof_string: "chosen"
optional_timestamp { seconds: 1700000000 nanos: 5000 }
optional_any { [type.googleapis.com/protobuf_test_messages.proto3.TestAllTypesProto3] { optional_int32: 5 optional_any { type_url: "x/unknown.Type" value: "\\001" } } }
optional_struct { fields { key: "x" value { list_value { values { number_value: 1 } values { null_value: NULL_VALUE } } } } }
`;

const RICH2 = `
optional_int32: 0 optional_string: "" optional_nested_enum: BAZ repeated_int32: [1, -1] packed_int32: [3, -3]
map_int32_int32 { key: 1 value: -1 } oneof_uint32: 0 default_int32: 0
Data { group_int32: 5 group_uint32: 6 }
[protobuf_test_messages.proto2.extension_int32]: 99
`;

/** Unknown fields of every wire type: varint, fixed64, a nested message, a non-message string, a group, fixed32. */
const UNKNOWN = new Uint8Array([
  0xc0, 0xb8, 0x02, 0x96, 0x01, // 5000: 150
  0xc9, 0xb8, 0x02, 1, 2, 3, 4, 5, 6, 7, 0x88, // 5001: fixed64
  0xd2, 0xb8, 0x02, 0x02, 0x08, 0x07, // 5002 { 1: 7 }
  0xda, 0xb8, 0x02, 0x03, 0x61, 0xff, 0x0a, // 5003: "a\377\n"
  0xe3, 0xb8, 0x02, 0x10, 0x01, 0xe4, 0xb8, 0x02, // 5004 { 2: 1 } (group)
  0xed, 0xb8, 0x02, 0xff, 0, 0, 0x80, // 5005: fixed32
]);

describe("toText agrees with protoc --decode", () => {
  let content: { pb: Fns; text: Fns };
  let p3: { pb: Fns; text: Fns };
  let p2: { pb: Fns; text: Fns };
  beforeAll(async () => {
    content = await codecs(CONTENT, [SPECS]);
    p3 = await codecs(PROTO3, [CORPUS_PROTO]);
    p2 = await codecs(PROTO2, [CORPUS_PROTO]);
  });

  it.each(["spinn3r_test2.protobuf", "spinn3r_test3.protobuf"])("%s prints as protoc prints it, and protoc reads it back to the same bytes", (file) => {
    const bytes = new Uint8Array(readFileSync(path.join(CORPUS, "data", file)));
    const ours = content.text.toTextResponse$!(content.pb.decodeResponse!(bytes)) as string;
    const theirs = protocDecode(CONTENT, SPECS, "contentApi.Response", bytes);
    expect(theirs.length).toBeGreaterThan(100_000);
    expect(ours).toBe(theirs);
    expect(Buffer.from(protocEncode(CONTENT, SPECS, "contentApi.Response", ours)).equals(Buffer.from(bytes))).toBe(true);
    // And fromText reads protoc's text back to the original message.
    expect(Buffer.from(content.pb.encodeResponse!(content.text.fromTextResponse$!(theirs)) as Uint8Array).equals(Buffer.from(bytes))).toBe(true);
  });

  it("proto3: every scalar kind, floats, escapes, maps, oneof, well-known types and unknown fields", () => {
    const bytes = new Uint8Array([...protocEncode(PROTO3, CORPUS_PROTO, T3, RICH3), ...UNKNOWN]);
    const ours = p3.text.toTextTestAllTypesProto3!(p3.pb.decodeTestAllTypesProto3!(bytes)) as string;
    expect(ours).toBe(protocDecode(PROTO3, CORPUS_PROTO, T3, bytes));
    expect(ours).toContain("5004 {");
    // protoc --decode prints an Any as type_url and value; expandAny prints the message inside, and both read back.
    const expanded = p3.text.toTextTestAllTypesProto3!(p3.pb.decodeTestAllTypesProto3!(bytes), { expandAny: true }) as string;
    expect(expanded).toContain("optional_any {\n  [type.googleapis.com/protobuf_test_messages.proto3.TestAllTypesProto3] {\n    optional_int32: 5\n");
    expect(expanded).toContain('    optional_any {\n      type_url: "x/unknown.Type"\n');
    // Unknown fields print by number, which the reader refuses (as protoc's does): read back without them.
    const known = p3.text.toTextTestAllTypesProto3!(p3.pb.decodeTestAllTypesProto3!(bytes), { expandAny: true, printUnknownFields: false }) as string;
    expect(known).not.toContain("\n5000: ");
    const { $unknown, ...decoded } = p3.pb.decodeTestAllTypesProto3!(bytes) as Record<string, unknown>;
    expect($unknown).toBeInstanceOf(Uint8Array);
    expect(p3.text.fromTextTestAllTypesProto3!(known)).toEqual(decoded);
  });

  it("proto2: explicit zero values, groups, extensions", () => {
    const bytes = protocEncode(PROTO2, CORPUS_PROTO, T2, RICH2);
    const ours = p2.text.toTextTestAllTypesProto2!(p2.pb.decodeTestAllTypesProto2!(bytes)) as string;
    expect(ours).toBe(protocDecode(PROTO2, CORPUS_PROTO, T2, bytes));
    expect(ours).toContain("Data {\n  group_int32: 5\n");
    expect(ours).toContain("[protobuf_test_messages.proto2.extension_int32]: 99\n");
    expect(Buffer.from(protocEncode(PROTO2, CORPUS_PROTO, T2, ours)).equals(Buffer.from(bytes))).toBe(true);
    expect(p2.text.fromTextTestAllTypesProto2!(RICH2)).toEqual(p2.pb.decodeTestAllTypesProto2!(bytes));
  });

  it("fromText reads what protoc --encode reads: lists, <> and {}, optional colons, comments, escapes, inf/nan", () => {
    const bytes = protocEncode(PROTO3, CORPUS_PROTO, T3, RICH3);
    expect(p3.text.fromTextTestAllTypesProto3!(RICH3)).toEqual(p3.pb.decodeTestAllTypesProto3!(bytes));
    const odd = `# a comment
optional_nested_message: < a: 0x10 > ; repeated_string: 'one' "two" , optional_bytes: "\\x41\\101\\u00e9\\U0001F600"
optional_float: -1.5f optional_double: -Infinity repeated_bool: [t, False, 1] optional_sint32: -0 # trailing
optional_nested_enum: 2 optional_uint64: 0777`;
    const want = protocEncode(PROTO3, CORPUS_PROTO, T3, odd);
    expect(p3.text.fromTextTestAllTypesProto3!(odd)).toEqual(p3.pb.decodeTestAllTypesProto3!(want));
  });

  it.each([
    ["optional_int32: 2147483648", "1:17: 2147483648 is out of range for int32"],
    ["optional_int32: 1\noptional_int32: 2", '2:1: non-repeated field "optional_int32" is given twice'],
    ["oneof_uint32: 1 oneof_string: \"x\"", '1:17: field "oneof_string" is a second member of its oneof'],
    ["no_such_field: 1", "1:1: unknown field no_such_field"],
    ["optional_nested_message { a: 1", '1:31: expected "}", got the end of the input'],
    ["optional_string: \"abc", "1:18: string literal not closed"],
    ["optional_int32 1", '1:16: expected ":" after optional_int32'],
    ["optional_nested_enum: NOPE", "1:23: unknown enum value NOPE"],
    ["optional_bool: yes", '1:16: expected true or false, got "yes"'],
  ])("refuses %s with line:column (%s)", (text, message) => {
    expect(() => p3.text.fromTextTestAllTypesProto3!(text.replace(/\\n/g, "\n").replace(/\\"/g, '"'))).toThrow(message);
  });

  it("proto3 implicit fields at their zero value print nothing", () => {
    const empty = p3.pb.decodeTestAllTypesProto3!(new Uint8Array());
    expect(p3.text.toTextTestAllTypesProto3!(empty)).toBe("");
  });
});
