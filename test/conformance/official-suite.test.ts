import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { KNOWN_FAILURES, KNOWN_TEXT_FAILURES, readKnownFailures } from "../../conformance/known-failures.js";
import { REPO } from "../helpers/seeds.js";

/**
 * The official protobuf conformance suite (runner v21.12, ../shared/conformance-runner) against our testee
 * (conformance/testee.sh): binary + JSON with recommended tests enforced, then the text-format suite. The runner
 * judges; we only read its exit status and summary lines. scripts/ensure-tools.sh builds the runner into
 * .specforge-cache/ (CI runs it first); this test builds it too if the cache is empty. It skips only where the
 * runner cannot be built and apt-get is absent (a machine that cannot install the runner's build dependencies).
 */
const BINARY_JSON_TESTS = 2017;
const TEXT_FORMAT_TESTS = 120;

interface Summary {
  readonly passed: boolean;
  readonly successes: number;
  readonly skipped: number;
  readonly expectedFailures: number;
  readonly unexpectedFailures: number;
}

/** The runner prints one "CONFORMANCE SUITE PASSED|FAILED: ..." line per suite: binary+JSON first, text format second. */
function summaries(stderr: string): { line: string; summary: Summary }[] {
  const re = /^CONFORMANCE SUITE (PASSED|FAILED): (\d+) successes, (\d+) skipped, (\d+) expected failures, (\d+) unexpected failures\.$/gm;
  return [...stderr.matchAll(re)].map((m) => ({
    line: m[0],
    summary: { passed: m[1] === "PASSED", successes: Number(m[2]), skipped: Number(m[3]), expectedFailures: Number(m[4]), unexpectedFailures: Number(m[5]) },
  }));
}

function hasAptGet(): boolean {
  return spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0;
}

describe("official protobuf conformance suite", () => {
  it.each([KNOWN_FAILURES, KNOWN_TEXT_FAILURES])("every known failure in %s says why", (file) => {
    const entries = readFileSync(file, "utf8").split("\n").filter((l) => l.replace(/#.*/, "").trim() !== "");
    for (const entry of entries) expect(entry, `known failure without a reason: ${entry}`).toMatch(/\S\s*#\s*\S/);
    expect(readKnownFailures(file)).toHaveLength(entries.length);
  });

  // Building the runner takes ~40 s on 2 cores the first time; the suite itself a few seconds.
  it("passes binary+JSON (recommended enforced) and text format with no unexpected failure", { timeout: 600_000 }, (ctx) => {
    const built = spawnSync("bash", [path.join(REPO, "scripts/conformance-runner.sh")], { encoding: "utf8" });
    if (built.status !== 0) {
      if (!hasAptGet() && !process.env["CI"]) {
        ctx.skip(`conformance runner cannot be built here (no apt-get for its build dependencies): ${built.stderr.trim().split("\n").pop()}`);
      }
      throw new Error(`building the conformance runner failed (run scripts/ensure-tools.sh):\n${built.stderr}`);
    }
    const runner = built.stdout.trim();
    // The runner writes failing_tests.txt etc. into its working folder: give it a fresh one.
    const work = mkdtempSync(path.join(tmpdir(), "specforge-conformance-"));
    try {
      const run = spawnSync(
        runner,
        ["--enforce_recommended", "--failure_list", KNOWN_FAILURES, "--text_format_failure_list", KNOWN_TEXT_FAILURES, path.join(REPO, "conformance/testee.sh")],
        { cwd: work, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
      );
      const failing = path.join(work, "failing_tests.txt");
      const detail = `${run.stderr.slice(-4000)}\n${existsSync(failing) ? `failing_tests.txt:\n${readFileSync(failing, "utf8")}` : ""}`;
      const [binaryJson, textFormat] = summaries(run.stderr);
      expect(binaryJson, detail).toBeDefined();
      expect(binaryJson!.summary, `${binaryJson!.line}\n${detail}`).toEqual({
        passed: true,
        successes: BINARY_JSON_TESTS - readKnownFailures(KNOWN_FAILURES).length,
        skipped: 0,
        expectedFailures: readKnownFailures(KNOWN_FAILURES).length,
        unexpectedFailures: 0,
      });
      expect(textFormat, detail).toBeDefined();
      expect(textFormat!.summary, `${textFormat!.line}\n${detail}`).toEqual({
        passed: true,
        successes: TEXT_FORMAT_TESTS - readKnownFailures(KNOWN_TEXT_FAILURES).length,
        skipped: 0,
        expectedFailures: readKnownFailures(KNOWN_TEXT_FAILURES).length,
        unexpectedFailures: 0,
      });
      expect(run.status, detail).toBe(0);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
