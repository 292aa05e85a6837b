/**
 * The corpus schemas (protobuf's own test protos, googleapis, OpenTelemetry, gRPC, TensorFlow, the benchmark protos):
 * generated code type-checks under strict, real payloads re-encode byte for byte, and random valid values of every
 * message survive encode -> decode (and pass their validator); protobufjs reads what we write the same way.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import protobuf from "protobufjs";
import { beforeAll, describe, expect, it } from "vitest";
import { protoModel } from "../../../src/emitters/protobuf/plan.js";
import { typecheckFiles } from "../../helpers/typecheck.js";
import { hasFiniteValues, messageArbitrary } from "./arbitrary.js";
import { canon } from "./canon.js";
import { CORPUS, generate, load, REPO, type Generated } from "./generate.js";

const PROTO_DIR = path.join(CORPUS, "proto");

function protoFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = path.join(dir, name);
      return statSync(p).isDirectory() ? protoFiles(p) : name.endsWith(".proto") ? [p] : [];
    });
}

const FILES = protoFiles(PROTO_DIR).map((p) => path.relative(PROTO_DIR, p));
type Module = Record<string, (...args: unknown[]) => unknown>;

describe("generated code for the corpus", () => {
  it("type-checks under strict (codecs and validators, every int64 mode)", () => {
    // A representative subset keeps this fast: groups, extensions, required, maps, oneofs, well-known types.
    const files = new Map<string, string>();
    const subset = ["google/protobuf/test_messages_proto2.proto", "google/protobuf/test_messages_proto3.proto", "bench/perf.proto"];
    for (const rel of subset) {
      for (const int64 of ["bigint", "string", "number"] as const) {
        if (int64 !== "bigint" && !rel.includes("test_messages")) continue;
        const g = generate(path.join(PROTO_DIR, rel), { includeDirs: [PROTO_DIR], runtimeModule: "specforge/runtime", int64 });
        for (const [name, text] of g.files) files.set(`${int64}/${rel.replace(/[/.]/g, "_")}/${name}`, text);
      }
    }
    // Only diagnostics in generated files: the runtime is checked by the project's own type-check.
    expect(typecheckFiles(files).filter((d) => !d.startsWith(".."))).toEqual([]);
  });

  it.each([
    ["bench/vector_tile.proto", "vector_tile.bin", "Tile"],
    ["bench/perf.proto", "buf_perf_payload.bin", "PerfMessage"],
  ])("%s: %s decodes and re-encodes byte for byte", async (proto, data, type) => {
    const m = await load<Module>(generate(path.join(PROTO_DIR, proto), { includeDirs: [PROTO_DIR] }));
    const bytes = new Uint8Array(readFileSync(path.join(CORPUS, "data", data)));
    const again = m[`encode${type}`]!(m[`decode${type}`]!(bytes)) as Uint8Array;
    expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(true);
  });

  it("vector_tile.bin: field values agree with protobufjs", async () => {
    const proto = path.join(PROTO_DIR, "bench/vector_tile.proto");
    const m = await load<Module>(generate(proto));
    const bytes = new Uint8Array(readFileSync(path.join(CORPUS, "data/vector_tile.bin")));
    const Tile = protobuf.loadSync(proto).lookupType("vector_tile.Tile");
    const theirs = Tile.toObject(Tile.decode(bytes), { longs: String, enums: String, bytes: String });
    expect(canon(m.decodeTile!(bytes))).toEqual(theirs);
  });
});

/** Random round trips for every message of each schema (specs/content.proto and the corpus). */
const SCHEMAS = [path.join(REPO, "specs/content.proto"), ...FILES.map((f) => path.join(PROTO_DIR, f))];

describe.each(SCHEMAS.map((s) => [path.relative(path.dirname(REPO), s), s]))("random values of every message in %s", (_, proto) => {
  let g: Generated;
  let codec: Module;
  let validate: Module;
  beforeAll(async () => {
    g = generate(proto!, { includeDirs: [PROTO_DIR] });
    codec = await load<Module>(g);
    validate = await load<Module>(g, "validate.ts");
  });

  it("survive encode -> decode unchanged, and validate without issues", () => {
    const model = protoModel(g.doc, g.ctx.names);
    expect(model.messages.length).toBeGreaterThan(0);
    for (const m of model.messages) {
      if (!hasFiniteValues(model, m.record.id)) continue;
      const encode = codec[g.ctx.names.derived(m.record.id, "encode")]!;
      const decode = codec[g.ctx.names.derived(m.record.id, "decode")]!;
      const check = validate[g.ctx.names.derived(m.record.id, "validate")]!;
      fc.assert(
        fc.property(messageArbitrary(model, m.record.id, "bigint"), (value) => {
          const bytes = encode(value) as Uint8Array;
          expect(decode(bytes)).toEqual(value);
          // Random floats may break `@range` bounds (content.proto); nothing else may be reported.
          expect((check(value) as { rule: string }[]).filter((i) => i.rule !== "range")).toEqual([]);
        }),
        { numRuns: 8 },
      );
    }
  });
});

describe("protobufjs reads what we write", () => {
  it("every message of content.proto, random values", async () => {
    const proto = path.join(REPO, "specs/content.proto");
    const g = generate(proto);
    const codec = await load<Module>(g);
    const root = protobuf.loadSync(proto);
    const model = protoModel(g.doc, g.ctx.names);
    for (const m of model.messages) {
      const Type = root.lookupType(m.record.id.replace(/^proto:\./, ""));
      fc.assert(
        fc.property(messageArbitrary(model, m.record.id, "bigint"), (value) => {
          const bytes = codec[g.ctx.names.derived(m.record.id, "encode")]!(value) as Uint8Array;
          const theirs = Type.toObject(Type.decode(bytes), { longs: String, enums: String, bytes: String });
          expect(canon(value)).toEqual(theirs);
        }),
        { numRuns: 25 },
      );
    }
  });
});
