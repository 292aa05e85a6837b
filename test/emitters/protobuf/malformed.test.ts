/**
 * Untrusted input: every malformed payload fails with ProtobufDecodeError (offset + field path), never another
 * exception, a hang or a prototype change.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { ProtobufDecodeError } from "../../../src/runtime/index.js";
import { CORPUS, generate, load, REPO } from "./generate.js";

type Module = Record<string, (...args: unknown[]) => unknown>;
let content: Module;
let proto3: Module;

beforeAll(async () => {
  content = await load<Module>(generate(path.join(REPO, "specs/content.proto")));
  const dir = path.join(CORPUS, "proto");
  proto3 = await load<Module>(generate(path.join(dir, "google/protobuf/test_messages_proto3.proto"), { includeDirs: [dir] }));
});

function failure(fn: () => unknown): ProtobufDecodeError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ProtobufDecodeError) return e;
    throw e;
  }
  throw new Error("decoding succeeded");
}

const decodeResponse = (bytes: number[] | Uint8Array) => content.decodeResponse!(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));

describe("malformed input", () => {
  it("truncated string field", () => {
    const e = failure(() => decodeResponse([0x0a, 0x05, 0x61, 0x62]));
    expect(e.message).toBe("Response.requestUrl: length 5 runs past the end of the input (at byte 2)");
  });

  it("overlong varint in a nested field names the path", () => {
    // entry { source { resource_status (8): 11-byte varint } }
    const varint = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
    const source = [0x40, ...varint];
    const entry = [0x0a, source.length, ...source];
    const e = failure(() => decodeResponse([0x22, entry.length, ...entry]));
    expect(e.fieldPath).toBe("Response.entry[0].source.resourceStatus");
    expect(e.reason).toBe("varint longer than 10 bytes");
  });

  it("wrong wire type for a known field is not malformed: it is kept as an unknown field (wrong-wire-type.test.ts)", () => {
    // request_url (1) as a varint
    const m = decodeResponse([0x08, 0x01]) as { requestUrl?: string; $unknown?: Uint8Array };
    expect(m.requestUrl).toBeUndefined();
    expect([...m.$unknown!]).toEqual([0x08, 0x01]);
  });

  it("a nested message whose last field runs past its declared length", () => {
    // entry with length 2 holding a 4-byte field: source { resource_status: 1 }
    const e = failure(() => decodeResponse([0x22, 0x02, 0x0a, 0x02, 0x40, 0x01]));
    expect(e.reason).toMatch(/runs 2 bytes past the end of its enclosing message/);
    expect(e.fieldPath).toBe("Response.entry[0].source");
  });

  it("a truncated tag belongs to the message, not to the field before it", () => {
    const e = failure(() => decodeResponse([0x0a, 0x00, 0x80]));
    expect(e.fieldPath).toBe("Response");
    expect(e.reason).toBe("truncated varint");
  });

  it("huge declared lengths fail at once", () => {
    const e = failure(() => decodeResponse([0x22, 0xff, 0xff, 0xff, 0xff, 0x0f]));
    expect(e.reason).toBe("length 4294967295 runs past the end of the input");
  });

  it("stray end-group and invalid wire types", () => {
    expect(failure(() => decodeResponse([0x2c])).reason).toBe("unexpected end-group tag");
    expect(failure(() => decodeResponse([0x2f])).reason).toBe("invalid wire type 7");
  });

  it("truncations of real payloads all fail cleanly", () => {
    const bytes = new Uint8Array(readFileSync(path.join(CORPUS, "data/spinn3r_test2.protobuf")));
    for (const cut of [1, 2, 3, 100, 5000, bytes.length - 1]) {
      expect(failure(() => decodeResponse(bytes.subarray(0, cut)))).toBeInstanceOf(ProtobufDecodeError);
    }
  });

  it("random bytes and mutated payloads give a message or a ProtobufDecodeError, nothing else", () => {
    const sample = proto3.encodeTestAllTypesProto3!({
      optionalInt32: 1, optionalString: "abc", repeatedInt32: [1, 2, 3], mapStringString: { a: "b" },
      optionalNestedMessage: { a: 1 }, oneofField: { case: "oneofString", value: "x" },
    }) as Uint8Array;
    const decoders = [content.decodeResponse!, proto3.decodeTestAllTypesProto3!];
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), fc.array(fc.tuple(fc.nat(), fc.nat({ max: 255 })), { maxLength: 4 }), (random, edits) => {
        const mutated = sample.slice();
        for (const [i, b] of edits) mutated[i % mutated.length] = b;
        for (const decode of decoders) {
          for (const input of [random, mutated]) {
            try {
              decode(input);
            } catch (e) {
              expect(e).toBeInstanceOf(ProtobufDecodeError);
            }
          }
        }
        expect(({} as Record<string, unknown>).a).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });
});
