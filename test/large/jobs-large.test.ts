import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { generate, generateInWorkers } from "../../src/api.js";
import { corpusRunOptions, corpusSpecs, filesOf } from "../helpers/corpus-run.js";

/** The rest of the corpus for --jobs (test/pipeline/jobs.test.ts): Stripe and DigitalOcean, one per worker. */
const out = mkdtempSync(path.join(tmpdir(), "specforge-jobs-large-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

it("--jobs 2 generates Stripe and DigitalOcean byte-identically to a serial run", async () => {
  const specs = corpusSpecs("large");
  expect(specs).toHaveLength(2);
  const serial = filesOf(generate({ ...corpusRunOptions(specs, out), dryRun: true }));
  const parallel = filesOf(await generateInWorkers({ ...corpusRunOptions(specs, out), dryRun: true, jobs: 2 }));
  expect([...parallel.keys()]).toEqual([...serial.keys()]);
  for (const [file, content] of serial) expect(parallel.get(file) === content, file).toBe(true);
});
