/**
 * specs/content.proto end to end on the real spinn3r payloads: byte-exact round trips, agreement with protoc and
 * protobufjs, required-field errors with their path, and the validators on real data.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import protobuf from "protobufjs";
import { beforeAll, describe, expect, it } from "vitest";
import { ProtobufDecodeError, type ValidationIssue } from "../../../src/runtime/index.js";
import { canon } from "./canon.js";
import { CORPUS, generate, load, REPO } from "./generate.js";
import { protocDecode, protocEncode } from "./protoc.js";

const PROTO = path.join(REPO, "specs/content.proto");
const SPECS = path.join(REPO, "specs");
const PAYLOADS = ["spinn3r_test2.protobuf", "spinn3r_test3.protobuf"].map((f) => ({
  name: f,
  bytes: new Uint8Array(readFileSync(path.join(CORPUS, "data", f))),
}));

type Codec = Record<string, (...args: never[]) => unknown>;
let pb: Record<string, (...args: unknown[]) => unknown>;
let validate: Record<string, (m: unknown) => ValidationIssue[]>;
const decode = (b: Uint8Array) => pb.decodeResponse!(b) as Record<string, unknown>;
const encode = (m: unknown) => pb.encodeResponse!(m) as Uint8Array;

beforeAll(async () => {
  const g = generate(PROTO);
  pb = await load(g);
  validate = await load(g, "validate.ts");
});

describe("content.proto on the spinn3r payloads", () => {
  it.each(PAYLOADS)("$name decodes and re-encodes byte for byte", ({ bytes }) => {
    const again = encode(decode(bytes));
    expect(again.length).toBe(bytes.length);
    expect(Buffer.compare(Buffer.from(again), Buffer.from(bytes))).toBe(0);
  });

  it.each(PAYLOADS)("$name: protoc reads our re-encoding exactly as it reads the original", ({ bytes }) => {
    const ours = encode(decode(bytes));
    const want = protocDecode(PROTO, SPECS, "contentApi.Response", bytes);
    expect(want.length).toBeGreaterThan(100_000);
    expect(protocDecode(PROTO, SPECS, "contentApi.Response", ours)).toBe(want);
  });

  it.each(PAYLOADS)("$name: field values agree with protobufjs", ({ bytes }) => {
    const Response = protobuf.loadSync(PROTO).lookupType("contentApi.Response");
    const theirs = Response.toObject(Response.decode(bytes), { longs: String, enums: String, bytes: String });
    expect(canon(decode(bytes))).toEqual(theirs);
  });

  it("keeps int64 identifiers beyond 2^53 exact", () => {
    const ids: bigint[] = [];
    for (const p of PAYLOADS) {
      for (const e of decode(p.bytes).entry as { permalinkEntry?: { identifier?: bigint } }[]) {
        if (e.permalinkEntry?.identifier !== undefined) ids.push(e.permalinkEntry.identifier);
      }
    }
    expect(ids.some((id) => id > 2n ** 53n)).toBe(true);
  });

  it("a message written by protoc from text decodes to the same values and re-encodes to the same bytes", () => {
    const text = [
      'request_url: "https://api.example/1?x=\\"q\\""',
      "entry {",
      "  source { title: \"T\\303\\251l\\303\\251\" spam_probability: -1 tier: -7 indegree: -2147483648 disabled: true }",
      "  permalink_entry { identifier: 18446744073709551 category: \"a\" category: \"\" content { mime_type: \"text/html\" data: \"\\000\\377\" } lang { code: \"en\" probability: 0.25 } }",
      "}",
      "entry { }",
    ].join("\n");
    const bytes = protocEncode(PROTO, SPECS, "contentApi.Response", text);
    const m = decode(bytes);
    expect(m).toMatchObject({
      requestUrl: 'https://api.example/1?x="q"',
      entry: [
        {
          source: { title: "Télé", spamProbability: -1, tier: -7, indegree: -2147483648, disabled: true },
          permalinkEntry: {
            identifier: 18446744073709551n,
            category: ["a", ""],
            content: { mimeType: "text/html", data: new Uint8Array([0, 255]) },
            lang: [{ code: "en", probability: 0.25 }],
          },
        },
        {},
      ],
    });
    expect(Buffer.from(encode(m)).equals(Buffer.from(bytes))).toBe(true);
  });
});

describe("proto2 required fields", () => {
  it("a missing required field fails with the field path", () => {
    // protoc and protobufjs refuse to write (or fill in) a missing required field: build the bytes by hand.
    // Content { data: "x" } inside PermalinkEntry.content (12) inside Entry.permalink_entry (4), as the 4th entry.
    const content = [0x12, 0x01, 0x78];
    const permalink = [98, content.length, ...content];
    const entry = [34, permalink.length, ...permalink];
    const bytes = new Uint8Array([34, 0, 34, 0, 34, 0, 34, entry.length, ...entry]);
    let error: unknown;
    try {
      decode(bytes);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProtobufDecodeError);
    expect((error as ProtobufDecodeError).fieldPath).toBe("Response.entry[3].permalinkEntry.content.mimeType");
    expect((error as Error).message).toMatch(/^Response\.entry\[3\]\.permalinkEntry\.content\.mimeType: required field missing \(at byte \d+\)$/);
  });

  it("encoding a message without a required field throws", () => {
    expect(() => encode({ entry: [{ content: { data: new Uint8Array(1) } }] })).toThrow(/Content\.mimeType: required field missing/);
  });
});

describe("validators on content.proto", () => {
  it("report exactly the Lang.probability values of -1 in the real data (the seed's range is 0.0..1.0)", () => {
    for (const p of PAYLOADS) {
      const Response = protobuf.loadSync(PROTO).lookupType("contentApi.Response");
      const theirs = Response.toObject(Response.decode(p.bytes), { longs: String });
      // Independently: every "probability" under a "lang" list that is outside 0..1, by JSON pointer.
      const want: string[] = [];
      const walk = (v: unknown, at: string, parent: string): void => {
        if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${at}/${i}`, parent));
        else if (v && typeof v === "object") {
          for (const [k, x] of Object.entries(v)) {
            if (k === "probability" && parent === "lang" && typeof x === "number" && !(x >= 0 && x <= 1)) want.push(`${at}/${k}`);
            walk(x, `${at}/${k}`, k);
          }
        }
      };
      walk(theirs, "", "");
      const issues = validate.validateResponse!(decode(p.bytes));
      expect(want.length).toBeGreaterThan(0);
      expect(issues.map((i) => i.path).sort()).toEqual(want.sort());
      expect(new Set(issues.map((i) => i.rule))).toEqual(new Set(["range"]));
      expect(issues[0]!.message).toBe("-1 is outside 0.0..1.0");
    }
  });

  it("accepts -1.0 for spam_probability and reports values outside both alternatives", () => {
    expect(validate.validateSource!({ spamProbability: -1 })).toEqual([]);
    expect(validate.validateSource!({ spamProbability: 0.5 })).toEqual([]);
    expect(validate.validateSource!({ spamProbability: -0.5 })).toEqual([
      { path: "/spamProbability", rule: "range", message: "-0.5 is outside -1.0 | 0.0..1.0" },
    ]);
  });

  it("reports required fields, types and integer ranges with JSON pointers", () => {
    const issues = validate.validateResponse!({
      requestUrl: 5,
      entry: [{ source: { resourceStatus: 2 ** 31, tier: 1.5, link: [{ href: "x" }, { href: null }] } }, { permalinkEntry: { identifier: 2n ** 63n, content: {} } }],
    });
    expect(issues).toEqual([
      { path: "/requestUrl", rule: "type", message: "expected a string" },
      { path: "/entry/0/source/link/1/href", rule: "type", message: "expected a string" },
      { path: "/entry/0/source/resourceStatus", rule: "range", message: "2147483648 is out of range for int32 (-2147483648 to 2147483647)" },
      { path: "/entry/0/source/tier", rule: "type", message: "expected an integer (int32)" },
      { path: "/entry/1/permalinkEntry/identifier", rule: "range", message: "9223372036854775808 is out of range for int64 (-9223372036854775808 to 9223372036854775807)" },
      { path: "/entry/1/permalinkEntry/content/mimeType", rule: "required", message: "required field missing" },
    ]);
  });
});

export type { Codec };
