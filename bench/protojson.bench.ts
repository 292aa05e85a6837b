/**
 * ProtoJSON (parsed JSON values, text parsing excluded): our generated toJson/fromJson against protobufjs
 * (toObject/fromObject with JSON conventions) and @bufbuild/protobuf (reflection over a protoc descriptor set), on
 * the spinn3r content-feed payloads. Generated code goes to bench/.cache/protojson (gitignored), rebuilt every run.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createFileRegistry, fromBinary, fromJson, toJson, type JsonValue } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import protobuf from "protobufjs";
import { nodeSpecHost } from "../src/parsers/host.js";
import { generateSpec } from "../src/pipeline/generate-files.js";
import { compare, type BenchResult, type BenchSuite } from "./harness.js";

const REPO = path.resolve(import.meta.dirname, "..");
const CORPUS = path.resolve(REPO, "../shared/corpus");
const CACHE = path.join(import.meta.dirname, ".cache", "protojson");
const SPEC = path.join(REPO, "specs/content.proto");
const PAYLOADS = ["spinn3r_test2", "spinn3r_test3"];

async function generated(): Promise<Record<string, (...args: any[]) => any>> {
  const out = generateSpec({ file: SPEC, display: "specs/content.proto", runtimeModule: path.join(REPO, "src/runtime/index.ts") }, nodeSpecHost());
  for (const f of out.files) {
    const file = path.join(CACHE, f.path);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, f.content);
  }
  return import(path.join(CACHE, out.dir, "index.ts"));
}

function bufbuildSchema() {
  const set = path.join(CACHE, "content.pb");
  mkdirSync(CACHE, { recursive: true });
  execFileSync("protoc", [`-I${path.dirname(SPEC)}`, "--include_imports", `--descriptor_set_out=${set}`, SPEC]);
  const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, new Uint8Array(readFileSync(set))));
  return registry.getMessage("contentApi.Response")!;
}

export const suite: BenchSuite = {
  name: "protojson",
  async run(): Promise<BenchResult[]> {
    const ours = await generated();
    const desc = bufbuildSchema();
    const Response = protobuf.loadSync(SPEC).lookupType("contentApi.Response");
    const pbjsJson = { longs: String, bytes: String, enums: String, json: true };
    const results: BenchResult[] = [];
    for (const name of PAYLOADS) {
      const bytes = new Uint8Array(readFileSync(path.join(CORPUS, "data", `${name}.protobuf`)));
      const mine = ours["decodeResponse$"]!(bytes);
      const theirs = Response.decode(bytes);
      const buf = fromBinary(desc, bytes);
      const json = ours["toJsonResponse$"]!(mine) as JsonValue;
      results.push(
        compare(`protojson toJson ${name}`, () => ours["toJsonResponse$"]!(mine), {
          protobufjs: () => Response.toObject(theirs, pbjsJson),
          "@bufbuild/protobuf": () => toJson(desc, buf),
        }),
        compare(`protojson fromJson ${name}`, () => ours["fromJsonResponse$"]!(json), {
          protobufjs: () => Response.fromObject(json as Record<string, unknown>),
          "@bufbuild/protobuf": () => fromJson(desc, json),
        }),
      );
    }
    return results;
  },
};
