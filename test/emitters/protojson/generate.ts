import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Int64Mode } from "../../../src/emitters/types/context.js";
import { nodeSpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";
import { REPO, SHARED } from "../../helpers/seeds.js";

export const CORPUS_PROTO = path.join(SHARED, "corpus/proto");
export const CORPUS_DATA = path.join(SHARED, "corpus/data");
const RUNTIME = path.join(REPO, "src/runtime/index.ts");

/**
 * Generate a spec with the current emitters into a fresh temp folder (runtime imported from src/) and import its
 * index. Generated code is what users run, so tests exercise it rather than the emitter's text.
 */
export async function importGenerated<T = Record<string, any>>(
  spec: string,
  options: { int64?: Int64Mode } = {},
): Promise<T> {
  const root = mkdtempSync(path.join(tmpdir(), "specforge-protojson-"));
  const out = generateSpec(
    { file: spec, display: path.basename(spec), runtimeModule: RUNTIME, ...(options.int64 ? { int64: options.int64 } : {}) },
    nodeSpecHost({ includeDirs: [CORPUS_PROTO] }),
  );
  for (const f of out.files) {
    const file = path.join(root, f.path);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, f.content);
  }
  return (await import(path.join(root, out.dir, "index.ts"))) as T;
}

/** A FileDescriptorSet from protoc (with imports), for @bufbuild/protobuf reflection. */
export function descriptorSet(spec: string): Uint8Array {
  const out = path.join(mkdtempSync(path.join(tmpdir(), "specforge-fds-")), "set.pb");
  execFileSync("protoc", [`-I${path.dirname(spec)}`, `-I${CORPUS_PROTO}`, "--include_imports", `--descriptor_set_out=${out}`, spec]);
  return new Uint8Array(readFileSync(out));
}
