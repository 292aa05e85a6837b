/**
 * A run with failing specs: every spec is checked, every error is reported (located, one per line, then a count),
 * nothing is written, and --json names the spec of every error and ends with `done` (ok: false).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "specforge-errors-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

const run = runCli;

const GOOD = 'syntax = "proto3";\npackage good;\nmessage Hello { string name = 1; }\n';
const BAD_PROTO = 'syntax = "proto3";\npackage bad;\nmessage A {\n  Missing m = 1;\n  string id = 1;\n}\nmessage B { Gone g = 1; }\n';
const BAD_JSON = '{\n  "openapi": "3.0.3",\n  "info": {"title": "T", "version": "1",},\n  "paths": {}\n}\n';

const jsonLines = (text: string) => text.trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);

describe("a run with errors", () => {
  it("checks every spec, lists every error as file:line:col then a count, and writes nothing", async () => {
    const dir = project({ "good.proto": GOOD, "bad.proto": BAD_PROTO, "api.json": BAD_JSON });
    const res = await run(dir, "generate", "good.proto", "bad.proto", "api.json", "--out", "gen");
    expect(res.code).toBe(1);
    expect(res.err).toBe(
      [
        'bad.proto:4:3: unknown type "Missing"',
        'bad.proto:5:15: field number 1 has already been used in "bad.A" by field "m"',
        'bad.proto:7:13: unknown type "Gone"',
        "api.json:3:40: trailing comma before '}' (not allowed in JSON)",
        "4 errors in 2 specs",
        "",
      ].join("\n"),
    );
    expect(res.out).toBe("");
    expect(existsSync(path.join(dir, "gen"))).toBe(false);
  });

  it("--json: every error event names its spec and location, and the run ends with done ok:false", async () => {
    const dir = project({ "bad.proto": BAD_PROTO, "good.proto": GOOD, "api.json": BAD_JSON });
    const res = await run(dir, "generate", "bad.proto", "good.proto", "api.json", "--out", "gen", "--json");
    expect(res.code).toBe(1);
    const events = jsonLines(res.out);
    // Both specs after the failing one were still read and checked.
    expect(events.filter((e) => e.type === "generated").map((e) => e.spec)).toEqual(["good.proto"]);
    const errors = events.filter((e) => e.type === "error");
    expect(errors.map((e) => `${e.spec} ${e.file}:${e.line}:${e.column}`)).toEqual([
      "bad.proto bad.proto:4:3",
      "bad.proto bad.proto:5:15",
      "bad.proto bad.proto:7:13",
      "api.json api.json:3:40",
    ]);
    for (const e of errors) expect(e.message).toMatch(new RegExp(`^${e.file}:${e.line}:${e.column}: `));
    expect(events.at(-1)).toEqual({ type: "done", specs: 3, written: 0, differences: 0, ms: expect.any(Number), ok: false, errors: 4 });
    expect(events.some((e) => e.type === "written")).toBe(false);
    expect(existsSync(path.join(dir, "gen"))).toBe(false);
  });

  it("check reports the errors of every spec the same way", async () => {
    const dir = project({ "good.proto": GOOD, "bad.proto": BAD_PROTO });
    const res = await run(dir, "check", "good.proto", "bad.proto", "--out", "gen", "--json");
    expect(res.code).toBe(1);
    const events = jsonLines(res.out);
    expect(events.filter((e) => e.type === "error").every((e) => e.spec === "bad.proto")).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "done", ok: false, errors: 3 });
    expect(res.err.trimEnd().split("\n").at(-1)).toBe("3 errors in 1 spec");
  });

  it("--json ends with done even when the run fails before any spec (a bad config file)", async () => {
    const dir = project({ "specforge.config.json": '{"outt": "x"}' });
    const res = await run(dir, "generate", "--json");
    expect(res.code).toBe(1);
    const events = jsonLines(res.out);
    expect(events.map((e) => e.type)).toEqual(["error", "done"]);
    expect(events[0]).not.toHaveProperty("spec");
    expect(events[1]).toMatchObject({ type: "done", ok: false, errors: 1 });
  });
});
