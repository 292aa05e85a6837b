import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { SpecOutput } from "../../src/pipeline/generate-files.js";
import { compareWithDisk, listFiles, writeOutputs } from "../../src/pipeline/write-output.js";
import { outputDirFor } from "../../src/pipeline/output-dir.js";

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((r) => rmSync(r, { recursive: true, force: true })));
const tempRoot = () => {
  const r = mkdtempSync(path.join(tmpdir(), "specforge-out-"));
  roots.push(r);
  return r;
};

const output = (dir: string, files: Record<string, string>): SpecOutput =>
  ({ dir, files: Object.entries(files).map(([p, content]) => ({ path: `${dir}/${p}`, content })) }) as unknown as SpecOutput;

describe("writeOutputs", () => {
  it("writes new folders, replaces changed ones (removing files it wrote before) and leaves up-to-date ones alone", () => {
    const root = tempRoot();
    expect(writeOutputs(root, [output("a", { "types.ts": "1", "old.ts": "0" }), output("b", { "types.ts": "2" })])).toEqual(["a", "b"]);
    const bBefore = statSync(path.join(root, "b/types.ts")).mtimeMs;
    expect(writeOutputs(root, [output("a", { "types.ts": "1b" }), output("b", { "types.ts": "2" })])).toEqual(["a"]);
    expect(listFiles(root)).toEqual(["a/.specforge-manifest.json", "a/types.ts", "b/.specforge-manifest.json", "b/types.ts"]);
    expect(JSON.parse(readFileSync(path.join(root, "a/.specforge-manifest.json"), "utf8")).files).toEqual([".specforge-manifest.json", "types.ts"]);
    expect(readFileSync(path.join(root, "a/types.ts"), "utf8")).toBe("1b");
    expect(statSync(path.join(root, "b/types.ts")).mtimeMs).toBe(bBefore);
    // No staging folder is left behind.
    expect(readdirSync(root).sort()).toEqual(["a", "b"]);
  });

  it("leaves files outside the spec folders untouched", () => {
    const root = tempRoot();
    mkdirSync(path.join(root, "mine"));
    writeFileSync(path.join(root, "mine/keep.ts"), "x");
    writeOutputs(root, [output("a", { "types.ts": "1" })]);
    expect(readFileSync(path.join(root, "mine/keep.ts"), "utf8")).toBe("x");
  });
});

describe("compareWithDisk", () => {
  it("reports stale, missing and extra files, sorted", () => {
    const root = tempRoot();
    writeOutputs(root, [output("a", { "x.ts": "1", "y.ts": "2", "z.ts": "3" })]);
    writeFileSync(path.join(root, "a/x.ts"), "changed");
    writeFileSync(path.join(root, "a/notes.txt"), "the user's: not a difference");
    rmSync(path.join(root, "a/y.ts"));
    expect(compareWithDisk(root, [output("a", { "x.ts": "1", "y.ts": "2" })])).toEqual([
      { path: "a/.specforge-manifest.json", state: "stale" },
      { path: "a/x.ts", state: "stale" },
      { path: "a/y.ts", state: "missing" },
      { path: "a/z.ts", state: "extra" },
    ]);
  });
});

describe("outputDirFor", () => {
  it.each([
    ["specs/partner.wsdl", "partner"],
    ["specs/webhooks.openapi.yaml", "webhooks"],
    ["x/y/content.proto", "content"],
    ["api.swagger.json", "api"],
    ["../../etc/..evil name!.xsd", "evil-name-"],
  ])("%s -> %s", (spec, dir) => expect(outputDirFor(spec)).toBe(dir));
});
