import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generate, generateInWorkers } from "../../src/api.js";
import { RunErrors, SpecError } from "../../src/errors.js";
import type { PipelineEvent } from "../../src/pipeline/events.js";
import { MAX_JOBS, parseJobs } from "../../src/pipeline/jobs.js";
import { listFiles } from "../../src/pipeline/write-output.js";
import { corpusRunOptions, corpusSpecs, filesOf, splitByOutcome, withoutTimings } from "../helpers/corpus-run.js";

/**
 * generate --jobs N on the real-world corpus: the worker threads' output is byte for byte the serial run's, the
 * events come in the same order with the same content (timings aside), and a failing spec fails the run with the
 * serial run's error, before anything is written. Stripe and DigitalOcean: test/large/jobs-large.test.ts.
 */
const roots: string[] = [];
afterAll(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});
function tempRoot(): string {
  const root = mkdtempSync(path.join(tmpdir(), "specforge-jobs-"));
  roots.push(root);
  return root;
}

describe("--jobs: parsing", () => {
  it.each([
    [undefined, 1],
    ["1", 1],
    ["2", 2],
    [" 3 ", 3],
    [String(MAX_JOBS), MAX_JOBS],
    ["auto", Math.min(MAX_JOBS, availableParallelism())],
  ])("%j -> %d", (value, jobs) => {
    expect(parseJobs(value)).toBe(jobs);
  });

  it.each(["0", "-1", "1.5", "two", "", String(MAX_JOBS + 1), "1e3"])("refuses %j with what it expects", (value) => {
    expect(() => parseJobs(value)).toThrow(`--jobs: expected a whole number from 1 to ${MAX_JOBS} or "auto", got ${JSON.stringify(value.trim())}`);
  });
});

describe.each(["proto", "wsdl", "openapi"] as const)("--jobs 2 on the corpus: %s/", (part) => {
  const out = tempRoot();
  const { good, failing } = splitByOutcome(corpusSpecs(part), out);

  it("generates byte-identical files, with the same events in the same order", async () => {
    expect(good.length).toBeGreaterThan(5);
    const serialEvents: PipelineEvent[] = [];
    const serial = generate({ ...corpusRunOptions(good, out), dryRun: true, onEvent: (e) => serialEvents.push(e) });
    const workerEvents: PipelineEvent[] = [];
    const parallel = await generateInWorkers({ ...corpusRunOptions(good, out), dryRun: true, jobs: 2, onEvent: (e) => workerEvents.push(e) });

    // One folder per spec: otherwise two specs' files would overwrite each other in the comparison.
    expect(new Set(serial.outputs.map((o) => o.dir)).size).toBe(good.length);
    const want = filesOf(serial);
    const got = filesOf(parallel);
    expect([...got.keys()]).toEqual([...want.keys()]);
    for (const [file, content] of want) expect(got.get(file) === content, file).toBe(true);
    expect(withoutTimings(workerEvents)).toEqual(withoutTimings(serialEvents));
    // The IR comes back from the workers too (library callers read GenerateResult.outputs[].doc).
    expect(parallel.outputs.map((o) => o.doc)).toEqual(serial.outputs.map((o) => o.doc));
  });

  it.runIf(failing.size > 0)("a failing spec fails the run with the serial error, whichever worker finishes first", async () => {
    const [bad, message] = [...failing][0]!;
    // Good specs on both sides, so the bad one is not simply the first to be handed out.
    const specs = [good[0]!, bad, ...good.slice(1, 4)];
    const root = tempRoot();
    let serialError: unknown;
    try {
      generate(corpusRunOptions(specs, root));
    } catch (e) {
      serialError = e;
    }
    expect((serialError as Error).message).toBe(message);
    await expect(generateInWorkers({ ...corpusRunOptions(specs, root), jobs: 2 })).rejects.toThrow(message);
    const error = await generateInWorkers({ ...corpusRunOptions(specs, root), jobs: 3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf((serialError as Error).constructor);
    // Nothing written: not even the specs before the bad one.
    expect(listFiles(root)).toEqual([]);
  });
});

describe("--jobs writes what a serial run writes", () => {
  it("the same folders and bytes on disk", async () => {
    const specs = corpusSpecs("proto").filter((s) => /bench|grpc|tensorflow/.test(s));
    expect(specs.length).toBeGreaterThanOrEqual(5);
    const serialRoot = path.join(tempRoot(), "gen");
    const parallelRoot = path.join(path.dirname(serialRoot), "gen2");
    generate(corpusRunOptions(specs, serialRoot));
    // Same output root name relative to the config base would give the same README import paths: compare per file
    // after mapping the root's name, which is the only thing READMEs mention of it.
    await generateInWorkers({ ...corpusRunOptions(specs, parallelRoot), jobs: 2 });
    const files = listFiles(serialRoot);
    expect(files.length).toBeGreaterThan(20);
    expect(listFiles(parallelRoot)).toEqual(files);
    for (const f of files) {
      const want = readFileSync(path.join(serialRoot, f), "utf8").replaceAll("/gen/", "/gen2/");
      expect(readFileSync(path.join(parallelRoot, f), "utf8") === want, f).toBe(true);
    }
  });

  it("rebuilds every worker's errors with file, line and column, for every failing spec, as a serial run does", async () => {
    const root = tempRoot();
    writeFileSync(path.join(root, "good.proto"), 'syntax = "proto3";\nmessage Good { string a = 1; }\n');
    writeFileSync(path.join(root, "bad.proto"), 'syntax = "proto3";\nmessage Bad {\n  string a = ;\n}\n');
    writeFileSync(path.join(root, "worse.proto"), 'syntax = "proto3";\nmessage Worse {\n  Missing a = 1;\n  Absent b = 2;\n}\n');
    const specs = ["good.proto", "bad.proto", "worse.proto"];
    const serial = (() => {
      try {
        generate({ cwd: root, specs, out: "gen" });
      } catch (e) {
        return e;
      }
    })();
    const events: PipelineEvent[] = [];
    const error = await generateInWorkers({ cwd: root, specs, out: "gen", jobs: 2, onEvent: (e) => events.push(e) }).catch((e: unknown) => e);
    expect(serial).toBeInstanceOf(RunErrors);
    expect(error).toBeInstanceOf(RunErrors);
    expect((error as Error).message).toBe((serial as Error).message);
    const failures = (error as RunErrors).failures;
    expect(failures.map((f) => f.spec)).toEqual(["bad.proto", "worse.proto"]);
    expect(failures[0]!.errors[0]).toBeInstanceOf(SpecError);
    expect(failures[0]!.errors[0]).toMatchObject({ file: "bad.proto", line: 3 });
    expect(failures[1]!.errors.map((e) => (e as SpecError).line)).toEqual([3, 4]);
    expect(events.at(-1)).toMatchObject({ type: "done", ok: false, errors: 3 });
    expect(listFiles(path.join(root, "gen"))).toEqual([]);
  });
});
