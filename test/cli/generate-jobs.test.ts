import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { listFiles } from "../../src/pipeline/write-output.js";
import { runCli } from "../helpers/run-cli.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function project(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "specforge-cli-jobs-"));
  dirs.push(dir);
  mkdirSync(path.join(dir, "specs"));
  for (const name of ["a", "b", "c"]) {
    writeFileSync(path.join(dir, `specs/${name}.proto`), `syntax = "proto3";\npackage ${name};\nmessage ${name.toUpperCase()}x { string v = 1; }\n`);
  }
  writeFileSync(path.join(dir, "specforge.config.json"), JSON.stringify({ specs: ["specs"], out: "gen" }));
  return dir;
}

describe("generate --jobs (CLI)", () => {
  it("writes what --jobs 1 writes, with the same --json lines apart from timings", async () => {
    const dir = project();
    const serial = await runCli(dir, "generate", "--json", "--jobs", "1");
    expect(serial.code).toBe(0);
    const files = listFiles(path.join(dir, "gen"));
    const contents = files.map((f) => readFileSync(path.join(dir, "gen", f), "utf8"));
    rmSync(path.join(dir, "gen"), { recursive: true });

    const parallel = await runCli(dir, "generate", "--json", "-j", "3");
    expect(parallel.code).toBe(0);
    expect(listFiles(path.join(dir, "gen"))).toEqual(files);
    expect(files.map((f) => readFileSync(path.join(dir, "gen", f), "utf8"))).toEqual(contents);
    const lines = (out: string) => out.trim().split("\n").map((l) => JSON.parse(l, (k, v: unknown) => (k === "ms" ? 0 : v)) as { type: string });
    expect(lines(parallel.out)).toEqual(lines(serial.out));
    expect(lines(parallel.out).at(-1)).toMatchObject({ type: "done", ok: true, specs: 3, written: 3 });
  });

  it("a worker's spec error ends the run like a serial one: exit 1, file:line:col, nothing written", async () => {
    const dir = project();
    writeFileSync(path.join(dir, "specs/b.proto"), 'syntax = "proto3";\nmessage B {\n  string v = ;\n}\n');
    const serial = await runCli(dir, "generate");
    const parallel = await runCli(dir, "generate", "--jobs", "2");
    expect(parallel.code).toBe(1);
    expect(parallel.err).toMatch(/specs\/b\.proto:3:\d+: /);
    expect(parallel.err).toBe(serial.err);
    expect(listFiles(path.join(dir, "gen"))).toEqual([]);
  });

  it.each(["0", "many"])("--jobs %s is refused with what it takes", async (value) => {
    const res = await runCli(project(), "generate", "--jobs", value);
    expect(res.code).toBe(1);
    expect(res.err).toContain(`--jobs: expected a whole number from 1 to 64 or "auto", got "${value}"`);
  });
});
