import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../src/api.js";
import { listFiles } from "../src/pipeline/write-output.js";
import { typecheckFiles } from "./helpers/typecheck.js";

const repo = path.resolve(import.meta.dirname, "..");

/**
 * Goldens: the whole of generated/ regenerated in memory from specs/ (via specforge.config.json) and compared file
 * by file. A failure here means the generator changed: review the diff, then run `npm run generate` and commit.
 */
describe("generated/ goldens", () => {
  const result = generate({ cwd: repo, dryRun: true });
  const want = new Map(result.outputs.flatMap((o) => o.files.map((f) => [f.path, f.content] as const)));

  it("generates the four seed specs and the content feed's stream extension", () => {
    expect(result.outputs.map((o) => o.dir)).toEqual(["partner", "content", "content-stream", "webhooks", "members"]);
  });

  it("has exactly the files generate writes", () => {
    expect(listFiles(path.join(repo, "generated"))).toEqual([...want.keys()].sort());
  });

  for (const [file, content] of want) {
    it(`generated/${file} is up to date`, () => {
      expect(readFileSync(path.join(repo, "generated", file), "utf8")).toBe(content);
    });
  }

  it("type-checks under strict", () => {
    // Only the TypeScript: each spec folder also has its README.md.
    const files = new Map(listFiles(path.join(repo, "generated")).filter((f) => f.endsWith(".ts")).map((f) => [f, readFileSync(path.join(repo, "generated", f), "utf8")]));
    expect(typecheckFiles(files)).toEqual([]);
  });
});
