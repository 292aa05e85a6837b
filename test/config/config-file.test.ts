import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfigFile } from "../../src/config/config-file.js";
import ts from "typescript";
import { importTranspiled } from "../../src/config/load-module-config.js";
import { loadRunConfig, resolveRun } from "../../src/config/resolve.js";

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

describe("config defaults and module configs", () => {
  it("applies top-level per-spec defaults; a spec entry's own setting wins, then the library option", () => {
    const root = project({ int64: "string", artifacts: ["types"], specs: ["a.proto", { input: "b.proto", int64: "number" }] }, ["a.proto", "b.proto"]);
    expect(resolveRun({ cwd: root }).specs).toMatchObject([
      { display: "a.proto", int64: "string", artifacts: ["types"] },
      { display: "b.proto", int64: "number", artifacts: ["types"] },
    ]);
    expect(resolveRun({ cwd: root, int64: "bigint", dates: "Date" }).specs).toMatchObject([
      { int64: "bigint", dates: "Date" },
      { int64: "number", dates: "Date" },
    ]);
  });

  it("passes formats and jsonSchema to each spec with the same precedence", () => {
    const root = project({ formats: "annotate", specs: ["a.yaml", { input: "b.yaml", formats: "assert", jsonSchema: "exact" }] }, ["a.yaml", "b.yaml"]);
    expect(resolveRun({ cwd: root }).specs).toMatchObject([
      { display: "a.yaml", formats: "annotate", jsonSchema: undefined },
      { display: "b.yaml", formats: "assert", jsonSchema: "exact" },
    ]);
    expect(resolveRun({ cwd: root, jsonSchema: "openapi" }).specs).toMatchObject([{ jsonSchema: "openapi" }, { jsonSchema: "exact" }]);
  });

  it("names a missing templates folder", () => {
    const root = project({ templates: "tpl" }, ["specs/a.proto"]);
    expect(() => resolveRun({ cwd: root })).toThrow("the templates folder does not exist");
  });

  it("refuses two config files at once", () => {
    const root = project({}, ["specs/a.proto"]);
    writeFileSync(path.join(root, "specforge.config.ts"), "export default {};\n");
    expect(() => resolveRun({ cwd: root })).toThrow("specforge.config.json and specforge.config.ts both exist");
  });

  const TS_CONFIG = [
    'import type { ConfigFile } from "../src/config/options.js";',
    'const out: string = "from-ts";',
    'export default { out, specs: ["specs/a.proto"], int64: "string" } satisfies ConfigFile;',
    "",
  ].join("\n");

  it("loads specforge.config.ts and validates it", async () => {
    const root = project(undefined, ["specs/a.proto"]);
    writeFileSync(path.join(root, "specforge.config.ts"), TS_CONFIG);
    const options = await loadRunConfig({ cwd: root });
    expect(options.loadedConfig?.config).toEqual({ out: "from-ts", specs: ["specs/a.proto"], int64: "string" });
    const run = resolveRun(options);
    expect(run.outRoot).toBe(path.join(root, "from-ts"));
    expect(run.specs).toMatchObject([{ display: "specs/a.proto", int64: "string" }]);
    // Without loading first, the synchronous path says what to do instead of guessing.
    expect(() => resolveRun({ cwd: root })).toThrow("a module config loads asynchronously");
  });

  it("transpiles a TypeScript config with the typescript package, leaving no temporary file behind", async () => {
    const root = project(undefined, []);
    const file = path.join(root, "specforge.config.ts");
    writeFileSync(file, TS_CONFIG);
    expect(await importTranspiled(file, ts)).toEqual({ out: "from-ts", specs: ["specs/a.proto"], int64: "string" });
    expect(readdirSync(root)).toEqual(["specforge.config.ts"]);
  });

  it("reports a module config's problems with its file name", async () => {
    const root = project(undefined, []);
    const file = path.join(root, "specforge.config.mjs");
    writeFileSync(file, 'export default { specs: [{ input: "a.proto", dates: "never" }] };\n');
    await expect(loadConfigFile(file)).rejects.toThrow(`${file}: "specs[0].dates" must be one of string, Date`);
    writeFileSync(path.join(root, "specforge.config.mjs"), "export const x = 1;\n");
    await expect(loadConfigFile(file)).rejects.toThrow("has no default export");
  });
});
