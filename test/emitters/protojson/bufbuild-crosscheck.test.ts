import { createFileRegistry, fromBinary, fromJson, toBinary, toJson, type DescMessage, type JsonValue } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ProtoJsonError } from "../../../src/runtime/index.js";
import { CORPUS_PROTO, descriptorSet, importGenerated } from "./generate.js";

/**
 * Our generated ProtoJSON against @bufbuild/protobuf's reflection-based implementation, on the conformance suite's
 * TestAllTypesProto3 (every scalar, enums with aliases, maps, oneof, and all the well-known types).
 * For each JSON input: both read it; our output must equal theirs, and must read back to the same message in theirs.
 */
const SPEC = path.join(CORPUS_PROTO, "google/protobuf/test_messages_proto3.proto");
const TYPE = "protobuf_test_messages.proto3.TestAllTypesProto3";

let gen: Record<string, any>;
let desc: DescMessage;
let registry: ReturnType<typeof createFileRegistry>;

beforeAll(async () => {
  gen = await importGenerated(SPEC);
  registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, descriptorSet(SPEC)));
  desc = registry.getMessage(TYPE)!;
});

const theirs = (json: JsonValue, opts: { alwaysEmitImplicit?: boolean; useProtoFieldName?: boolean } = {}) =>
  toJson(desc, fromJson(desc, json, { registry }), { registry, ...opts });
const ours = (json: JsonValue, opts: Record<string, unknown> = {}) =>
  gen.toJsonTestAllTypesProto3(gen.fromJsonTestAllTypesProto3(json), opts);

const VALID: Record<string, JsonValue> = {
  "32-bit integers": { optionalInt32: -2147483648, optionalUint32: 4294967295, optionalSint32: -1, optionalFixed32: "7", optionalSfixed32: 1e5 },
  "64-bit integers": {
    optionalInt64: "-9223372036854775808", optionalUint64: "18446744073709551615", optionalSint64: -5,
    optionalFixed64: "1", optionalSfixed64: "9223372036854775807",
  },
  "bool, string, bytes": { optionalBool: true, optionalString: "h\u00e9llo \ud83d\ude00", optionalBytes: "AAEC/w==" },
  "url-safe unpadded bytes": { optionalBytes: "-_8", repeatedBytes: ["", "YQ", "YWI="] },
  "special doubles": { optionalDouble: "NaN", repeatedDouble: ["Infinity", "-Infinity", 1.5, -0.25] },
  "enums by name, number and alias": {
    optionalNestedEnum: "NEG", optionalForeignEnum: 2, optionalAliasedEnum: "moo", repeatedNestedEnum: ["FOO", 1, 99],
  },
  "proto names as keys": { optional_int32: 3, repeated_string: ["a"], optional_nested_message: { a: 1 } },
  "nested and recursive messages": {
    optionalNestedMessage: { a: 7, corecursive: { optionalInt32: 1, recursiveMessage: { optionalString: "deep" } } },
    repeatedForeignMessage: [{ c: 1 }, {}],
  },
  "maps of every key type": {
    mapInt32Int32: { "-1": 1, "2": -2 }, mapInt64Int64: { "-9223372036854775808": "5" }, mapUint32Uint32: { "4294967295": 0 },
    mapUint64Uint64: { "18446744073709551615": "1" }, mapSint64Sint64: { "3": "-3" }, mapBoolBool: { true: false, false: true },
    mapStringString: { "": "empty key", "__proto__": "not a prototype" }, mapStringBytes: { b: "AQI=" },
    mapStringNestedMessage: { x: { a: 1 } }, mapStringForeignEnum: { e: "FOREIGN_BAR" }, mapInt32Double: { "1": "NaN" },
  },
  "oneof with a null sibling": { oneofUint32: null, oneofNestedMessage: { a: 2 } },
  "oneof set to its default": { oneofString: "" },
  "oneof null value": { oneofNullValue: null },
  "null means unset": { optionalInt32: null, optionalNestedMessage: null, repeatedInt32: null, mapStringString: null },
  wrappers: {
    optionalBoolWrapper: false, optionalInt32Wrapper: 0, optionalInt64Wrapper: "-1", optionalUint32Wrapper: 4,
    optionalUint64Wrapper: "18446744073709551615", optionalDoubleWrapper: "Infinity", optionalStringWrapper: "",
    optionalBytesWrapper: "AA==", repeatedInt64Wrapper: ["1", 2], repeatedStringWrapper: ["x"],
  },
  timestamps: {
    optionalTimestamp: "0001-01-01T00:00:00Z",
    repeatedTimestamp: ["9999-12-31T23:59:59.999999999Z", "1970-01-01T00:00:00.1+01:30", "2024-02-29T12:00:00.000123-08:00"],
  },
  durations: { optionalDuration: "-315576000000.999999999s", repeatedDuration: ["0s", "1.5s", "-0.000000001s", "315576000000s"] },
  "field masks": { optionalFieldMask: "fooBar,baz.quxQuux,a", repeatedFieldmask: ["", "x"] },
  "struct, value, list value": {
    optionalStruct: { a: 1, b: [true, null, "s", { c: {} }], "": -2.5 },
    optionalValue: { nested: [1, [2, [3]]] },
    repeatedValue: [null, 0, "", false, [], {}],
    repeatedListValue: [[1, "a"], []],
    repeatedStruct: [{}, { k: null }],
  },
  "value holding null": { optionalValue: null },
  empty: { optionalEmpty: {}, repeatedEmpty: [{}, {}] },
  "any holding a message": {
    optionalAny: { "@type": "type.googleapis.com/protobuf_test_messages.proto3.TestAllTypesProto3", optionalInt32: 5, optionalNestedMessage: { a: 1 } },
  },
  "any holding well-known types": {
    repeatedAny: [
      { "@type": "type.googleapis.com/google.protobuf.Duration", value: "1.5s" },
      { "@type": "type.googleapis.com/google.protobuf.Timestamp", value: "2000-01-01T00:00:00Z" },
      { "@type": "type.googleapis.com/google.protobuf.Struct", value: { a: [1, "b"] } },
      { "@type": "type.googleapis.com/google.protobuf.Value", value: null },
      { "@type": "type.googleapis.com/google.protobuf.Int64Value", value: "-7" },
      { "@type": "type.googleapis.com/google.protobuf.Empty" },
      { "@type": "type.googleapis.com/google.protobuf.FieldMask", value: "a.bC" },
      { "@type": "type.googleapis.com/google.protobuf.Any", value: { "@type": "type.googleapis.com/google.protobuf.StringValue", value: "in" } },
      {},
    ],
  },
  "odd json names": { fieldname1: 1, fieldName2: 2, FieldName3: 3, fieldName4: 4, field0name5: 5, field0Name6: 6, FIELDNAME11: 11, FIELDName12: 12, FieldName18: 18 },
};

describe("ProtoJSON matches @bufbuild/protobuf on TestAllTypesProto3", () => {
  for (const [name, json] of Object.entries(VALID)) {
    it(name, () => {
      const mine = ours(json);
      // Their reading of our output is their reading of the input: the same message.
      expect(theirs(mine as JsonValue)).toEqual(theirs(json));
      expect(mine).toEqual(theirs(json));
    });
  }

  for (const [name, json] of Object.entries(VALID)) {
    it(`binary interop: ${name}`, () => {
      // Their binary -> our decode -> our JSON, and our JSON -> our binary -> their decode: the same message.
      const bytes = toBinary(desc, fromJson(desc, json, { registry }));
      expect(gen.toJsonTestAllTypesProto3(gen.decodeTestAllTypesProto3(bytes))).toEqual(theirs(json));
      const back = fromBinary(desc, gen.encodeTestAllTypesProto3(gen.fromJsonTestAllTypesProto3(json)));
      expect(toJson(desc, back, { registry })).toEqual(theirs(json));
    });
  }

  it("writes floats as the shortest text that reads back as the same float32", () => {
    const mine = ours({ optionalFloat: 1.1, repeatedFloat: [0.1, -3.4028234663852886e38, "NaN", 16777217] }) as Record<string, unknown>;
    expect(mine).toEqual({ optionalFloat: 1.1, repeatedFloat: [0.1, -3.4028235e38, "NaN", 16777216] });
    // @bufbuild/protobuf keeps float fields as doubles; compare as float32, which is what the wire carries.
    const floats = (j: JsonValue) => ((theirs(j) as { repeatedFloat: (number | string)[] }).repeatedFloat).map((v) => (typeof v === "number" ? Math.fround(v) : v));
    expect(floats(mine as JsonValue)).toEqual(floats({ repeatedFloat: [0.1, -3.4028234663852886e38, "NaN", 16777217] }));
  });

  it("emitDefaults writes every field without presence, like alwaysEmitImplicit", () => {
    expect(ours({}, { emitDefaults: true })).toEqual(theirs({}, { alwaysEmitImplicit: true }));
  });

  it("useProtoFieldName writes proto names", () => {
    const json = { optionalInt32: 1, fieldName2: 2, oneofString: "s", mapBoolBool: { true: true } };
    expect(ours(json, { useProtoFieldName: true })).toEqual(theirs(json, { useProtoFieldName: true }));
  });

  it("enumAsInteger writes numbers", () => {
    expect(ours({ optionalNestedEnum: "BAZ", repeatedForeignEnum: ["FOREIGN_BAR"] }, { enumAsInteger: true }))
      .toEqual({ optionalNestedEnum: 2, repeatedForeignEnum: [1] });
  });

  const INVALID: Record<string, JsonValue> = {
    "fractional int32": { optionalInt32: 1.5 },
    "int32 out of range": { optionalInt32: 2147483648 },
    "negative uint64": { optionalUint64: "-1" },
    "int64 too large": { optionalInt64: "9223372036854775808" },
    "int with spaces": { optionalInt32: " 1" },
    "float out of range": { optionalFloat: 3.5e38 },
    "bool as string": { optionalBool: "true" },
    "number as string field": { optionalString: 1 },
    "bad base64": { optionalBytes: "!!" },
    "unknown enum name": { optionalNestedEnum: "NOPE" },
    "two oneof members": { oneofUint32: 1, oneofString: "x" },
    "json and proto name together": { optionalInt32: 1, optional_int32: 2 },
    "unknown field": { noSuchField: 1 },
    "null in a list": { repeatedInt32: [1, null] },
    "null map value": { mapStringString: { a: null } },
    "bad int map key": { mapInt32Int32: { x: 1 } },
    "bad bool map key": { mapBoolBool: { TRUE: true } },
    "timestamp without offset": { optionalTimestamp: "1970-01-01T00:00:00" },
    "timestamp lowercase t": { optionalTimestamp: "1970-01-01t00:00:00Z" },
    "timestamp before year 1": { optionalTimestamp: "0000-12-31T23:59:59Z" },
    "timestamp 10 fraction digits": { optionalTimestamp: "1970-01-01T00:00:00.0000000001Z" },
    "duration without s": { optionalDuration: "1" },
    "duration too long": { optionalDuration: "315576000001s" },
    "field mask with underscore": { optionalFieldMask: "foo_bar" },
    "struct that is a list": { optionalStruct: [1] },
    "message that is a string": { optionalNestedMessage: "x" },
    "wrapper as object": { optionalInt32Wrapper: { value: 1 } },
    "any without @type": { optionalAny: { optionalInt32: 1 } },
    "any of an unknown type": { optionalAny: { "@type": "type.googleapis.com/no.Such" } },
    "any with a bad field": { optionalAny: { "@type": "type.googleapis.com/protobuf_test_messages.proto3.ForeignMessage", d: 1 } },
  };
  it("rejects dates that do not exist, where @bufbuild/protobuf rolls them over (protoc rejects them)", () => {
    expect(() => gen.fromJsonTestAllTypesProto3({ optionalTimestamp: "2023-02-30T00:00:00Z" })).toThrow(/not a valid date/);
    expect(() => gen.fromJsonTestAllTypesProto3({ optionalTimestamp: "2023-01-01T24:00:00Z" })).toThrow(/not a valid date/);
  });

  for (const [name, json] of Object.entries(INVALID)) {
    it(`rejects ${name}, as @bufbuild/protobuf does`, () => {
      expect(() => fromJson(desc, json, { registry })).toThrow();
      expect(() => gen.fromJsonTestAllTypesProto3(json)).toThrow(ProtoJsonError);
    });
  }
});
