/**
 * The protovalidate agreement harness: the same .proto compiled by protoc (with buf/validate/validate.proto taken
 * from @bufbuild/protovalidate's embedded descriptor) for @bufbuild/protovalidate + @bufbuild/protobuf, and generated
 * by specforge; random and edge-case messages built with protobuf-es reflection, encoded, decoded by specforge's
 * codec, and validated by both. Verdicts are compared as sorted lists of `field path | rule id` strings.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { create, createFileRegistry, fromBinary, toBinary, type DescField, type DescMessage, type FileRegistry } from "@bufbuild/protobuf";
import {
  file_google_protobuf_any,
  file_google_protobuf_descriptor,
  file_google_protobuf_duration,
  file_google_protobuf_field_mask,
  file_google_protobuf_timestamp,
  file_google_protobuf_wrappers,
  FileDescriptorSetSchema,
} from "@bufbuild/protobuf/wkt";
import type { Path } from "@bufbuild/protobuf/reflect";
import { createValidator, type Validator } from "@bufbuild/protovalidate";
import { file_buf_validate_validate } from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";
import { nodeSpecHost } from "../../../../src/parsers/host.js";
import { generateFromDocument, generateSpec } from "../../../../src/pipeline/generate-files.js";
import { lowerDescriptors } from "../../../../src/parsers/proto-descriptors/index.js";
import { REPO, SHARED } from "../../../helpers/seeds.js";

/**
 * What specforge needs of buf/validate/validate.proto: the package, and the rule messages (with extension ranges, so
 * that predefined rules can extend them). It reads only the option names.
 */
export const BUF_VALIDATE_STUB = `syntax = "proto2";\npackage buf.validate;\nmessage FloatRules { extensions 1000 to max; } message DoubleRules { extensions 1000 to max; } message Int32Rules { extensions 1000 to max; } message Int64Rules { extensions 1000 to max; } message UInt32Rules { extensions 1000 to max; } message UInt64Rules { extensions 1000 to max; } message SInt32Rules { extensions 1000 to max; } message SInt64Rules { extensions 1000 to max; } message Fixed32Rules { extensions 1000 to max; } message Fixed64Rules { extensions 1000 to max; } message SFixed32Rules { extensions 1000 to max; } message SFixed64Rules { extensions 1000 to max; } message BoolRules { extensions 1000 to max; } message StringRules { extensions 1000 to max; } message BytesRules { extensions 1000 to max; } message EnumRules { extensions 1000 to max; } message RepeatedRules { extensions 1000 to max; } message MapRules { extensions 1000 to max; } message AnyRules { extensions 1000 to max; } message DurationRules { extensions 1000 to max; } message FieldMaskRules { extensions 1000 to max; } message TimestampRules { extensions 1000 to max; }\n`;

const RUNTIME = path.join(REPO, "src/runtime/index.ts");
const CORPUS_PROTO = path.join(SHARED, "corpus/proto");

export interface Agreement {
  readonly registry: FileRegistry;
  readonly validator: Validator;
  readonly generated: Record<string, any>;
  readonly specWarnings: readonly string[];
  remove(): void;
}

/**
 * Generate `entry` (a .proto in `dir`) both ways; `oracleEntry` (default: the same file) is what protoc compiles
 * for protovalidate-es, e.g. a protovalidate twin of a protoc-gen-validate file with the same messages.
 */
export async function prepare(dir: string, entry: string, oracleEntry = entry, frontEnd: "text" | "descriptors" = "text", dates: "string" | "Date" = "string"): Promise<Agreement> {
  const root = mkdtempSync(path.join(tmpdir(), "specforge-pv-"));
  // protoc: validate.proto and the well-known types from descriptors, the fixture from its folder.
  const deps = [file_google_protobuf_descriptor, file_google_protobuf_duration, file_google_protobuf_timestamp, file_google_protobuf_field_mask, file_google_protobuf_any, file_google_protobuf_wrappers, file_buf_validate_validate];
  const setIn = path.join(root, "deps.binpb");
  writeFileSync(setIn, toBinary(FileDescriptorSetSchema, create(FileDescriptorSetSchema, { file: deps.map((f) => f.proto) })));
  const setOut = path.join(root, "out.binpb");
  execFileSync("protoc", [`--descriptor_set_in=${setIn}`, `-I${dir}`, "--include_imports", `--descriptor_set_out=${setOut}`, oracleEntry], { timeout: 30_000 });
  const descriptorSet = fromBinary(FileDescriptorSetSchema, readFileSync(setOut));
  const registry = createFileRegistry(descriptorSet);
  // specforge: the option names are what it reads; validate.proto's own messages need not be generated.
  const stub = path.join(root, "stub");
  mkdirSync(path.join(stub, "buf/validate"), { recursive: true });
  writeFileSync(path.join(stub, "buf/validate/validate.proto"), BUF_VALIDATE_STUB);
  mkdirSync(path.join(stub, "validate"), { recursive: true });
  writeFileSync(path.join(stub, "validate/validate.proto"), 'syntax = "proto2";\npackage validate;\n');
  const spec = { file: path.join(dir, entry), display: entry, runtimeModule: RUNTIME, dates };
  // "descriptors": what protoc-gen-specforge sees (protoc's descriptors, with the real validate.proto).
  const out = frontEnd === "descriptors"
    ? generateFromDocument(lowerDescriptors(descriptorSet.file, entry), spec)
    : generateSpec(spec, nodeSpecHost({ includeDirs: [dir, stub, CORPUS_PROTO] }));
  const gen = path.join(root, "gen");
  for (const f of out.files) {
    const file = path.join(gen, f.path);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, f.content);
  }
  const generated = (await import(path.join(gen, out.dir, "index.ts"))) as Record<string, any>;
  return {
    registry,
    validator: createValidator({ registry }),
    generated,
    specWarnings: out.warnings.map((w) => `${w.file}:${w.line}:${w.column}: ${w.detail}`),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** protovalidate's field path as specforge writes it: names, `[index]`, `["key"]` / `[1]` / `[true]`. */
export function pathString(p: Path): string {
  let out = "";
  for (const e of p) {
    if (e.kind === "list_sub") out += `[${e.index}]`;
    else if (e.kind === "map_sub") out += `[${typeof e.key === "string" ? JSON.stringify(e.key) : String(e.key)}]`;
    else if (e.kind === "extension") out += (out ? "." : "") + `[${e.typeName}]`;
    else out += (out ? "." : "") + e.name;
  }
  return out;
}

export interface Verdicts {
  readonly ours: string[];
  readonly theirs: string[];
}

/** Both verdicts on one protobuf-es message (sorted "field | rule" lines; map-key violations marked). */
export function verdicts(a: Agreement, desc: DescMessage, message: any): Verdicts {
  const bytes = toBinary(desc, message);
  const ours: any = a.generated[`decode${desc.name}`](bytes);
  const issues: any[] = a.generated[`validate${desc.name}`](ours);
  const mine = issues.filter((i) => i.field !== undefined).map((i) => `${i.field} | ${i.rule}${i.forKey ? " (key)" : ""}`);
  const result = a.validator.validate(desc, message);
  // protovalidate-es stops at a runtime error (it has no violation to report): one line stands for it.
  if (result.kind === "error") return { ours: mine.sort(), theirs: [`runtime error: ${result.error.message}`] };
  const theirs = (result.violations ?? []).map((v) => `${pathString(v.field)} | ${v.ruleId}${v.forKey ? " (key)" : ""}`);
  return { ours: mine.sort(), theirs: theirs.sort() };
}

// ---- random and edge-case messages --------------------------------------------------------------------------

/** A small deterministic PRNG (mulberry32), so failures reproduce from the seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STRINGS = [
  "", "a", "ab", "abc", "abcd", "abcdefghij", "é", "éé", "日本語", "😀", "😀😀", "x", "y", "fixed", "forbidden", "mid", "abmidyz", "bad",
  "user@example.com", "not-an-email", "a@b", "a@b.c", "a.b@ex-ample.org", "@x.com", "x@", "a@-b.com", "a@b_c.com",
  "example.com", "-bad.com", "a.b.c", "123", "a.123", "localhost", "ex..com", "ex.com.", "xn--d1acufc.xn--p1ai",
  "127.0.0.1", "256.1.1.1", "1.2.3", "01.2.3.4", "::1", "::", "2001:db8::1", "2001:db8::g", "fe80::1%eth0", "::ffff:1.2.3.4", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8:9",
  "192.168.0.0/16", "192.168.0.1/16", "10.0.0.0/33", "2001:db8::/32", "2001:db8::1/64", "::/0", "0.0.0.0/0", "1.2.3.4/08",
  "http://example.com/path?q=1#f", "https://user:pw@host:8080/p/a/t/h?query=1#frag", "/relative/path", "rel/path", "mailto:x@y.z", "http://[::1]:80/",
  "http://a b", "%zz", "http://ex.com/%e2%82%ac", "http://ex.com/%ff", "urn:isbn:0451450523", "//host/x", "?q", "#f", "1http://x", "http://[v1.x]/",
  "example.com:8080", "[::1]:443", "1.2.3.4:65535", "1.2.3.4:65536", "host:", "host", ":80", "ex.com:080",
  "01ARZ3NDEKTSV4RRFFQ69G5FAV", "81ARZ3NDEKTSV4RRFFQ69G5FAV", "550e8400-e29b-41d4-a716-446655440000", "550e8400e29b41d4a716446655440000", "550e8400-e29b-41d4-a716",
  "foo.bar", ".foo.bar", "foo..bar", "_x.y1", "1x",
  "Content-Type", ":authority", "bad header", "x\u0000y", "tab\tok", "line\nbreak", "del\u007f",
  "ab", "abyz", "a1", "A1", "a", "aaaaaaaaa", "a\u{10000}b",
];

const BYTES = [
  [], [0], [1, 2], [1, 2, 3], [1, 2, 3, 4], [0xff], [1, 2, 0xff], [0x61, 0x62], [0x78, 0x61, 0x62, 0x79], [5], [9, 8], [0xc3], [0x61, 0x62, 0x63], [0x41],
  Array.from({ length: 16 }, (_, i) => i), [127, 0, 0, 1],
].map((b) => new Uint8Array(b));

const INT_EDGES = [0, 1, -1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 49, 50, 51, 99, 100, 101, 150, 151, -2, -3, -4, -5, -6, 63, 64, 65, 0x7fffffff, -0x80000000, 4294967295];
const BIG_EDGES = [0n, 1n, -1n, 4n, 5n, 6n, 64n, 65n, 99n, 100n, 9007199254740993n, -9000000000n, -8999999999n, 8999999999n, 9000000000n, 18000000000000000000n, 17999999999999999999n, 18446744073709551615n, 9223372036854775807n, -9223372036854775808n];
const FLOAT_EDGES = [0, -0, 0.1, 0.10000000149011612, 0.5, 1, 1.25, 1.5, 1.4999999, 2, 2.5, -2.5, -2.6, 3, 10, -10, 99.99, 100, 100.5, NaN, Infinity, -Infinity, 1e-40, 3.4e38];
const SECONDS = [0n, 1n, -1n, -2n, 2n, 3n, 3599n, 3600n, 4102444800n, 4102444801n, -62135596800n];
const NANOS = [0, 1, 500000000, 999999999];
const MASK_PATHS = ["a", "b", "b.c", "b.c.d", "b.d", "secret", "secret.x", "secrets", "a.b"];
const TYPE_URLS = ["type.googleapis.com/specforge.pv.v1.Item", "type.googleapis.com/google.protobuf.Duration", "", "x/y"];

function pick<T>(r: () => number, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)]!;
}

/** A random protobuf-es message of `desc` (depth-limited). */
export function randomMessage(r: () => number, desc: DescMessage, depth = 0): any {
  const init: Record<string, unknown> = {};
  if (desc.typeName === "google.protobuf.Duration" || desc.typeName === "google.protobuf.Timestamp") {
    const neg = desc.typeName === "google.protobuf.Duration" && r() < 0.2;
    const seconds = pick(r, SECONDS);
    return create(desc, { seconds: desc.typeName === "google.protobuf.Timestamp" && seconds < 0n ? 0n : seconds, nanos: neg && seconds <= 0n ? -pick(r, NANOS) : seconds < 0n ? 0 : pick(r, NANOS) } as never);
  }
  if (desc.typeName === "google.protobuf.Any") return create(desc, { typeUrl: pick(r, TYPE_URLS), value: new Uint8Array(0) } as never);
  if (desc.typeName === "google.protobuf.FieldMask") {
    return create(desc, { paths: Array.from({ length: Math.floor(r() * 3) }, () => pick(r, MASK_PATHS)) } as never);
  }
  for (const member of desc.members) {
    if (member.kind === "oneof") {
      if (r() < 0.3) continue;
      const f = pick(r, member.fields);
      init[member.localName] = { case: f.localName, value: singular(r, f, depth) };
      continue;
    }
    const f = member;
    if (f.fieldKind === "list") {
      if (r() < 0.3 || (f.listKind === "message" && depth > 2)) continue;
      const n = Math.floor(r() * 5);
      init[f.localName] = Array.from({ length: n }, () => listItem(r, f, depth));
    } else if (f.fieldKind === "map") {
      if (r() < 0.3 || (f.mapKind === "message" && depth > 2)) continue;
      const n = Math.floor(r() * 4);
      const m: Record<string, unknown> = {};
      for (let i = 0; i < n; i++) m[String(mapKey(r, f))] = mapValue(r, f, depth);
      init[f.localName] = m;
    } else {
      if (r() < (f.presence === 2 /* IMPLICIT */ ? 0.2 : 0.4)) continue;
      if (f.fieldKind === "message" && depth > 2) continue;
      init[f.localName] = singular(r, f, depth);
    }
  }
  return create(desc, init as never);
}

function singular(r: () => number, f: DescField, depth: number): unknown {
  switch (f.fieldKind) {
    case "scalar":
      return scalar(r, f.scalar);
    case "enum":
      return r() < 0.15 ? 99 : pick(r, f.enum.values).number;
    case "message":
      // protobuf-es holds wrapper fields (google.protobuf.Int32Value, ...) unwrapped.
      if (f.message.typeName.startsWith("google.protobuf.") && f.message.typeName.endsWith("Value") && f.message.fields.length === 1 && f.message.fields[0]!.fieldKind === "scalar") {
        return scalar(r, f.message.fields[0]!.scalar);
      }
      return randomMessage(r, f.message, depth + 1);
    default:
      throw new Error("not singular");
  }
}

function listItem(r: () => number, f: DescField & { fieldKind: "list" }, depth: number): unknown {
  if (f.listKind === "scalar") return scalar(r, f.scalar);
  if (f.listKind === "enum") return r() < 0.15 ? 99 : pick(r, f.enum.values).number;
  return randomMessage(r, f.message, depth + 1);
}

function mapKey(r: () => number, f: DescField & { fieldKind: "map" }): unknown {
  const k = scalar(r, f.mapKey);
  return typeof k === "number" ? Math.trunc(k) : k;
}

function mapValue(r: () => number, f: DescField & { fieldKind: "map" }, depth: number): unknown {
  if (f.mapKind === "scalar") return scalar(r, f.scalar);
  if (f.mapKind === "enum") return pick(r, f.enum.values).number;
  return depth > 2 ? create(f.message) : randomMessage(r, f.message, depth + 1);
}

// ScalarType numbers: DOUBLE 1, FLOAT 2, INT64 3, UINT64 4, INT32 5, FIXED64 6, FIXED32 7, BOOL 8, STRING 9, BYTES 12, UINT32 13, SFIXED32 15, SFIXED64 16, SINT32 17, SINT64 18
function scalar(r: () => number, t: number): unknown {
  switch (t) {
    case 1:
      return pick(r, FLOAT_EDGES);
    case 2:
      return Math.fround(pick(r, FLOAT_EDGES));
    case 3:
    case 16:
    case 18: {
      const v = pick(r, BIG_EDGES);
      return v > 9223372036854775807n ? 9223372036854775807n : v;
    }
    case 4:
    case 6: {
      const v = pick(r, BIG_EDGES);
      return v < 0n ? -v > 18446744073709551615n ? 0n : -v : v;
    }
    case 5:
    case 15:
    case 17: {
      const v = pick(r, INT_EDGES);
      return v > 0x7fffffff ? 0x7fffffff : v;
    }
    case 7:
    case 13:
      return Math.abs(pick(r, INT_EDGES)) >>> 0;
    case 8:
      return r() < 0.5;
    case 9:
      return pick(r, STRINGS);
    case 12:
      return pick(r, BYTES);
    default:
      throw new Error(`scalar ${t}`);
  }
}
