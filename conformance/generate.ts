import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { nodeSpecHost } from "../src/parsers/host.js";
import { generateSpec } from "../src/pipeline/generate-files.js";

/**
 * The testee runs on our own generated code for the conformance protocol and the suite's test messages. The corpus
 * is never copied into the repo, so the code is generated at startup from the shared corpus into a gitignored
 * folder (with the runtime imported from src/, as tests do).
 */
const REPO = path.resolve(import.meta.dirname, "..");
// One folder per process: the official-suite test and the testee test may run testees at the same time.
export const GENERATED = path.join(import.meta.dirname, ".generated", String(process.pid));
export const CORPUS_PROTO = process.env["SPECFORGE_CORPUS_PROTO"] ?? path.resolve(REPO, "../shared/corpus/proto");

const SPECS = ["conformance/conformance.proto", "google/protobuf/test_messages_proto3.proto", "google/protobuf/test_messages_proto2.proto"];

/** Generate every spec and return the folder of each one's index.ts, in SPECS order. */
export function generateConformanceCode(): string[] {
  rmSync(GENERATED, { recursive: true, force: true });
  process.on("exit", () => rmSync(GENERATED, { recursive: true, force: true }));
  const host = nodeSpecHost({ includeDirs: [CORPUS_PROTO] });
  return SPECS.map((spec) => {
    const out = generateSpec(
      { file: path.join(CORPUS_PROTO, spec), display: spec, runtimeModule: path.join(REPO, "src/runtime/index.ts") },
      host,
    );
    for (const f of out.files) {
      const file = path.join(GENERATED, f.path);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, f.content);
    }
    return path.join(GENERATED, out.dir);
  });
}
