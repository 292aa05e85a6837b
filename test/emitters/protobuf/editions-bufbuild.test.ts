/**
 * Editions against @bufbuild/protobuf, which implements editions and passes the whole conformance suite: for every
 * message of the three editions test schemas (test_messages_edition2023, test_messages_proto2_editions,
 * test_messages_proto3_editions), random values are made into bytes by protobuf-es (toBinary of what it read), and
 * our generated decoder must read those bytes and our encoder write them back identically; our ProtoJSON of what we
 * read must equal protobuf-es's ProtoJSON. protobuf-es works from buf's descriptors, not from our parser, so the
 * features (presence, packing, DELIMITED, closed enums, UTF-8) are resolved independently on each side.
 */
import path from "node:path";
import { fromBinary, fromJson, toBinary, toJson, type DescMessage, type FileRegistry, type JsonValue } from "@bufbuild/protobuf";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { protoModel } from "../../../src/emitters/protobuf/plan.js";
import { emitProtobufCodecs } from "../../../src/emitters/protobuf/emit-codec.js";
import { emitProtoJson } from "../../../src/emitters/protojson/emit-protojson.js";
import { bufBuild } from "../../parsers/proto/oracle/compilers.js";
import { hasFiniteValues, messageArbitrary } from "./arbitrary.js";
import { CORPUS, generate, load, type Generated } from "./generate.js";

const EDITIONS = path.join(CORPUS, "proto-editions");
const PROTO = path.join(CORPUS, "proto");
const SCHEMAS = [
  "conformance/test_protos/test_messages_edition2023.proto",
  "editions/golden/test_messages_proto2_editions.proto",
  "editions/golden/test_messages_proto3_editions.proto",
];

type Module = Record<string, (...args: unknown[]) => unknown>;

let registry: FileRegistry;
beforeAll(() => {
  registry = bufBuild(EDITIONS);
});

describe.each(SCHEMAS)("%s against @bufbuild/protobuf", (rel) => {
  let g: Generated;
  let codec: Module;
  let json: Module;
  beforeAll(async () => {
    g = generate(path.join(EDITIONS, rel), {
      includeDirs: [EDITIONS, PROTO],
      emitters: [emitProtobufCodecs, (ctx) => emitProtoJson(ctx, { binary: true })],
    });
    codec = await load<Module>(g);
    json = await load<Module>(g, "protojson.ts");
  });

  it("every message: their bytes decode here and re-encode byte for byte; same ProtoJSON", () => {
    const model = protoModel(g.doc, g.ctx.names);
    const own = model.messages.filter((m) => m.record.origin.file === path.basename(rel) && hasFiniteValues(model, m.record.id));
    expect(own.length).toBeGreaterThan(3);
    let nonEmpty = 0;
    for (const m of own) {
      const desc: DescMessage | undefined = registry.getMessage(m.record.id.replace(/^proto:\./, ""));
      if (!desc) throw new Error(`buf's descriptors have no ${m.record.id}`);
      const encode = codec[g.ctx.names.derived(m.record.id, "encode")]!;
      const decode = codec[g.ctx.names.derived(m.record.id, "decode")]!;
      const ourJson = json[g.ctx.names.derived(m.record.id, "toJson")]!;
      fc.assert(
        fc.property(messageArbitrary(model, m.record.id, "bigint"), (value) => {
          const theirs = fromBinary(desc, encode(value) as Uint8Array, { readUnknownFields: true });
          const bytes = toBinary(desc, theirs);
          if (bytes.length > 0) nonEmpty++;
          const ours = decode(bytes);
          const again = encode(ours) as Uint8Array;
          // protobuf-es keeps extensions with the unknown fields and writes them last; we (like protoc) write every
          // field in number order. With extensions set, the same bytes after protobuf-es's reordering.
          const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
          if (hasExtensions(value)) expect(hex(toBinary(desc, fromBinary(desc, again, { readUnknownFields: true })))).toBe(hex(bytes));
          else expect(hex(again)).toBe(hex(bytes));
          let mine: unknown;
          try {
            mine = ourJson(ours);
          } catch (e) {
            // Values without a JSON form (a FieldMask path that is not snake_case): protobuf-es refuses them too.
            expect(() => toJson(desc, theirs, { registry }), (e as Error).message).toThrow();
            return;
          }
          // Floats print as the shortest text that reads back to the same 32-bit value (as protoc does), where
          // protobuf-es prints the widened double; compared at 32-bit precision, and exactly by reading ours back.
          expect(floats32(mine)).toEqual(floats32(toJson(desc, theirs, { registry })));
          const back = fromJson(desc, mine as JsonValue, { registry });
          // Extensions read from JSON land in protobuf-es's unknown fields in JSON order: compared as protobuf-es's
          // JSON then (through binary first: its fromJson keeps a float field's text as an unrounded double).
          if (hasExtensions(value)) {
            const backBinary = fromBinary(desc, toBinary(desc, back), { readUnknownFields: true });
            expect(toJson(desc, backBinary, { registry })).toEqual(toJson(desc, theirs, { registry }));
          } else expect(hex(toBinary(desc, back))).toBe(hex(bytes));
        }),
        { numRuns: 10 },
      );
    }
    // The comparison is not vacuous: most random messages have content.
    expect(nonEmpty).toBeGreaterThan(own.length * 5);
  });
});

/** Whether a value (of our generated types) sets an extension anywhere inside. */
function hasExtensions(v: unknown): boolean {
  if (v === null || typeof v !== "object" || v instanceof Uint8Array) return false;
  if (Array.isArray(v)) return v.some(hasExtensions);
  return Object.entries(v).some(([k, x]) => (k === "$extensions" && x !== undefined) || hasExtensions(x));
}

/** JSON with every number rounded to 32-bit float precision (exactness is checked by reading our JSON back). */
function floats32(v: unknown): unknown {
  if (typeof v === "number") return Math.fround(v);
  if (Array.isArray(v)) return v.map(floats32);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, floats32(x)]));
  return v;
}
