/**
 * The fuzz properties (test/fuzz/properties.ts) with a fixed seed and few runs, so the normal test run is
 * deterministic. `npm run fuzz -- --seconds N` runs the same properties with fresh seeds for longer.
 */
import fc from "fast-check";
import { describe, it } from "vitest";
import { fuzzProperties } from "./properties.js";

/** The seed of the normal test run; a failure prints it with the counterexample's path, so it replays exactly. */
export const FUZZ_SEED = 20240606;

describe("codec fuzzing (fixed seed)", () => {
  for (const p of fuzzProperties()) {
    it(p.name, () => {
      fc.assert(p.property, { seed: FUZZ_SEED, numRuns: p.numRuns });
    });
  }
});
