import { expect, it } from "vitest";
import { directoryIds } from "./directory-corpus.js";
import { knownFailures, sample, SAMPLE_SIZE } from "./sample.js";

it("the sample is fixed: as many APIs as it says, all in the directory", () => {
  const ids = sample();
  expect(ids).toHaveLength(SAMPLE_SIZE);
  expect(new Set(ids).size).toBe(SAMPLE_SIZE);
  const all = new Set(directoryIds());
  expect(ids.filter((id) => !all.has(id))).toEqual([]);
  // The same ids in the same order on every call (nothing depends on file-system order or time).
  expect(sample()).toEqual(ids);
});

it("every known failure is an API of the sample, with a stage and a reason", () => {
  const ids = new Set(sample());
  for (const [id, entry] of Object.entries(knownFailures())) {
    expect(ids.has(id), `${id} is not in the sample: remove it from known-failures.json`).toBe(true);
    expect(["parse", "generate", "typecheck"]).toContain(entry.stage);
    expect(entry.reason.trim().length, id).toBeGreaterThan(10);
  }
});
