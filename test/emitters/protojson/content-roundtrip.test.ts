import { readFileSync } from "node:fs";
import path from "node:path";
import protobuf from "protobufjs";
import { beforeAll, describe, expect, it } from "vitest";
import { REPO } from "../../helpers/seeds.js";
import { CORPUS_DATA, importGenerated } from "./generate.js";

/**
 * The content spec on real payloads (spinn3r Response messages, 100 entries each, with int64 ids beyond 2^53):
 * binary -> JSON -> binary is byte-exact, and our JSON says what protobufjs says about the same bytes.
 */
const SPEC = path.join(REPO, "specs/content.proto");
const PAYLOADS = ["spinn3r_test2.protobuf", "spinn3r_test3.protobuf"];

let gen: Record<string, any>;
let Response: protobuf.Type;
beforeAll(async () => {
  gen = await importGenerated(SPEC);
  Response = protobuf.loadSync(SPEC).lookupType("contentApi.Response");
});

/** float32 fields: protobufjs keeps the double of the float32, we write its shortest form; compare as float32. */
const asFloat32 = (json: unknown): unknown => JSON.parse(JSON.stringify(json), (_k, v: unknown) => (typeof v === "number" ? Math.fround(v) : v));

describe("content.proto ProtoJSON on spinn3r payloads", () => {
  for (const file of PAYLOADS) {
    const bytes = new Uint8Array(readFileSync(path.join(CORPUS_DATA, file)));

    it(`${file}: decode -> toJson -> text -> fromJson -> encode is byte-exact`, () => {
      const text = gen.toJsonStringResponse$(gen.decodeResponse(bytes));
      expect(text.length).toBeGreaterThan(1000);
      const again = gen.encodeResponse(gen.fromJsonStringResponse$(text));
      expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(true);
    });

    it(`${file}: our JSON equals protobufjs's JSON view of the same bytes`, () => {
      const theirs = Response.toObject(Response.decode(bytes), { longs: String, bytes: String, enums: String, json: true });
      const ours = gen.toJsonResponse$(gen.decodeResponse(bytes));
      expect(asFloat32(ours)).toEqual(asFloat32(theirs));
      // and protobufjs reads our JSON back into the same message
      const fromOurs = Response.fromObject(ours as Record<string, unknown>);
      expect(Buffer.from(Response.encode(fromOurs).finish()).equals(Buffer.from(bytes))).toBe(true);
    });
  }

  it("keeps 64-bit ids exact (strings in JSON)", () => {
    const json = gen.toJsonResponse$(gen.decodeResponse(new Uint8Array(readFileSync(path.join(CORPUS_DATA, PAYLOADS[0]!)))));
    const big = JSON.stringify(json).match(/"(\d{17,})"/);
    expect(big).not.toBeNull();
    expect(BigInt(big![1]!) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
  });
});
