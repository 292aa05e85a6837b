/**
 * `specforge generate --json | head -1`: the reader closes the pipe after one line. The CLI stops writing to stdout
 * and finishes the run (exit 0, output written) instead of crashing with an unhandled EPIPE and a stack trace.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { REPO } from "../helpers/seeds.js";

const dir = mkdtempSync(path.join(tmpdir(), "specforge-epipe-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("a closed stdout pipe ends the output, not the run", async () => {
  // Enough specs that the events outlast the pipe's first line by far.
  const specs = Array.from({ length: 30 }, (_, i) => `s${i}.proto`);
  for (const s of specs) writeFileSync(path.join(dir, s), `syntax = "proto3";\nmessage M${s.length} { string a = 1; }\n`);
  const child = spawn(process.execPath, [path.join(REPO, "bin/specforge.js"), "generate", ...specs, "--out", "gen", "--json"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  // Read the first chunk, then close our end, as `head -1` does.
  await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
  child.stdout.destroy();
  const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
  expect(stderr).not.toMatch(/EPIPE|Error|at /);
  expect(code).toBe(0);
  expect(existsSync(path.join(dir, "gen", "s29", "types.ts"))).toBe(true);
}, 120_000);
