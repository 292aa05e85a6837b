import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ProtoJsonError } from "../../../src/runtime/index.js";
import { CORPUS_PROTO, importGenerated } from "./generate.js";

/** Bad input gives a ProtoJsonError that points at the offending value; hostile keys never reach a prototype. */
const SPEC3 = path.join(CORPUS_PROTO, "google/protobuf/test_messages_proto3.proto");
const SPEC2 = path.join(CORPUS_PROTO, "google/protobuf/test_messages_proto2.proto");

let p3: Record<string, any>;
let p2: Record<string, any>;
beforeAll(async () => {
  [p3, p2] = await Promise.all([importGenerated(SPEC3), importGenerated(SPEC2)]);
});

function errorOf(run: () => unknown): ProtoJsonError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(ProtoJsonError);
    return e as ProtoJsonError;
  }
  throw new Error("expected a ProtoJsonError");
}

describe("ProtoJSON errors", () => {
  it.each([
    [{ optionalNestedMessage: { corecursive: { repeatedInt32: [1, "x"] } } }, "/optionalNestedMessage/corecursive/repeatedInt32/1"],
    [{ mapStringNestedMessage: { "a/b~c": { a: true } } }, "/mapStringNestedMessage/a~1b~0c/a"],
    [{ repeatedTimestamp: ["1970-01-01T00:00:00Z", "soon"] }, "/repeatedTimestamp/1"],
    [{ optionalStruct: { k: [1, { deep: undefined }] } }, "/optionalStruct/k/1/deep"],
    [{ mapInt32Int32: { "1.5": 1 } }, "/mapInt32Int32/1.5"],
    [{ repeatedNestedMessage: [{}, { nope: 1 }] }, "/repeatedNestedMessage/1/nope"],
  ])("%j fails at %s", (json, path) => {
    expect(errorOf(() => p3.fromJsonTestAllTypesProto3(json)).path).toBe(path);
  });

  it("the top level must be an object", () => {
    for (const bad of [null, [], "x", 1]) expect(errorOf(() => p3.fromJsonTestAllTypesProto3(bad)).path).toBe("");
  });

  it("reports malformed JSON text as a ProtoJsonError", () => {
    expect(errorOf(() => p3.fromJsonStringTestAllTypesProto3("{\"optionalInt32\": 1,")).message).toMatch(/malformed JSON/);
  });

  it("reads unquoted 64-bit integers from text exactly and refuses a key given twice", () => {
    const max = p3.fromJsonStringTestAllTypesProto3('{"optionalInt64": 9223372036854775807, "optionalUint64": 18446744073709551615}');
    expect(max.optionalInt64).toBe(9223372036854775807n);
    expect(max.optionalUint64).toBe(18446744073709551615n);
    expect(errorOf(() => p3.fromJsonStringTestAllTypesProto3('{"optionalInt64": 9223372036854775808}')).message).toMatch(/out of range/);
    expect(errorOf(() => p3.fromJsonStringTestAllTypesProto3('{"optionalInt32": 1, "optionalInt32": 2}')).message).toMatch(/malformed JSON/);
    expect(p3.fromJsonStringTestAllTypesProto3('{"optionalDouble": 123456789012345678901234567890}').optionalDouble).toBe(1.2345678901234568e29);
  });

  it("ignoreUnknownFields skips unknown keys and unknown enum names, and nothing else", () => {
    const options = { ignoreUnknownFields: true };
    const m = p3.fromJsonTestAllTypesProto3(
      { unknownKey: { anything: [1] }, optionalNestedEnum: "NOT_A_VALUE", repeatedNestedEnum: ["BAR", "NOPE", "BAZ"], mapStringNestedEnum: { a: "NOPE", b: "FOO" }, optionalInt32: 4 },
      options,
    );
    expect(m.optionalNestedEnum).toBe("FOO");
    expect(m.repeatedNestedEnum).toEqual(["BAR", "BAZ"]);
    expect(m.mapStringNestedEnum).toEqual({ b: "FOO" });
    expect(m.optionalInt32).toBe(4);
    expect(() => p3.fromJsonTestAllTypesProto3({ optionalInt32: "x" }, options)).toThrow(ProtoJsonError);
  });

  it("keeps open-enum numbers it does not know and rejects them for closed (proto2) enums", () => {
    expect(p3.fromJsonTestAllTypesProto3({ optionalNestedEnum: 42 }).optionalNestedEnum).toBe(42);
    expect(p3.toJsonTestAllTypesProto3({ ...p3.fromJsonTestAllTypesProto3({}), optionalNestedEnum: 42 })).toEqual({ optionalNestedEnum: 42 });
    expect(errorOf(() => p2.fromJsonTestAllTypesProto2({ optionalNestedEnum: 42 })).path).toBe("/optionalNestedEnum");
    expect(p2.fromJsonTestAllTypesProto2({ optionalNestedEnum: 42 }, { ignoreUnknownFields: true }).optionalNestedEnum).toBeUndefined();
  });

  it("__proto__ and constructor keys are data or unknown fields, never prototypes", () => {
    const hostile = JSON.parse('{"mapStringString": {"__proto__": "x", "constructor": "y"}, "optionalStruct": {"__proto__": {"polluted": true}}}');
    const m = p3.fromJsonTestAllTypesProto3(hostile);
    expect(Object.getPrototypeOf(m.mapStringString)).toBe(Object.prototype);
    expect(Object.keys(m.mapStringString)).toEqual(["__proto__", "constructor"]);
    expect(m.mapStringString["__proto__"]).toBe("x");
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    const json = p3.toJsonTestAllTypesProto3(m) as Record<string, any>;
    expect(JSON.stringify(json)).toBe(JSON.stringify(hostile));
    expect(() => p3.fromJsonTestAllTypesProto3(JSON.parse('{"__proto__": {"optionalInt32": 1}}'))).toThrow(/unknown field/);
    expect(() => p3.fromJsonTestAllTypesProto3(JSON.parse('{"constructor": 1}'))).toThrow(/unknown field/);
    expect(p3.fromJsonTestAllTypesProto3({}).optionalInt32).toBe(0);
  });

  it("turns absurd nesting into a ProtoJsonError instead of a stack overflow", () => {
    const deep = "[".repeat(200_000) + "]".repeat(200_000);
    const e = errorOf(() => p3.fromJsonTestAllTypesProto3(JSON.parse(`{"optionalValue": ${deep}}`)));
    expect(e.message).toMatch(/nested too deeply/);
  });

  it("proto2: required fields must be present; extensions use [full.name] keys", () => {
    expect(errorOf(() => p2.fromJsonTestAllRequiredTypesProto2({})).message).toMatch(/required field is missing/);
    const m = p2.fromJsonTestAllTypesProto2({ "[protobuf_test_messages.proto2.extension_int32]": 5, data: { groupInt32: 1 }, defaultInt32: 0 });
    expect(m.$extensions).toEqual({ "protobuf_test_messages.proto2.extension_int32": 5 });
    expect(m.data).toEqual({ groupInt32: 1 });
    // proto2 optional fields have presence: a default value that was set is written.
    expect(p2.toJsonTestAllTypesProto2(m)).toEqual({ data: { groupInt32: 1 }, defaultInt32: 0, "[protobuf_test_messages.proto2.extension_int32]": 5 });
  });

  it("drops $unknown on output: unknown wire fields have no JSON form", () => {
    const m = { ...p3.fromJsonTestAllTypesProto3({ optionalInt32: 1 }), $unknown: new Uint8Array([8, 1]) };
    expect(p3.toJsonTestAllTypesProto3(m)).toEqual({ optionalInt32: 1 });
  });

  it("serialisation errors for values JSON cannot carry", () => {
    const base = p3.fromJsonTestAllTypesProto3({});
    expect(() => p3.toJsonTestAllTypesProto3({ ...base, optionalTimestamp: { seconds: 253402300800n, nanos: 0 } })).toThrow(ProtoJsonError);
    expect(() => p3.toJsonTestAllTypesProto3({ ...base, optionalDuration: { seconds: 1n, nanos: -1 } })).toThrow(ProtoJsonError);
    expect(() => p3.toJsonTestAllTypesProto3({ ...base, optionalFieldMask: { paths: ["fooBar"] } })).toThrow(ProtoJsonError);
    expect(() => p3.toJsonTestAllTypesProto3({ ...base, optionalValue: {} })).toThrow(ProtoJsonError);
    expect(() => p3.toJsonTestAllTypesProto3({ ...base, optionalValue: { kind: { case: "numberValue", value: NaN } } })).toThrow(ProtoJsonError);
  });
});
