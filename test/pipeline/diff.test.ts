import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diffLines, unifiedDiff } from "../../src/pipeline/diff.js";

/** Apply a unified diff made by unifiedDiff to `old` (a strict reader: context and removed lines must match). */
function applyPatch(old: string, patch: string): string {
  if (patch === "") return old;
  const lines = old === "" ? [] : old.split("\n");
  const oldEol = old === "" || old.endsWith("\n");
  if (oldEol && old !== "") lines.pop();
  const out: string[] = [];
  let at = 0;
  // Whether the new text's last line (when a hunk reaches it) was marked as having no newline.
  let newNoEol = false;
  const patchLines = patch.split("\n").slice(2, -1);
  for (let i = 0; i < patchLines.length; i++) {
    const l = patchLines[i]!;
    const header = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@$/.exec(l);
    if (header) {
      const start = Number(header[1]) - (header[2] === "0" ? 0 : 1);
      while (at < start) out.push(lines[at++]!);
      continue;
    }
    const marked = patchLines[i + 1] === "\\ No newline at end of file";
    if (l[0] === " " || l[0] === "-") expect(lines[at++]).toBe(l.slice(1));
    if (l[0] === " " || l[0] === "+") {
      out.push(l.slice(1));
      newNoEol = marked;
    }
    if (marked) i++;
  }
  const reachedEnd = at === lines.length;
  while (at < lines.length) out.push(lines[at++]!);
  const eol = reachedEnd ? !newNoEol : oldEol;
  return out.length === 0 ? "" : out.join("\n") + (eol ? "\n" : "");
}

const text = fc.array(fc.constantFrom("a", "b", "c", "", "d e"), { maxLength: 30 }).chain((ls) =>
  fc.boolean().map((eol) => (ls.length === 0 ? "" : ls.join("\n") + (eol ? "\n" : ""))),
);

describe("unifiedDiff", () => {
  it("is empty for equal texts", () => {
    expect(unifiedDiff("a\nb\n", "a\nb\n", "a/x", "b/x")).toBe("");
  });

  it("prints hunks with 3 lines of context, merging close changes", () => {
    const old = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20"].join("\n") + "\n";
    const now = old.replace("2\n", "two\n").replace("5\n", "five\n").replace("18\n", "");
    expect(unifiedDiff(old, now, "a/f.ts", "b/f.ts")).toBe(
      [
        "--- a/f.ts",
        "+++ b/f.ts",
        "@@ -1,8 +1,8 @@",
        " 1",
        "-2",
        "+two",
        " 3",
        " 4",
        "-5",
        "+five",
        " 6",
        " 7",
        " 8",
        "@@ -15,6 +15,5 @@",
        " 15",
        " 16",
        " 17",
        "-18",
        " 19",
        " 20",
        "",
      ].join("\n"),
    );
  });

  it("marks a missing final newline", () => {
    expect(unifiedDiff("a\nb", "a\nb\n", "a/f", "b/f")).toBe("--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n");
  });

  it("finds a shortest edit script", () => {
    const edits = diffLines(["a", "b", "c", "a", "b", "b", "a"], ["c", "b", "a", "b", "a", "c"]);
    expect(edits.filter((e) => e.op !== " ").length).toBe(5);
  });

  it("gives up minimality, not correctness, on huge differences", () => {
    const a = Array.from({ length: 6000 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 6000 }, (_, i) => `b${i}`);
    const edits = diffLines(a, b);
    expect(edits.filter((e) => e.op === "-").length).toBe(6000);
    expect(edits.filter((e) => e.op === "+").length).toBe(6000);
  });

  it("diffs a file rewritten whole at any size (edits are not spread into push's arguments, which overflows the stack)", () => {
    const a = Array.from({ length: 200_000 }, (_, i) => `old ${i}`);
    const b = Array.from({ length: 200_000 }, (_, i) => `new ${i}`);
    const edits = diffLines(a, b);
    expect(edits.filter((e) => e.op === "-")).toHaveLength(200_000);
    expect(edits.filter((e) => e.op === "+")).toHaveLength(200_000);
  });

  it("applied to the old text, gives the new one (property)", () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(applyPatch(a, unifiedDiff(a, b, "a/f", "b/f"))).toBe(b);
      }),
      { numRuns: 500, seed: 7 },
    );
  });

  it.skipIf(spawnSync("patch", ["--version"]).status !== 0)("is accepted by patch(1)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "specforge-diff-"));
    try {
      const old = "x\ny\nz\n" + "k\n".repeat(10) + "tail";
      const now = "x\nY\nz\n" + "k\n".repeat(10) + "tail\nmore\n";
      writeFileSync(path.join(dir, "f.txt"), old);
      const res = spawnSync("patch", ["-p1"], { cwd: dir, input: unifiedDiff(old, now, "a/f.txt", "b/f.txt"), encoding: "utf8" });
      expect(res.status, res.stderr + res.stdout).toBe(0);
      expect(readFileSync(path.join(dir, "f.txt"), "utf8")).toBe(now);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
