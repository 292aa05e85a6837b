import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SpecOutput } from "../../src/pipeline/generate-files.js";
import { listFiles, writeOutputs } from "../../src/pipeline/write-output.js";

/** The next rename onto `failOn.target` fails, as a full disk or a permission error would half-way through a write. */
const failOn = vi.hoisted(() => ({ target: undefined as string | undefined }));
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  return {
    ...fs,
    renameSync: (from: string, to: string) => {
      if (failOn.target !== undefined && to === failOn.target) {
        failOn.target = undefined; // once: moving the old file back in place (the rollback) succeeds
        throw Object.assign(new Error(`EIO: i/o error, rename '${from}' -> '${to}'`), { code: "EIO" });
      }
      return fs.renameSync(from, to);
    },
  };
});

const roots: string[] = [];
afterEach(() => {
  failOn.target = undefined;
  roots.splice(0).forEach((r) => rmSync(r, { recursive: true, force: true }));
});

const output = (dir: string, files: Record<string, string>): SpecOutput =>
  ({ dir, files: Object.entries(files).map(([p, content]) => ({ path: `${dir}/${p}`, content })) }) as unknown as SpecOutput;

/** Every file under root with its content. */
const snapshot = (root: string) => Object.fromEntries(listFiles(root).map((f) => [f, readFileSync(path.join(root, f), "utf8")]));

describe("writeOutputs when a rename fails half-way", () => {
  it("moves every replaced and removed file back, removes what it added, keeps the user's files, leaves no staging", () => {
    const root = mkdtempSync(path.join(tmpdir(), "specforge-rollback-"));
    roots.push(root);
    writeOutputs(root, [output("a", { "types.ts": "1", "old.ts": "0" }), output("b", { "types.ts": "2" })]);
    writeFileSync(path.join(root, "a/notes.txt"), "mine");
    mkdirSync(path.join(root, "b/docs"));
    writeFileSync(path.join(root, "b/docs/usage.md"), "mine too");
    const before = snapshot(root);

    // Folder a is committed first (types.ts replaced, old.ts removed, new.ts added); b's types.ts then fails.
    failOn.target = path.join(root, "b/types.ts");
    expect(() => writeOutputs(root, [output("a", { "types.ts": "1b", "new/x.ts": "n" }), output("b", { "types.ts": "2b" })])).toThrow(
      /^cannot write the output under .+: EIO: i\/o error, rename .+; the output was left as it was$/,
    );
    expect(snapshot(root)).toEqual(before);
    expect(readdirSync(root).sort()).toEqual(["a", "b"]);
    expect(readdirSync(path.join(root, "a")).sort()).toEqual([".specforge-manifest.json", "notes.txt", "old.ts", "types.ts"]);

    // And once the disk is well again, the same write goes through.
    expect(writeOutputs(root, [output("a", { "types.ts": "1b", "new/x.ts": "n" }), output("b", { "types.ts": "2b" })])).toEqual(["a", "b"]);
    expect(listFiles(root)).toEqual([
      "a/.specforge-manifest.json", "a/new/x.ts", "a/notes.txt", "a/types.ts",
      "b/.specforge-manifest.json", "b/docs/usage.md", "b/types.ts",
    ]);
  });
});
