/**
 * Import resolution as protoc does it (issue 18, item 5): with no -I, the working directory is the proto path, so
 * `specforge generate google/protobuf/unittest.proto` run from the corpus root finds
 * "google/protobuf/unittest_import.proto" exactly where `protoc google/protobuf/unittest.proto` does.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { SHARED } from "../helpers/seeds.js";

const CORPUS = path.join(SHARED, "corpus/proto");
const ENTRY = "google/protobuf/unittest.proto";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "specforge-proto-path-"));
  dirs.push(dir);
  return dir;
}

/** The CLI in-process, run from `cwd`. */
async function run(cwd: string, ...args: string[]): Promise<{ code: number; err: string }> {
  let err = "";
  const prev = process.cwd();
  process.chdir(cwd);
  try {
    const code = await main(args, { out: () => {}, err: (t) => (err += t) });
    return { code, err };
  } finally {
    process.chdir(prev);
  }
}

describe.skipIf(!existsSync(CORPUS))("proto path", () => {
  it("without -I, imports resolve from the working directory, as protoc resolves them", async () => {
    // protoc accepts the file from here with no -I ...
    const protoc = spawnSync("protoc", ["-o/dev/null", ENTRY], { cwd: CORPUS, encoding: "utf8" });
    expect(protoc.stderr).toBe("");
    expect(protoc.status).toBe(0);
    // ... and so do we.
    const out = tempDir();
    const res = await run(CORPUS, "generate", ENTRY, "--out", out);
    expect(res.err).toBe("");
    expect(res.code).toBe(0);
    // The imported files were generated too, each in its own folder (one module per input file): ImportMessage is
    // declared in unittest_import.proto, and unittest's types.ts exports that declaration again.
    expect(readFileSync(path.join(out, "unittest_import/types.ts"), "utf8")).toContain("export interface ImportMessage {");
    expect(readFileSync(path.join(out, "unittest/types.ts"), "utf8")).toMatch(/^export type \{ ImportMessage, /m);
  });

  it("from another folder, the working directory is what was searched, and -I fixes it", async () => {
    const elsewhere = tempDir();
    const res = await run(elsewhere, "generate", path.join(CORPUS, ENTRY), "--out", path.join(elsewhere, "gen"));
    expect(res.code).toBe(1);
    expect(res.err).toContain(`import "google/protobuf/unittest_import.proto" not found (searched: ., ${path.join(CORPUS, "google/protobuf")})`);
    const fixed = await run(elsewhere, "generate", path.join(CORPUS, ENTRY), "-I", CORPUS, "--out", path.join(elsewhere, "gen"));
    expect(fixed.err).toBe("");
    expect(fixed.code).toBe(0);
  });

  it("with -I, the working directory is not searched (protoc replaces '.' by the given paths)", async () => {
    const res = await run(CORPUS, "generate", ENTRY, "-I", "bench", "--out", tempDir());
    expect(res.code).toBe(1);
    expect(res.err).toContain('import "google/protobuf/unittest_import.proto" not found (searched: bench, google/protobuf)');
  });
});
