import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { listFiles } from "../../src/pipeline/write-output.js";

/**
 * Output folders specforge owns, and nothing else (issue 17, item 1): user files kept, in-the-way files refused
 * (or replaced with --force), `out` values that would leave the output root refused with the config's line:col,
 * two specs sharing a folder refused, and check agreeing with all of it.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A temp folder holding `project/` (the working folder) and `outside/` (a victim that must stay empty). */
function sandbox(files: Record<string, string>): { dir: string; outside: string } {
  const top = mkdtempSync(path.join(tmpdir(), "specforge-own-"));
  dirs.push(top);
  const dir = path.join(top, "project");
  const outside = path.join(top, "outside");
  mkdirSync(dir);
  mkdirSync(outside);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return { dir, outside };
}

const run = runCli;

const HELLO = 'syntax = "proto3";\npackage demo;\nmessage Hello { string name = 1; }\n';
const OTHER = 'syntax = "proto3";\npackage other;\nmessage Other { int32 id = 1; }\n';

/** 1-based line:col of the `nth` occurrence of `needle` in `text`. */
function lineColOf(text: string, needle: string, nth = 1): string {
  let at = -1;
  for (let i = 0; i < nth; i++) at = text.indexOf(needle, at + 1);
  expect(at).toBeGreaterThanOrEqual(0);
  const before = text.slice(0, at).split("\n");
  return `${before.length}:${before[before.length - 1]!.length + 1}`;
}

describe("output folders specforge owns", () => {
  it("keeps a user's file in a spec folder across regenerations, and check does not count it", async () => {
    const { dir } = sandbox({ "hello.proto": HELLO });
    expect((await run(dir, "generate", "hello.proto", "-q")).code).toBe(0);
    writeFileSync(path.join(dir, "generated/hello/notes.txt"), "my notes");
    expect(await run(dir, "check", "hello.proto")).toMatchObject({ code: 0, out: "generated code is up to date\n" });

    writeFileSync(path.join(dir, "hello.proto"), HELLO.replace("Hello", "Hi"));
    const res = await run(dir, "generate", "hello.proto", "-q");
    expect(res).toMatchObject({ code: 0, err: "" });
    expect(readFileSync(path.join(dir, "generated/hello/types.ts"), "utf8")).toContain("export interface Hi {");
    expect(readFileSync(path.join(dir, "generated/hello/notes.txt"), "utf8")).toBe("my notes");
    expect(await run(dir, "check", "hello.proto")).toMatchObject({ code: 0 });
    const manifest = JSON.parse(readFileSync(path.join(dir, "generated/hello/.specforge-manifest.json"), "utf8"));
    expect(manifest.files).toContain("types.ts");
    expect(manifest.files).not.toContain("notes.txt");
  });

  it("removes files it wrote and no longer generates, never the user's", async () => {
    const { dir } = sandbox({ "hello.proto": HELLO });
    expect((await run(dir, "generate", "hello.proto", "-q")).code).toBe(0);
    mkdirSync(path.join(dir, "generated/hello/docs"));
    writeFileSync(path.join(dir, "generated/hello/docs/usage.md"), "mine");
    expect(listFiles(path.join(dir, "generated/hello"))).toContain("protobuf.ts");
    expect((await run(dir, "generate", "hello.proto", "--artifacts", "types", "-q")).code).toBe(0);
    expect(listFiles(path.join(dir, "generated/hello"))).toEqual([".specforge-manifest.json", "README.md", "docs/usage.md", "index.ts", "types.ts"]);
  });

  it("stops, naming it, when a generated file would overwrite a file specforge did not write; writes nothing", async () => {
    const { dir } = sandbox({ "hello.proto": HELLO, "other.proto": OTHER, "generated/hello/types.ts": "// my hand-written types\n" });
    const res = await run(dir, "generate", "hello.proto", "other.proto");
    expect(res.code).toBe(1);
    expect(res.err).toContain("generate would overwrite a file specforge did not write:\n  generated/hello/types.ts\n");
    expect(res.err).toContain("--force");
    expect(res.err).not.toContain("internal error");
    expect(readFileSync(path.join(dir, "generated/hello/types.ts"), "utf8")).toBe("// my hand-written types\n");
    // Nothing of the run was written: not the other files of that folder, not the other spec's folder.
    expect(listFiles(path.join(dir, "generated"))).toEqual(["hello/types.ts"]);

    const check = await run(dir, "check", "hello.proto");
    expect(check.code).toBe(1);
    expect(check.err).toContain("unowned: hello/types.ts\n");
    expect(check.out).toContain("-// my hand-written types\n");
  });

  it("--force replaces a user's file that is in the way, and still keeps the others", async () => {
    const { dir } = sandbox({ "hello.proto": HELLO, "generated/hello/types.ts": "// mine\n", "generated/hello/notes.txt": "keep" });
    const res = await run(dir, "generate", "hello.proto", "--force", "-q");
    expect(res).toMatchObject({ code: 0, err: "" });
    expect(readFileSync(path.join(dir, "generated/hello/types.ts"), "utf8")).toContain("export interface Hello {");
    expect(readFileSync(path.join(dir, "generated/hello/notes.txt"), "utf8")).toBe("keep");
    expect((await run(dir, "check", "hello.proto")).code).toBe(0);
  });

  it("--force replaces a user's folder where a generated file goes, and a user's file where the spec folder goes", async () => {
    const { dir } = sandbox({ "hello.proto": HELLO, "generated/hello/index.ts/x.txt": "a folder named like a file" });
    const refused = await run(dir, "generate", "hello.proto");
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("  generated/hello/index.ts\n");
    expect((await run(dir, "generate", "hello.proto", "--force", "-q")).code).toBe(0);
    expect(readFileSync(path.join(dir, "generated/hello/index.ts"), "utf8")).toContain('export * from "./types.js";');

    writeFileSync(path.join(dir, "generated/other"), "a file where other/ goes");
    writeFileSync(path.join(dir, "other.proto"), OTHER);
    const blocked = await run(dir, "generate", "other.proto");
    expect(blocked.code).toBe(1);
    expect(blocked.err).toContain("  generated/other\n");
    expect(readFileSync(path.join(dir, "generated/other"), "utf8")).toBe("a file where other/ goes");
  });

  it("adopts a folder written before manifests existed: files with specforge's header are its own", async () => {
    const { dir } = sandbox({ "hello.proto": HELLO });
    expect((await run(dir, "generate", "hello.proto", "--artifacts", "serializers", "-q")).code).toBe(0);
    rmSync(path.join(dir, "generated/hello/.specforge-manifest.json"));
    writeFileSync(path.join(dir, "generated/hello/notes.txt"), "keep");
    expect((await run(dir, "generate", "hello.proto", "--artifacts", "types", "-q")).code).toBe(0);
    expect(listFiles(path.join(dir, "generated/hello"))).toEqual([".specforge-manifest.json", "README.md", "index.ts", "notes.txt", "types.ts"]);
  });

  it("a manifest entry that leads outside its folder claims nothing", async () => {
    const { dir, outside } = sandbox({ "hello.proto": HELLO });
    writeFileSync(path.join(outside, "precious.txt"), "x");
    expect((await run(dir, "generate", "hello.proto", "-q")).code).toBe(0);
    const manifestFile = path.join(dir, "generated/hello/.specforge-manifest.json");
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
    manifest.files.push("../../../outside/precious.txt", "/etc/hostname", "./types.ts/..");
    writeFileSync(manifestFile, JSON.stringify(manifest));
    expect((await run(dir, "generate", "hello.proto", "--artifacts", "types", "-q")).code).toBe(0);
    expect(readFileSync(path.join(outside, "precious.txt"), "utf8")).toBe("x");
  });
});

describe("out must stay inside the output root", () => {
  it.each([
    [".", "is the output root itself"],
    ["", "is the output root itself"],
    ["./", "is the output root itself"],
    ["../victim", "leads outside it"],
    ["a/../../victim", "leads outside it"],
    ["/tmp/specforge-victim", "is an absolute path"],
  ])("refuses out %j at the config's line:col, writing nothing anywhere", async (out, why) => {
    const config = JSON.stringify({ out: "gen", specs: ["other.proto", { input: "hello.proto", out }] }, null, 2) + "\n";
    const { dir, outside } = sandbox({ "hello.proto": HELLO, "other.proto": OTHER, "specforge.config.json": config });
    const res = await run(dir, "generate");
    expect(res.code).toBe(1);
    const at = lineColOf(config, JSON.stringify(out), out === "" ? 1 : 1);
    expect(res.err).toBe(`specforge.config.json:${at}: "specs[1].out" must be a folder inside the output root: ${JSON.stringify(out)} ${why}\n`);
    expect(existsSync(path.join(dir, "gen"))).toBe(false);
    expect(readdirSync(path.dirname(dir)).sort()).toEqual(["outside", "project"]);
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync("/tmp/specforge-victim")).toBe(false);
    // check reads the same config and refuses the same way.
    expect((await run(dir, "check")).err).toBe(res.err);
  });

  it("refuses a spec folder that is a symlink leading outside the root, and leaves the outside alone", async () => {
    const { dir, outside } = sandbox({ "hello.proto": HELLO });
    mkdirSync(path.join(dir, "generated"));
    symlinkSync(outside, path.join(dir, "generated/hello"));
    const res = await run(dir, "generate", "hello.proto");
    expect(res.code).toBe(1);
    expect(res.err).toBe("generated/hello: leads outside the output root generated (through a symlink); specforge only writes inside it\n");
    expect(readdirSync(outside)).toEqual([]);
    expect((await run(dir, "check", "hello.proto")).err).toBe(res.err);
  });

  it("refuses a symlinked folder inside a spec folder that leads outside, and a dangling symlink", async () => {
    const { dir, outside } = sandbox({ "hello.proto": HELLO });
    expect((await run(dir, "generate", "hello.proto", "-q")).code).toBe(0);
    // The spec folder itself is fine; a dangling link in its place is not (where would it lead once created?).
    rmSync(path.join(dir, "generated/hello"), { recursive: true });
    symlinkSync(path.join(outside, "not-yet"), path.join(dir, "generated/hello"));
    const res = await run(dir, "generate", "hello.proto");
    expect(res.code).toBe(1);
    expect(res.err).toContain("generated/hello: leads outside the output root");
    expect(readdirSync(outside)).toEqual([]);
  });

  it("accepts a symlinked spec folder that stays inside the root", async () => {
    const { dir } = sandbox({ "hello.proto": HELLO });
    mkdirSync(path.join(dir, "generated/real"), { recursive: true });
    symlinkSync(path.join(dir, "generated/real"), path.join(dir, "generated/hello"));
    expect((await run(dir, "generate", "hello.proto", "-q")).code).toBe(0);
    expect(readFileSync(path.join(dir, "generated/real/types.ts"), "utf8")).toContain("export interface Hello {");
  });
});

describe("two specs, one folder", () => {
  it("refuses two specs with the same out, at the second one's line:col, naming the first", async () => {
    const config = JSON.stringify({ specs: [{ input: "hello.proto", out: "api" }, { input: "other.proto", out: "api/" }] }, null, 2) + "\n";
    const { dir } = sandbox({ "hello.proto": HELLO, "other.proto": OTHER, "specforge.config.json": config });
    const res = await run(dir, "generate");
    expect(res.code).toBe(1);
    expect(res.err).toBe(
      `specforge.config.json:${lineColOf(config, '"api/"')}: specs[1] (other.proto) writes to the output folder "api", as specs[0] (hello.proto) does (line ${lineColOf(config, '"api"')}); give each spec its own "out" folder, none inside another's\n`,
    );
    expect(existsSync(path.join(dir, "generated"))).toBe(false);
  });

  it("refuses a spec folder inside another spec's", async () => {
    const config = JSON.stringify({ specs: [{ input: "other.proto", out: "api/v2" }, { input: "hello.proto", out: "api" }] }, null, 2) + "\n";
    const { dir } = sandbox({ "hello.proto": HELLO, "other.proto": OTHER, "specforge.config.json": config });
    const res = await run(dir, "check");
    expect(res.code).toBe(1);
    expect(res.err).toBe(
      `specforge.config.json:${lineColOf(config, '"api/v2"')}: specs[0] (other.proto) writes to "api/v2", inside the output folder "api" of specs[1] (hello.proto) (line ${lineColOf(config, '"api"')}); give each spec its own "out" folder, none inside another's\n`,
    );
  });

  it("refuses two specs whose default folders are the same (same base name), at the entry's line:col", async () => {
    const config = JSON.stringify({ specs: ["a/hello.proto", "b/hello.proto"] }, null, 2) + "\n";
    const { dir } = sandbox({ "a/hello.proto": HELLO, "b/hello.proto": OTHER, "specforge.config.json": config });
    const res = await run(dir, "generate");
    expect(res.code).toBe(1);
    expect(res.err).toMatch(new RegExp(`^specforge\\.config\\.json:${lineColOf(config, '"b/hello.proto"')}: specs\\[1\\] \\(b/hello\\.proto\\) writes to the output folder "hello", as specs\\[0\\] \\(a/hello\\.proto\\) does`));
  });

  it("names both spec files when they come from the command line", async () => {
    const { dir } = sandbox({ "a/hello.proto": HELLO, "b/hello.proto": OTHER });
    const res = await run(dir, "generate", "a/hello.proto", "b/hello.proto");
    expect(res.code).toBe(1);
    expect(res.err).toBe(`b/hello.proto: writes to the output folder "hello", as a/hello.proto does; give each spec its own "out" folder, none inside another's\n`);
  });
});
