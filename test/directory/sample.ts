/**
 * The CI sample of the APIs.guru directory (test/directory/directory-corpus.ts): a fixed set of APIs, each expected
 * to pass (generate every artifact, type-check strict) unless known-failures.json lists it — and a listed API must
 * still fail, at the listed stage, so the list shrinks as fixes land (remove the entry when the test says so).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { directorySample, runApis, type ApiOutcome, type Stage } from "./directory-corpus.js";

/** 160 APIs whose document is at most 150 KB (37 MB of generated TypeScript in all). */
export const SAMPLE_SIZE = 160;
export const SAMPLE_MAX_BYTES = 150_000;
/** Documents per type-checking program: 2 MB of documents, about 9 MB of generated code and 1 GB of checker. */
const BATCH_BYTES = 2_000_000;

export interface KnownFailure {
  readonly stage: Stage;
  readonly reason: string;
}

export function knownFailures(): Record<string, KnownFailure> {
  return JSON.parse(readFileSync(path.join(import.meta.dirname, "known-failures.json"), "utf8")) as Record<string, KnownFailure>;
}

export function sample(): string[] {
  return directorySample(SAMPLE_SIZE, SAMPLE_MAX_BYTES);
}

/** Tests for part `part` (0-based) of `parts` of the sample: a vitest file each, so they run in parallel. */
export function sampleTests(part: number, parts: number): void {
  const all = sample();
  const ids = all.filter((_, i) => i % parts === part);
  const known = knownFailures();
  const outcomes = new Map<string, ApiOutcome>();
  describe(`APIs.guru directory sample, part ${part + 1} of ${parts} (${ids.length} APIs)`, () => {
    beforeAll(() => {
      for (const o of runApis(ids, BATCH_BYTES)) outcomes.set(o.id, o);
    }, 600_000);
    for (const id of ids) {
      const entry = known[id];
      if (entry) {
        it(`${id} still fails (${entry.stage}: ${entry.reason})`, () => {
          const o = outcomes.get(id)!;
          expect(o.ok, `${id} now passes: remove it from test/directory/known-failures.json`).toBe(false);
          expect(o.stage, `${id} now fails at another stage: ${o.error}`).toBe(entry.stage);
        });
      } else {
        it(`${id}: every artifact generates and type-checks strict`, () => {
          const o = outcomes.get(id)!;
          expect(o.ok, `${id} fails at ${o.stage} (${o.cause}): ${o.error}`).toBe(true);
        });
      }
    }
  });
}
