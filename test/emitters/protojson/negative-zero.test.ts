import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { CORPUS_PROTO, importGenerated } from "./generate.js";

/**
 * -0.0 in a proto3 (implicit presence) float/double field differs from the zero value in its bits: the binary and
 * text codecs write it, and so does protoc's JSON printer. ProtoJSON must not drop it.
 */
const SPEC3 = path.join(CORPUS_PROTO, "google/protobuf/test_messages_proto3.proto");

let p3: Record<string, any>;
beforeAll(async () => {
  p3 = await importGenerated(SPEC3);
});

describe("ProtoJSON -0.0 in proto3 float/double fields", () => {
  it.each(["optionalFloat", "optionalDouble"])("%s = -0 is written and reads back as -0", (field) => {
    const json = p3.toJsonTestAllTypesProto3({ [field]: -0 });
    expect(Object.keys(json)).toEqual([field]);
    expect(Object.is(json[field], -0)).toBe(true);
    expect(Object.is(p3.fromJsonTestAllTypesProto3(json)[field], -0)).toBe(true);
  });

  it("+0 stays the zero value and is left out", () => {
    expect(p3.toJsonTestAllTypesProto3({ optionalFloat: 0, optionalDouble: 0 })).toEqual({});
  });

  it("binary and JSON agree on which fields are present", () => {
    const bytes: Uint8Array = p3.encodeTestAllTypesProto3({ optionalDouble: -0, optionalFloat: 0 });
    const decoded = p3.decodeTestAllTypesProto3(bytes);
    expect(Object.keys(p3.toJsonTestAllTypesProto3(decoded))).toEqual(["optionalDouble"]);
  });
});
