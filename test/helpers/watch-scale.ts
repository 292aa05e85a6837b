/**
 * A watch project of 50 specs made from the real-world corpus: small protos, WSDLs and OpenAPI documents that read
 * no other file, each copied (never into the repo: into a temp folder) under its own name so every copy has its own
 * output folder. Used by test/pipeline/watch-scale.test.ts and its memory child (watch-memory.child.ts).
 */
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { PipelineEvent } from "../../src/pipeline/events.js";
import { SHARED } from "./seeds.js";

const CORPUS = path.join(SHARED, "corpus");
const SOURCES = [
  "proto/bench/vector_tile.proto",
  "proto/bench/bench_common.proto",
  "proto/grpc/health/v1/health.proto",
  "proto/tensorflow/core/example/feature.proto",
  "proto/google/protobuf/duration.proto",
  "proto/google/protobuf/wrappers.proto",
  "wsdl/eu-vies-checkVatService.wsdl",
  "wsdl/zeep-soap.wsdl",
  "wsdl/xsdata-calculator.wsdl",
  "openapi/oai/v3.0-petstore.yaml",
];
export const SPEC_COUNT = 50;

/** specs/s00-vector_tile.proto ... specs/s49-v3.0-petstore.yaml, and a config reading specs/ into gen/. */
export function makeScaleProject(root: string): string[] {
  mkdirSync(path.join(root, "specs"), { recursive: true });
  writeFileSync(path.join(root, "specforge.config.json"), JSON.stringify({ specs: ["specs"], out: "gen" }));
  const specs: string[] = [];
  for (let i = 0; i < SPEC_COUNT; i++) {
    const source = SOURCES[i % SOURCES.length]!;
    const name = `s${String(i).padStart(2, "0")}-${path.basename(source)}`;
    copyFileSync(path.join(CORPUS, source), path.join(root, "specs", name));
    specs.push(`specs/${name}`);
  }
  return specs.sort();
}

/** Wait (bounded by a count of polls, not by assuming speed) until an event after `from` matches. */
export async function waitForEvent(events: readonly PipelineEvent[], from: number, match: (e: PipelineEvent) => boolean, polls = 3000): Promise<PipelineEvent> {
  for (let i = 0; i < polls; i++) {
    const found = events.slice(from).find(match);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no matching event after ${polls} polls; events: ${JSON.stringify(events.slice(from)).slice(0, 2000)}`);
}
