/**
 * Warnings end to end ("degrade, never refuse"): a spec that uses a construct specforge keeps in a degraded form
 * generates, and the run says where: on stderr (the first few per spec, then a count), as `warning` events under
 * --json, counted in `done`; `--strict` (flag or config key) turns them into the spec's errors and writes nothing;
 * check passes with warnings unless --strict. The same through worker threads (--jobs).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";

const roots: string[] = [];
afterAll(() => {
  for (const d of roots) rmSync(d, { recursive: true, force: true });
});

/**
 * `$recursiveRef` (draft 2019-09, which OpenAPI 3.1's dialect replaced by `$dynamicRef`) on line 5, column 23 and on
 * line 6, column 22: a keyword generated code does not check (docs/validators.md), kept as a warning, the document
 * not refused.
 */
const TWO = `openapi: 3.1.0
info: {title: T, version: "1"}
components:
  schemas:
    A: {type: object, $recursiveRef: "#", properties: {a: {type: string}}}
    B: {type: array, $recursiveRef: "#"}
`;
const MANY = `openapi: 3.1.0
info: {title: T, version: "1"}
components:
  schemas:
${[1, 2, 3, 4, 5].map((i) => `    S${i}: {type: object, $recursiveRef: "#"}`).join("\n")}
`;

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "specforge-warnings-"));
  roots.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

const NOT_WARNING = 'w.yaml:5:23: warning: schema keyword "$recursiveRef" is not checked';

describe("warnings", () => {
  it("generate succeeds, prints each located warning on stderr and counts them on the spec's line", async () => {
    const dir = project({ "w.yaml": TWO });
    const r = await runCli(dir, "generate", "w.yaml", "--out", "gen");
    expect(r.code).toBe(0);
    const warnings = r.err.trim().split("\n");
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain(NOT_WARNING);
    expect(warnings[1]).toMatch(/^w\.yaml:6:22: warning: schema keyword "\$recursiveRef" is not checked/);
    expect(r.out).toMatch(/w\.yaml -> w\/ \(\d+ files, wrote, 2 warnings;/);
    expect(existsSync(path.join(dir, "gen/w/types.ts"))).toBe(true);
  });

  it("shows the first three warnings of a spec and counts the rest", async () => {
    const dir = project({ "many.yaml": MANY });
    const r = await runCli(dir, "generate", "many.yaml", "--out", "gen");
    expect(r.code).toBe(0);
    const lines = r.err.trim().split("\n");
    expect(lines.filter((l) => l.includes(": warning: "))).toHaveLength(3);
    expect(lines.at(-1)).toBe("many.yaml: 5 warnings (3 shown; --json lists every one)");
  });

  it("--json: one warning event per warning, located, after the spec's generated event; done counts them", async () => {
    const dir = project({ "many.yaml": MANY });
    const r = await runCli(dir, "generate", "many.yaml", "--out", "gen", "--json");
    expect(r.code).toBe(0);
    const events = r.out.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    const warnings = events.filter((e) => e["type"] === "warning");
    expect(warnings).toHaveLength(5);
    expect(warnings[0]).toMatchObject({ spec: "many.yaml", file: "many.yaml", line: 5, column: 24 });
    expect(String(warnings[4]!["message"])).toMatch(/^many\.yaml:9:24: warning: schema keyword "\$recursiveRef"/);
    expect(events.findIndex((e) => e["type"] === "warning")).toBeGreaterThan(events.findIndex((e) => e["type"] === "generated"));
    expect(events.at(-1)).toMatchObject({ type: "done", ok: true, errors: 0, warnings: 5 });
  });

  it("--strict turns warnings into errors: exit 1, every warning reported, nothing written", async () => {
    const dir = project({ "w.yaml": TWO });
    const r = await runCli(dir, "generate", "w.yaml", "--out", "gen", "--strict");
    expect(r.code).toBe(1);
    expect(r.err).toContain('w.yaml:5:23: schema keyword "$recursiveRef" is not checked');
    expect(r.err).toContain("(a warning; --strict makes it an error)");
    expect(r.err).toContain("2 errors in 1 spec");
    expect(existsSync(path.join(dir, "gen"))).toBe(false);
  });

  it("the config key strict does the same", async () => {
    const dir = project({ "w.yaml": TWO, "specforge.config.json": JSON.stringify({ specs: ["w.yaml"], out: "gen", strict: true }) });
    const r = await runCli(dir, "generate");
    expect(r.code).toBe(1);
    expect(r.err).toContain("2 errors in 1 spec");
  });

  it("check passes with warnings, and fails on them with --strict", async () => {
    const dir = project({ "w.yaml": TWO });
    expect((await runCli(dir, "generate", "w.yaml", "--out", "gen", "--quiet")).code).toBe(0);
    const ok = await runCli(dir, "check", "w.yaml", "--out", "gen");
    expect(ok.code).toBe(0);
    expect(ok.err).toContain(NOT_WARNING);
    const strict = await runCli(dir, "check", "w.yaml", "--out", "gen", "--strict");
    expect(strict.code).toBe(1);
    expect(strict.err).toContain("(a warning; --strict makes it an error)");
  });

  it("--quiet prints no warnings", async () => {
    const dir = project({ "w.yaml": TWO });
    const r = await runCli(dir, "generate", "w.yaml", "--out", "gen", "--quiet");
    expect(r.code).toBe(0);
    expect(r.err).toBe("");
  });

  it("worker threads (--jobs 2) report the same warning events and honour --strict", async () => {
    const dir = project({ "w.yaml": TWO, "many.yaml": MANY });
    const serial = await runCli(dir, "generate", "w.yaml", "many.yaml", "--out", "gen", "--json");
    const pooled = await runCli(dir, "generate", "w.yaml", "many.yaml", "--out", "gen2", "--json", "--jobs", "2");
    const warningsOf = (out: string) => out.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e["type"] === "warning");
    expect(warningsOf(pooled.out)).toEqual(warningsOf(serial.out));
    expect(warningsOf(serial.out)).toHaveLength(7);
    const strict = await runCli(dir, "generate", "w.yaml", "many.yaml", "--out", "gen3", "--jobs", "2", "--strict");
    expect(strict.code).toBe(1);
    expect(strict.err).toContain("7 errors in 2 specs");
  });
});
