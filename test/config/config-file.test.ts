import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveRun } from "../../src/config/resolve.js";

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((r) => rmSync(r, { recursive: true, force: true })));

function project(config: unknown, specs: string[] = []): string {
  const root = mkdtempSync(path.join(tmpdir(), "specforge-config-"));
  roots.push(root);
  if (config !== undefined) writeFileSync(path.join(root, "specforge.config.json"), typeof config === "string" ? config : JSON.stringify(config));
  for (const s of specs) {
    mkdirSync(path.dirname(path.join(root, s)), { recursive: true });
    writeFileSync(path.join(root, s), "");
  }
  return root;
}

describe("resolveRun", () => {
  it("defaults to specs/ -> generated/, folders scanned in sorted order, non-specs ignored", () => {
    const root = project(undefined, ["specs/b.proto", "specs/a.wsdl", "specs/notes.md"]);
    const run = resolveRun({ cwd: root });
    expect(run.outRoot).toBe(path.join(root, "generated"));
    expect(run.specs.map((s) => s.display)).toEqual(["specs/a.wsdl", "specs/b.proto"]);
  });

  it("reads per-spec options from the config file", () => {
    const root = project({ out: "gen", specs: [{ input: "x/c.proto", out: "feed", int64: "string" }] }, ["x/c.proto"]);
    const run = resolveRun({ cwd: root });
    expect(run.outRoot).toBe(path.join(root, "gen"));
    expect(run.specs).toMatchObject([{ display: "x/c.proto", outDir: "feed", int64: "string" }]);
  });

  it("prefers specs given on the command line over the config", () => {
    const root = project({ specs: ["missing.proto"] }, ["one.proto"]);
    expect(resolveRun({ cwd: root, specs: ["one.proto"] }).specs.map((s) => s.display)).toEqual(["one.proto"]);
  });

  it.each([
    ["{ not json", "cannot read config"],
    ['["x"]', "the config must be a JSON object"],
    ['{"specs": 3}', '"specs" must be a folder or a list of specs'],
    ['{"specs": [{"input": "a.proto", "int64": "huge"}]}', '"specs[0].int64" must be one of bigint, string, number'],
    ['{"specs": [{"input": "a.proto", "extra": 1}]}', 'unknown option "specs[0].extra"'],
    ['{"protoPaths": [1]}', '"protoPaths" must be a list of folders'],
  ])("rejects %s", (text, message) => {
    const root = project(text, ["a.proto"]);
    expect(() => resolveRun({ cwd: root })).toThrow(message);
  });

  it("names a missing spec", () => {
    const root = project({ specs: ["nope.wsdl"] });
    expect(() => resolveRun({ cwd: root })).toThrow("nope.wsdl: no such spec file or folder");
  });
});
