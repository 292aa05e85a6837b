/**
 * Protobuf binary decode/encode: our generated codecs against protobufjs static code (pbjs -t static-module),
 * @bufbuild/protobuf (reflection over a protoc descriptor set) and Mapbox's pbf (its compiled reader/writer), on real
 * payloads. Generated code of all of them goes to bench/.cache/ (gitignored), rebuilt on every run.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createFileRegistry, fromBinary, toBinary, type DescMessage } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { PbfReader, PbfWriter } from "pbf";
import protobuf from "protobufjs";
import { emitProtobufCodecs } from "../src/emitters/protobuf/emit-codec.js";
import { emitTypes } from "../src/emitters/types/emit-types.js";
import { assignNames } from "../src/naming/assign-names.js";
import { nodeSpecHost } from "../src/parsers/host.js";
import { loadSpec } from "../src/pipeline/load-spec.js";
import { compare, runCasesIsolated, runIsolatedCaseIfChild, type BenchResult, type BenchSuite } from "./harness.js";

const REPO = path.resolve(import.meta.dirname, "..");
const CORPUS = path.resolve(REPO, "../shared/corpus");
const CACHE = path.join(import.meta.dirname, ".cache", "protobuf");
const require = createRequire(import.meta.url);

interface Case {
  /** Short name of the payload in results. */
  readonly name: string;
  readonly proto: string;
  readonly includeDir: string;
  /** Full proto name of the root message. */
  readonly message: string;
  readonly bytes: () => Uint8Array;
}

const corpusData = (file: string) => () => new Uint8Array(readFileSync(path.join(CORPUS, "data", file)));

const CASES: readonly Case[] = [
  { name: "spinn3r_test2", proto: path.join(REPO, "specs/content.proto"), includeDir: path.join(REPO, "specs"), message: "contentApi.Response", bytes: corpusData("spinn3r_test2.protobuf") },
  { name: "spinn3r_test3", proto: path.join(REPO, "specs/content.proto"), includeDir: path.join(REPO, "specs"), message: "contentApi.Response", bytes: corpusData("spinn3r_test3.protobuf") },
  { name: "vector_tile", proto: path.join(CORPUS, "proto/bench/vector_tile.proto"), includeDir: path.join(CORPUS, "proto"), message: "vector_tile.Tile", bytes: corpusData("vector_tile.bin") },
  { name: "buf_perf", proto: path.join(CORPUS, "proto/bench/perf.proto"), includeDir: path.join(CORPUS, "proto"), message: "perf.v1.PerfMessage", bytes: corpusData("buf_perf_payload.bin") },
  { name: "bench_common", proto: path.join(CORPUS, "proto/bench/bench_common.proto"), includeDir: path.join(CORPUS, "proto"), message: "Test", bytes: benchCommonBytes },
];

/** The bench_common message is given as JSON: build it with protobufjs and encode it. */
function benchCommonBytes(): Uint8Array {
  const root = protobuf.loadSync(path.join(CORPUS, "proto/bench/bench_common.proto"));
  const Test = root.lookupType("Test");
  const json: unknown = JSON.parse(readFileSync(path.join(CORPUS, "data/bench_common.json"), "utf8"));
  return Test.encode(Test.fromObject(json as Record<string, unknown>)).finish();
}

type Codec = { encode(m: unknown): Uint8Array; decode(b: Uint8Array): unknown };

/** Our generated code for a proto, written under .cache and imported. */
async function ours(c: Case, slot: string): Promise<Codec> {
  const doc = loadSpec(c.proto, nodeSpecHost({ includeDirs: [c.includeDir] }));
  const names = assignNames(doc);
  const dir = path.join(CACHE, "ours", slot);
  mkdirSync(dir, { recursive: true });
  const runtime = path.relative(dir, path.join(REPO, "src/runtime/index.js")).split(path.sep).join("/");
  const ctx = { doc, names, dir: "x", source: path.basename(c.proto), int64: "bigint" as const, runtimeModule: runtime };
  for (const g of [emitTypes(doc, names, { dir: "x", source: ctx.source, int64: "bigint" }), emitProtobufCodecs(ctx)]) {
    writeFileSync(path.join(dir, path.basename(g.path)), g.render());
  }
  const mod = (await import(pathToFileURL(path.join(dir, "protobuf.ts")).href)) as Record<string, (x: never) => never>;
  const t = doc.types.find((x) => x.id === `proto:.${c.message}`);
  if (!t) throw new Error(`no ${c.message} in ${c.proto}`);
  // The functions' names from the naming pass (a type named `Response$` has `encodeResponse`, not `encodeResponse$`).
  const encode = mod[names.derived(t.id, "encode")];
  const decode = mod[names.derived(t.id, "decode")];
  if (!encode || !decode) throw new Error(`no encode/decode functions for ${c.message} in ${dir}/protobuf.ts`);
  return { encode: encode as Codec["encode"], decode: decode as Codec["decode"] };
}

/** protobufjs static code (what `pbjs -t static-module` generates), CommonJS under .cache. */
function protobufjsStatic(c: Case, slot: string): Codec {
  const dir = path.join(CACHE, "pbjs");
  mkdirSync(dir, { recursive: true });
  const out = path.join(dir, `${slot}.cjs`);
  const pbjs = path.join(REPO, "node_modules/.bin/pbjs");
  execFileSync(pbjs, ["-t", "static-module", "-w", "commonjs", "--no-comments", "-p", c.includeDir, "-o", out, c.proto]);
  let t = require(out) as Record<string, unknown>;
  for (const part of c.message.split(".")) t = t[part] as Record<string, unknown>;
  const type = t as unknown as { encode(m: unknown): { finish(): Uint8Array }; decode(b: Uint8Array): unknown };
  return { encode: (m) => type.encode(m).finish(), decode: (b) => type.decode(b) };
}

/** @bufbuild/protobuf with reflection over protoc's descriptor set. */
function bufbuild(c: Case, slot: string): Codec {
  const dir = path.join(CACHE, "bufbuild");
  mkdirSync(dir, { recursive: true });
  const out = path.join(dir, `${slot}.binpb`);
  execFileSync("protoc", [`-I${c.includeDir}`, "--include_imports", `--descriptor_set_out=${out}`, path.relative(c.includeDir, c.proto)], { cwd: c.includeDir });
  const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, new Uint8Array(readFileSync(out))));
  const desc: DescMessage | undefined = registry.getMessage(c.message);
  if (!desc) throw new Error(`no ${c.message} in the descriptor set`);
  return { encode: (m) => toBinary(desc, m as never), decode: (b) => fromBinary(desc, b) };
}

/**
 * Mapbox's pbf with the reader/writer its own compiler (`pbf file.proto`, the package's bin) writes for the proto,
 * ESM under .cache. pbf is the reference for vector tiles; it is a peer on the other payloads too, as the fastest
 * of the small decoders. It does less than the others, which favours it: 64-bit integers are plain numbers
 * (precision lost above 2^53: spinn3r's identifiers), proto2 fields have no presence and a field equal to its
 * default is not written (vector_tile's required `version = 1` is left out: protoc rejects its output), and a
 * proto3 oneof writes every member, set or not (buf_perf encodes 190 bytes more than its input).
 */
async function pbf(c: Case, slot: string): Promise<Codec> {
  const dir = path.join(CACHE, "pbf");
  mkdirSync(dir, { recursive: true });
  const out = path.join(dir, `${slot}.mjs`);
  writeFileSync(out, execFileSync(path.join(REPO, "node_modules/.bin/pbf"), [c.proto], { encoding: "utf8" }));
  const mod = (await import(pathToFileURL(out).href)) as Record<string, Function>;
  // pbf names functions after the message path without the package (vector_tile.Tile -> readTile).
  const name = c.message.split(".").pop()!;
  const read = mod[`read${name}`] as (r: PbfReader) => unknown;
  const write = mod[`write${name}`] as (m: unknown, w: PbfWriter) => void;
  if (!read || !write) throw new Error(`pbf wrote no read${name}/write${name} for ${c.proto}`);
  return {
    decode: (b) => read(new PbfReader(b)),
    encode: (m) => {
      // A writer per call, as pbf's README does: finish() hands out a view of the writer's own buffer.
      const w = new PbfWriter();
      write(m, w);
      return w.finish();
    },
  };
}

/** The measurements of one payload, in this process. */
async function runCase(c: Case): Promise<BenchResult[]> {
  const slot = path.basename(c.proto, ".proto");
  const bytes = c.bytes();
  const us = await ours(c, slot);
  const pbjs = protobufjsStatic(c, slot);
  const buf = bufbuild(c, slot);
  const mapbox = await pbf(c, slot);
  const decoded = { ours: us.decode(bytes), pbjs: pbjs.decode(bytes), buf: buf.decode(bytes), pbf: mapbox.decode(bytes) };
  return [
    compare(`protobuf decode ${c.name} (${bytes.length} B)`, () => us.decode(bytes), {
      "protobufjs-static": () => pbjs.decode(bytes),
      "@bufbuild/protobuf": () => buf.decode(bytes),
      pbf: () => mapbox.decode(bytes),
    }),
    compare(`protobuf encode ${c.name} (${bytes.length} B)`, () => us.encode(decoded.ours), {
      "protobufjs-static": () => pbjs.encode(decoded.pbjs),
      "@bufbuild/protobuf": () => buf.encode(decoded.buf),
      pbf: () => mapbox.encode(decoded.pbf),
    }),
  ];
}

/** Every payload in a child process of its own (see runCasesIsolated). */
const run = async (): Promise<BenchResult[]> => runCasesIsolated(import.meta.url, CASES.map((c) => c.name));

export const suite: BenchSuite = { name: "protobuf", run };

await runIsolatedCaseIfChild(import.meta.url, async (name) => {
  const c = CASES.find((x) => x.name === name);
  if (!c) throw new Error(`no protobuf bench case ${name}`);
  return runCase(c);
});
