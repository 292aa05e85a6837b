/**
 * `dates: "Date"` on a proto spec: google.protobuf.Timestamp fields are Dates (ts-proto's useDate), in every field
 * position (singular, repeated, map value, oneof member, proto3 optional, nested message). Checked against
 * @bufbuild/protobuf (binary byte for byte via timestampFromDate, ProtoJSON via toJson) and against our own default
 * mode (text format), plus the millisecond boundary and the out-of-Date-range decode error.
 */
import { create, createFileRegistry, fromBinary, toBinary, toJson, type DescMessage, type JsonValue } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema, timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { typecheckFiles } from "../../../helpers/typecheck.js";
import { descriptorSet } from "../../protojson/generate.js";
import { ValueGenerator } from "../../../../src/mock/values.js";
import { DATES_PROTO, generateDates, type DatesOutput } from "./gen.js";

type Gen = Record<string, any>;
let dateOut: DatesOutput;
let gen: Gen;
let plain: Gen;
let desc: DescMessage;

beforeAll(async () => {
  dateOut = generateDates("Date");
  gen = (await import(path.join(dateOut.dir, "index.ts"))) as Gen;
  plain = (await import(path.join(generateDates("string").dir, "index.ts"))) as Gen;
  const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, descriptorSet(DATES_PROTO)));
  desc = registry.getMessage("datestest.Event")!;
}, 120_000);

/** Millisecond-exact instants across the Timestamp range, negative ones with a millisecond part included. */
const INSTANTS = [
  0, 1, -1, 999, -999, 1000, -1000, 1_700_000_000_123, -1_234_567_890_987,
  -62135596800000 /* 0001-01-01 */, Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(1969, 11, 31, 23, 59, 59, 500),
];

/** The same Event as our Date-typed message and as a protobuf-es message. */
function pair(i: number): { ours: Gen; theirs: ReturnType<typeof create> } {
  const d = (k: number) => new Date(INSTANTS[(i + k) % INSTANTS.length]!);
  const ours: Gen = {
    at: d(0),
    history: [d(1), d(2), new Date(0)],
    byName: { a: d(3), "": d(4) },
    when: i % 2 === 0 ? { case: "exact", value: d(5) } : { case: "label", value: "x" },
    maybe: d(6),
    took: { seconds: BigInt(i), nanos: i % 2 === 0 ? 0 : 5 },
    inner: { seen: d(7) },
  };
  const ts = (x: Date) => timestampFromDate(x);
  const theirs = create(desc, {
    at: ts(ours.at),
    history: ours.history.map(ts),
    byName: Object.fromEntries(Object.entries(ours.byName as Record<string, Date>).map(([k, v]) => [k, ts(v)])),
    when: ours.when.case === "exact" ? { case: "exact", value: ts(ours.when.value) } : { case: "label", value: "x" },
    maybe: ts(ours.maybe),
    took: { seconds: ours.took.seconds, nanos: ours.took.nanos },
    inner: { seen: ts(ours.inner.seen) },
  } as any);
  return { ours, theirs };
}

const ms = (d: unknown) => (d as Date).getTime();

describe("dates: Date on a proto spec", () => {
  it("generates Date-typed Timestamp fields that type-check strictly with every artifact", () => {
    const types = dateOut.files.get("dates/types.ts")!;
    expect(types).toMatch(/^  at\?: Date;$/m);
    expect(types).toMatch(/^  history\?: Date\[\];$/m);
    expect(types).toMatch(/^  byName\?: \{ \[key: string\]: Date \};$/m);
    expect(types).toMatch(/\| \{ case: "exact"; value: Date \}/);
    expect(types).toMatch(/^  maybe\?: Date;$/m);
    expect(types).toMatch(/^  took\?: Duration;$/m); // Duration stays a message
    expect([...dateOut.files.keys()].sort()).toEqual(
      ["connect.ts", "index.ts", "protobuf.ts", "protojson.ts", "prototext.ts", "types.ts", "validate.ts"].map((f) => `dates/${f}`),
    );
    expect(typecheckFiles(dateOut.files)).toEqual([]);
  });

  it("leaves the default mode as it was: Timestamp messages", () => {
    const types = generateDates("string").files.get("dates/types.ts")!;
    expect(types).toMatch(/^  at\?: Timestamp;$/m);
    expect(types).not.toMatch(/: Date\b/);
  });

  it("binary: byte for byte what protobuf-es writes for the same instants, and reads its bytes back", () => {
    for (let i = 0; i < INSTANTS.length; i++) {
      const { ours, theirs } = pair(i);
      const bytes = toBinary(desc, theirs);
      expect(gen.encodeEvent(ours), `instant set ${i}`).toEqual(bytes);
      const back = gen.decodeEvent(bytes);
      expect(ms(back.at)).toBe(ms(ours.at));
      expect(back.history.map(ms)).toEqual(ours.history.map(ms));
      expect(Object.fromEntries(Object.entries(back.byName).map(([k, v]) => [k, ms(v)]))).toEqual(
        Object.fromEntries(Object.entries(ours.byName).map(([k, v]) => [k, ms(v)])),
      );
      expect(back.when.case).toBe(ours.when.case);
      if (ours.when.case === "exact") expect(ms(back.when.value)).toBe(ms(ours.when.value));
      expect(ms(back.maybe)).toBe(ms(ours.maybe));
      expect(ms(back.inner.seen)).toBe(ms(ours.inner.seen));
      expect(back.took).toEqual(ours.took);
      // And protobuf-es reads ours as the same instants.
      const their = fromBinary(desc, gen.encodeEvent(ours)) as any;
      expect(timestampDate(their.at).getTime()).toBe(ms(ours.at));
      expect(their.history.map((t: any) => timestampDate(t).getTime())).toEqual(ours.history.map(ms));
    }
  });

  it("binary: the same bytes as the default mode with Timestamp messages", () => {
    for (let i = 0; i < INSTANTS.length; i++) {
      const { ours, theirs } = pair(i);
      const asMessages = plain.decodeEvent(toBinary(desc, theirs));
      expect(plain.encodeEvent(asMessages)).toEqual(gen.encodeEvent(ours));
    }
  });

  it("binary: nanoseconds below the millisecond are dropped (floor), negative seconds too", () => {
    const decodeAt = (seconds: bigint, nanos: number) =>
      ms(gen.decodeEvent(toBinary(desc, create(desc, { at: { seconds, nanos } } as any))).at);
    expect(decodeAt(0n, 999_999)).toBe(0);
    expect(decodeAt(0n, 1_000_000)).toBe(1);
    expect(decodeAt(0n, 1_999_999)).toBe(1);
    expect(decodeAt(-1n, 999_999_999)).toBe(-1);
    expect(decodeAt(-1n, 1)).toBe(-1000);
    expect(decodeAt(253402300799n, 999_999_999)).toBe(253402300799999);
    // A field repeated on the wire merges: the later nanos replace the earlier, seconds kept.
    const twice = new Uint8Array([0x0a, 0x02, 0x08, 0x05, 0x0a, 0x04, 0x10, 0xc0, 0x84, 0x3d]);
    expect(ms(gen.decodeEvent(twice).at)).toBe(5001);
  });

  it("binary: a Timestamp outside a Date's range is a located decode error; an invalid Date does not encode", () => {
    const far = toBinary(desc, create(desc, { at: { seconds: 8_640_000_000_001n, nanos: 0 } } as any));
    expect(() => gen.decodeEvent(far)).toThrow(/outside the range of a Date.*at/s);
    const farBack = toBinary(desc, create(desc, { history: [{ seconds: -8_640_000_000_001n, nanos: 0 }] } as any));
    expect(() => gen.decodeEvent(farBack)).toThrow(gen.ProtobufDecodeError ?? Error);
    // The edge itself (8.64e15 ms) is still a Date.
    const edge = toBinary(desc, create(desc, { at: { seconds: 8_640_000_000_000n, nanos: 0 } } as any));
    expect(ms(gen.decodeEvent(edge).at)).toBe(8.64e15);
    expect(() => gen.encodeEvent({ at: new Date(Number.NaN) })).toThrow(/invalid Date/);
  });

  it("ProtoJSON: the JSON protobuf-es writes, and reads it back to the same instants", () => {
    for (let i = 0; i < INSTANTS.length; i++) {
      const { ours, theirs } = pair(i);
      const json = toJson(desc, theirs) as JsonValue;
      expect(gen.toJsonEvent(ours)).toEqual(json);
      const back = gen.fromJsonEvent(json);
      expect(gen.encodeEvent(back)).toEqual(gen.encodeEvent(ours));
    }
    expect(ms(gen.fromJsonEvent({ at: "1970-01-01T00:00:00.000999999Z" }).at)).toBe(0);
    expect(ms(gen.fromJsonEvent({ at: "1969-12-31T23:59:59.999999999Z" }).at)).toBe(-1);
    expect(ms(gen.fromJsonEvent({ at: "2024-02-29T12:00:00.5+01:00" }).at)).toBe(Date.UTC(2024, 1, 29, 11, 0, 0, 500));
    expect(() => gen.fromJsonEvent({ at: "10000-01-01T00:00:00Z" })).toThrow(/at/);
    expect(() => gen.toJsonEvent({ at: new Date(Date.UTC(10000, 0, 1)) })).toThrow(/out of range/);
  });

  it("text format: prints what the default mode prints for the same instants, and parses back", () => {
    for (let i = 0; i < INSTANTS.length; i++) {
      const { ours, theirs } = pair(i);
      const text = gen.toTextEvent(ours);
      expect(text).toBe(plain.toTextEvent(plain.decodeEvent(toBinary(desc, theirs))));
      expect(text).toMatch(/^at \{/m);
      const parsed = gen.fromTextEvent(text);
      expect(gen.toTextEvent(parsed)).toBe(text);
      expect(ms(parsed.at)).toBe(ms(ours.at));
      expect(parsed.history.map(ms)).toEqual(ours.history.map(ms));
      expect(ms(parsed.byName[""])).toBe(ms(ours.byName[""]));
    }
  });

  it("validators: Dates pass, anything else in a Timestamp field is a type issue", () => {
    for (let i = 0; i < INSTANTS.length; i++) expect(gen.validateEvent(pair(i).ours)).toEqual([]);
    const issues = gen.validateEvent({
      at: { seconds: 1n, nanos: 0 }, history: [new Date(0), "2020-01-01T00:00:00Z"], byName: { k: new Date(Number.NaN) },
      when: { case: "exact", value: 5 }, inner: { seen: null },
    });
    expect(issues.map((x: any) => `${x.path} ${x.rule}`).sort()).toEqual(
      ["/at type", "/byName/k type", "/history/1 type", "/when/value type", "/inner/seen type"].sort(),
    );
  });

  it("mock values: Dates in Timestamp fields, valid, and stable through encode/decode", () => {
    const values = new ValueGenerator(dateOut.doc, { int64: "bigint", dates: "Date" });
    let dates = 0;
    for (let seed = 0; seed < 60; seed++) {
      const v = values.value("proto:.datestest.Event", seed) as Gen;
      expect(gen.validateEvent(v), `seed ${seed}`).toEqual([]);
      const bytes = gen.encodeEvent(v);
      expect(gen.encodeEvent(gen.decodeEvent(bytes))).toEqual(bytes);
      for (const d of [v.at, v.maybe, ...(v.history ?? []), ...Object.values(v.byName ?? {}), v.when?.case === "exact" ? v.when.value : undefined]) {
        if (d === undefined) continue;
        expect(d).toBeInstanceOf(Date);
        dates++;
      }
    }
    expect(dates).toBeGreaterThan(30);
  });

  it.each(["string", "number"] as const)("int64 %s: Dates independent of the 64-bit mode, strict-clean, same bytes", async (int64) => {
    const out = generateDates("Date", int64);
    expect(typecheckFiles(out.files)).toEqual([]);
    const other = (await import(path.join(out.dir, "index.ts"))) as Gen;
    for (let i = 0; i < INSTANTS.length; i++) {
      const { ours } = pair(i);
      const asOther = { ...ours, took: { seconds: int64 === "string" ? String(ours.took.seconds) : Number(ours.took.seconds), nanos: ours.took.nanos } };
      expect(other.encodeEvent(asOther)).toEqual(gen.encodeEvent(ours));
      expect(other.toJsonEvent(asOther)).toEqual(gen.toJsonEvent(ours));
    }
  });

  it("extensions of type Timestamp are Dates too, with the default mode's bytes and text", async () => {
    const spec = path.join(import.meta.dirname, "extensions.proto");
    const out = generateDates("Date", "bigint", spec);
    expect(out.files.get("extensions/types.ts")).toMatch(/"extdates\.whens"\?: Date\[\];/);
    expect(typecheckFiles(out.files)).toEqual([]);
    const ext = (await import(path.join(out.dir, "index.ts"))) as Gen;
    const base = (await import(path.join(generateDates("string", "bigint", spec).dir, "index.ts"))) as Gen;
    const m = { x: 1, $extensions: { "extdates.when": new Date(1234), "extdates.whens": [new Date(-5), new Date(0)] } };
    const asMessages = { x: 1, $extensions: { "extdates.when": { seconds: 1n, nanos: 234_000_000 }, "extdates.whens": [{ seconds: -1n, nanos: 995_000_000 }, { seconds: 0n, nanos: 0 }] } };
    const bytes = ext.encodeHolder(m);
    expect(bytes).toEqual(base.encodeHolder(asMessages));
    const back = ext.decodeHolder(bytes);
    expect(back.$extensions["extdates.when"].getTime()).toBe(1234);
    expect(back.$extensions["extdates.whens"].map(ms)).toEqual([-5, 0]);
    expect(ext.toTextHolder(m)).toBe(base.toTextHolder(asMessages));
    expect(ext.toJsonHolder(m)).toEqual(base.toJsonHolder(asMessages));
  });
});
