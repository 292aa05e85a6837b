/**
 * The real-world corpus (../shared/corpus proto/, wsdl/, openapi/) as one generate run: every spec as a config
 * entry with its own output folder (several corpus files share a base name), split into the specs that generate
 * today and those that fail (with the message a serial run gives).
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { generate, type GenerateResult } from "../../src/api.js";
import type { SpecEntry } from "../../src/config/options.js";
import type { PipelineEvent } from "../../src/pipeline/events.js";
import { corpusEntries, LARGE_DOCUMENTS, OPENAPI_CORPUS } from "../corpus-openapi/openapi-corpus.js";
import { SHARED } from "./seeds.js";

export const CORPUS = path.join(SHARED, "corpus");
export const PROTO_ROOT = path.join(CORPUS, "proto");

/** Files under `dir` whose names match `ext`, depth first, in name order. */
export function walk(dir: string, ext: RegExp): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p, ext));
    else if (ext.test(name)) out.push(p);
  }
  return out;
}

/** Corpus-relative paths of the specs of one part: "proto", "wsdl", "openapi" (without Stripe/DigitalOcean) or "large". */
export function corpusSpecs(part: "proto" | "wsdl" | "openapi" | "large"): string[] {
  const rel = (p: string) => path.relative(CORPUS, p).split(path.sep).join("/");
  if (part === "proto") return walk(PROTO_ROOT, /\.proto$/).map(rel);
  if (part === "wsdl") return walk(path.join(CORPUS, "wsdl"), /\.(wsdl|xsd)$/).map(rel);
  const openapi = corpusEntries().map((e) => rel(path.join(OPENAPI_CORPUS, e)));
  const large = new Set(LARGE_DOCUMENTS.map((e) => rel(path.join(OPENAPI_CORPUS, e))));
  return part === "large" ? openapi.filter((e) => large.has(e)) : openapi.filter((e) => !large.has(e));
}

/** A config entry per spec, its output folder named after its whole corpus path (unique, readable). */
export function entriesFor(specs: readonly string[]): SpecEntry[] {
  return specs.map((input) => ({ input, out: input.replace(/[^A-Za-z0-9]+/g, "_") }));
}

/** Run options for the corpus: working folder the corpus, `proto/` as the proto path (as protoc -I proto). */
export function corpusRunOptions(specs: readonly string[], out: string) {
  return { cwd: CORPUS, specs: entriesFor(specs), protoPaths: [PROTO_ROOT], out };
}

/** Which of `specs` generate today (each alone, serially), and the error message of the others. */
export function splitByOutcome(specs: readonly string[], out: string): { good: string[]; failing: Map<string, string> } {
  const good: string[] = [];
  const failing = new Map<string, string>();
  for (const spec of specs) {
    try {
      generate({ ...corpusRunOptions([spec], out), dryRun: true });
      good.push(spec);
    } catch (e) {
      failing.set(spec, (e as Error).message);
    }
  }
  return { good, failing };
}

/** Every file of a result, path -> content. */
export function filesOf(result: GenerateResult): Map<string, string> {
  return new Map(result.outputs.flatMap((o) => o.files.map((f) => [f.path, f.content] as const)));
}

/** Events without their timings (the only part allowed to differ between runs). */
export function withoutTimings(events: readonly PipelineEvent[]): unknown[] {
  return events.map((e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== "ms")));
}
