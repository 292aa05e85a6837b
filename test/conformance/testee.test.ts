import { fromBinary, fromJson, toJson, createFileRegistry, type JsonValue } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import protobuf from "protobufjs";
import { beforeAll, describe, expect, it } from "vitest";
import { frame, FrameReader } from "../../conformance/framing.js";
import { descriptorSet } from "../emitters/protojson/generate.js";
import { REPO } from "../helpers/seeds.js";
import { CONFORMANCE, CORPUS_PROTO, PROTO2, PROTO3, protocDecode, protocEncode, textBytes, textString } from "./protoc.js";

/**
 * The conformance testee as the runner drives it: one process, many framed ConformanceRequests on stdin, one framed
 * ConformanceResponse each on stdout. Requests and payloads are built with protoc (text format -> binary); responses
 * are decoded with protobufjs and payloads checked with protoc and @bufbuild/protobuf.
 */
const T3 = "protobuf_test_messages.proto3.TestAllTypesProto3";
const T2 = "protobuf_test_messages.proto2.TestAllTypesProto2";

const RICH3 = `
optional_int32: -42 optional_int64: -9000000000000000000 optional_uint32: 4000000000 optional_uint64: 18000000000000000000
optional_sint32: -7 optional_sint64: -8 optional_fixed32: 9 optional_fixed64: 10 optional_sfixed32: -11 optional_sfixed64: -12
optional_float: 1.5 optional_double: -2.25 optional_bool: true optional_string: "h\\303\\251llo" optional_bytes: "\\000\\377"
optional_nested_message { a: 5 corecursive { optional_int32: 1 } } optional_nested_enum: NEG optional_aliased_enum: ALIAS_BAZ
repeated_int32: [-1, 2, -3] repeated_int64: [-5] repeated_string: ["a", ""] repeated_nested_enum: [FOO, BAZ]
unpacked_int32: [1, -2] unpacked_double: [0.5] packed_sint64: [-1, 1] packed_fixed32: [7, 8]
map_int32_int32 { key: 3 value: 4 } map_int32_int32 { key: -1 value: -2 } map_string_string { key: "k" value: "v" }
map_bool_bool { key: true value: false } map_string_nested_message { key: "m" value { a: 1 } }
map_int64_int64 { key: -9000000000000000000 value: 1 }
oneof_string: "chosen"
optional_timestamp { seconds: 1700000000 nanos: 5000 } optional_duration { seconds: -3 nanos: -500000000 }
optional_int64_wrapper { value: 77 } optional_struct { fields { key: "x" value { list_value { values { number_value: 1 } values { null_value: NULL_VALUE } } } } }
optional_field_mask { paths: "a.b_c" paths: "d" }
`;

const RICH2 = `
optional_int32: -42 optional_int64: -1 optional_nested_enum: BAZ repeated_int32: [1, -1] packed_int32: [3, -3]
map_int32_int32 { key: 1 value: -1 } oneof_uint32: 0 default_int32: 0
Data { group_int32: 5 group_uint32: 6 }
[protobuf_test_messages.proto2.extension_int32]: 99
`;

/**
 * An unknown field (number 5000, varint 150) appended after the known ones: it must come back in the output.
 * (Map entries above are in the order JavaScript objects iterate integer keys, so byte equality is meaningful.)
 */
const UNKNOWN_FIELD = new Uint8Array([0xc0, 0xb8, 0x02, 0x96, 0x01]);

interface Case {
  readonly name: string;
  readonly request: string;
}

let Response: protobuf.Type;
let FailureSet: protobuf.Type;
let registry: ReturnType<typeof createFileRegistry>;
const results = new Map<string, Record<string, any>>();
let stderr = "";

const rich3 = () => protocEncode(PROTO3, T3, RICH3);
const rich2 = () => protocEncode(PROTO2, T2, RICH2);
const request = (type: string, payload: string, output: string, category = "BINARY_TEST") =>
  `message_type: "${type}" ${payload} requested_output_format: ${output} test_category: ${category}`;

function cases(): Case[] {
  const withUnknown = new Uint8Array([...rich3(), ...UNKNOWN_FIELD]);
  const json3 = JSON.stringify({ optionalInt32: -1, optionalInt64: "-2", mapStringNestedMessage: { k: { a: 3 } }, oneofBool: false, optionalTimestamp: "2000-01-01T00:00:00.5Z", repeatedValue: [null, "x"] });
  return [
    { name: "binary->binary proto3", request: request(T3, `protobuf_payload: ${textBytes(withUnknown)}`, "PROTOBUF") },
    { name: "binary->binary proto2", request: request(T2, `protobuf_payload: ${textBytes(rich2())}`, "PROTOBUF") },
    { name: "binary->json proto3", request: request(T3, `protobuf_payload: ${textBytes(rich3())}`, "JSON") },
    { name: "binary->json proto2", request: request(T2, `protobuf_payload: ${textBytes(rich2())}`, "JSON") },
    { name: "json->binary proto3", request: request(T3, `json_payload: ${textString(json3)}`, "PROTOBUF", "JSON_TEST") },
    { name: "json->json proto3", request: request(T3, `json_payload: ${textString(json3)}`, "JSON", "JSON_TEST") },
    { name: "malformed binary", request: request(T3, `protobuf_payload: ${textBytes(new Uint8Array([0x0a, 0x05, 0x01]))}`, "PROTOBUF") },
    { name: "malformed json", request: request(T3, `json_payload: ${textString('{"optionalInt32": ')}`, "JSON", "JSON_TEST") },
    { name: "invalid json value", request: request(T3, `json_payload: ${textString('{"optionalInt32": 1.5}')}`, "PROTOBUF", "JSON_TEST") },
    { name: "unknown json field", request: request(T3, `json_payload: ${textString('{"unknownField": 1, "optionalInt32": 7}')}`, "PROTOBUF", "JSON_TEST") },
    {
      name: "unknown json field, ignored",
      request: request(T3, `json_payload: ${textString('{"unknownField": 1, "optionalNestedEnum": "NOPE", "optionalInt32": 7}')}`, "PROTOBUF", "JSON_IGNORE_UNKNOWN_PARSING_TEST"),
    },
    {
      name: "field mask that has no JSON form",
      request: request(T3, `protobuf_payload: ${textBytes(protocEncode(PROTO3, T3, 'optional_field_mask { paths: "fooBar" }'))}`, "JSON"),
    },
    { name: "text format input", request: request(T3, `text_payload: "optional_int32: 1"`, "PROTOBUF", "TEXT_FORMAT_TEST") },
    { name: "jspb output", request: request(T3, `protobuf_payload: ""`, "JSPB", "JSPB_TEST") },
    { name: "unsupported type", request: request("protobuf_test_messages.editions.TestAllTypesEdition2023", `protobuf_payload: ""`, "PROTOBUF") },
    { name: "json int64 max unquoted", request: request(T3, `json_payload: ${textString('{"optionalInt64": 9223372036854775807, "optionalUint64": 18446744073709551615}')}`, "PROTOBUF", "JSON_TEST") },
    { name: "json duplicate key", request: request(T3, `json_payload: ${textString('{"optionalInt32": 1, "optionalInt32": 2}')}`, "PROTOBUF", "JSON_TEST") },
    { name: "failure set", request: `message_type: "conformance.FailureSet" protobuf_payload: "" requested_output_format: PROTOBUF` },
  ];
}

/** Run the testee once with every case as one framed request, in order; the child is always killed. */
async function runTestee(frames: readonly Uint8Array[]): Promise<Uint8Array[]> {
  const child = spawn(path.join(REPO, "node_modules/.bin/tsx"), ["conformance/testee.ts"], { cwd: REPO, stdio: ["pipe", "pipe", "pipe"] });
  const reader = new FrameReader();
  const responses: Uint8Array[] = [];
  try {
    return await new Promise<Uint8Array[]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`testee timed out; stderr: ${stderr}`)), 45_000);
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.stdout.on("data", (d: Buffer) => {
        reader.push(new Uint8Array(d));
        for (let r = reader.next(); r !== undefined; r = reader.next()) responses.push(r);
      });
      child.on("error", reject);
      child.on("close", () => {
        clearTimeout(timer);
        resolve(responses);
      });
      for (const f of frames) child.stdin.write(frame(f));
      child.stdin.end();
    });
  } finally {
    child.kill("SIGKILL");
  }
}

beforeAll(async () => {
  const conformance = protobuf.loadSync(path.join(CORPUS_PROTO, CONFORMANCE));
  Response = conformance.lookupType("conformance.ConformanceResponse");
  FailureSet = conformance.lookupType("conformance.FailureSet");
  registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, descriptorSet(path.join(CORPUS_PROTO, PROTO3))));
  const all = cases();
  const responses = await runTestee(all.map((c) => protocEncode(CONFORMANCE, "conformance.ConformanceRequest", c.request)));
  expect(responses.length, stderr).toBe(all.length);
  all.forEach((c, i) => results.set(c.name, Response.toObject(Response.decode(responses[i]!), { oneofs: true })));
}, 90_000);

/** The response's result case and value. */
function result(name: string): { case: string; value: any } {
  const r = results.get(name)!;
  return { case: r["result"], value: r[r["result"]] };
}

function bufJson(bytes: Uint8Array): JsonValue {
  const desc = registry.getMessage(T3)!;
  return toJson(desc, fromBinary(desc, bytes), { registry });
}

describe("conformance testee", () => {
  it("binary -> binary (proto3, with an unknown field) is byte-exact", () => {
    const r = result("binary->binary proto3");
    expect(r.case).toBe("protobufPayload");
    expect(Buffer.from(r.value).equals(Buffer.from([...rich3(), ...UNKNOWN_FIELD]))).toBe(true);
  });

  it("binary -> binary (proto2 with group and extension) decodes to the same text in protoc", () => {
    const r = result("binary->binary proto2");
    expect(r.case).toBe("protobufPayload");
    expect(protocDecode(PROTO2, T2, r.value)).toBe(protocDecode(PROTO2, T2, rich2()));
    expect(protocDecode(PROTO2, T2, r.value)).toContain("[protobuf_test_messages.proto2.extension_int32]: 99");
  });

  it("binary -> JSON (proto3) says what @bufbuild/protobuf says", () => {
    const r = result("binary->json proto3");
    expect(r.case).toBe("jsonPayload");
    expect(JSON.parse(r.value)).toEqual(bufJson(rich3()));
  });

  it("binary -> JSON (proto2) writes groups by field name and extensions in brackets", () => {
    const r = result("binary->json proto2");
    expect(r.case).toBe("jsonPayload");
    expect(JSON.parse(r.value)).toMatchObject({
      optionalInt32: -42, optionalInt64: "-1", defaultInt32: 0, data: { groupInt32: 5, groupUint32: 6 },
      "[protobuf_test_messages.proto2.extension_int32]": 99, oneofUint32: 0, mapInt32Int32: { "1": -1 },
    });
  });

  it("JSON -> binary and JSON -> JSON mean the same message to protoc and @bufbuild/protobuf", () => {
    const bin = result("json->binary proto3");
    expect(bin.case).toBe("protobufPayload");
    const text = protocDecode(PROTO3, T3, bin.value);
    expect(text).toContain("optional_int64: -2");
    expect(text).toContain("oneof_bool: false");
    const json = result("json->json proto3");
    expect(json.case).toBe("jsonPayload");
    expect(JSON.parse(json.value)).toEqual(bufJson(bin.value));
  });

  it("malformed input is a parse error, not a crash", () => {
    for (const name of ["malformed binary", "malformed json", "invalid json value", "unknown json field"]) {
      expect(result(name).case, name).toBe("parseError");
    }
  });

  it("the ignore-unknown category skips unknown fields and enum names", () => {
    const r = result("unknown json field, ignored");
    expect(r.case).toBe("protobufPayload");
    expect(protocDecode(PROTO3, T3, r.value).trim()).toBe("optional_int32: 7");
  });

  it("a message JSON cannot represent is a serialize error", () => {
    expect(result("field mask that has no JSON form")).toMatchObject({ case: "serializeError" });
  });

  it("skips JSPB and message types it does not know", () => {
    for (const name of ["jspb output", "unsupported type"]) expect(result(name).case, name).toBe("skipped");
  });

  it("reads text format input", () => {
    const r = result("text format input");
    expect(r.case).toBe("protobufPayload");
    expect(protocDecode(PROTO3, T3, r.value)).toBe("optional_int32: 1\n");
  });

  it("answers the FailureSet request with the known failures", () => {
    const r = result("failure set");
    expect(r.case).toBe("protobufPayload");
    const failures = (FailureSet.toObject(FailureSet.decode(r.value))["failure"] ?? []) as string[];
    const listed = readFileSync(path.join(REPO, "conformance/known-failures.txt"), "utf8")
      .split("\n")
      .map((l) => l.replace(/#.*/, "").trim())
      .filter(Boolean);
    expect(failures).toEqual(listed);
    expect(failures.every((f) => /^(Required|Recommended)\.[\w.]+$/.test(f))).toBe(true);
  });

  it("reads unquoted 64-bit extremes exactly and refuses duplicate keys", () => {
    const max = result("json int64 max unquoted");
    expect(max.case).toBe("protobufPayload");
    const text = protocDecode(PROTO3, T3, max.value);
    expect(text).toContain("optional_int64: 9223372036854775807");
    expect(text).toContain("optional_uint64: 18446744073709551615");
    expect(result("json duplicate key").case).toBe("parseError");
  });

  it("keeps going after bad requests and reports how many it handled", () => {
    expect(stderr).toContain(`${cases().length} requests`);
  });
});
