/**
 * protoc-gen-specforge run by the real tools: Debian's protoc (`--plugin=protoc-gen-specforge=... --specforge_out`)
 * and `buf generate` with a buf.gen.yaml naming the plugin as `local:`. Both must write exactly the files
 * `specforge generate` writes for the same .proto (the plugin lowers descriptors, the CLI parses text). Runs the
 * built plugin (bin/ -> dist/), as `npm test` builds first.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nodeSpecHost } from "../../src/parsers/host.js";
import { generateSpec } from "../../src/pipeline/generate-files.js";
import { REPO, SHARED } from "../helpers/seeds.js";
import { BUF } from "../parsers/proto/oracle/compilers.js";

const CORPUS = path.join(SHARED, "corpus/proto");
const PLUGIN = path.join(REPO, "bin/protoc-gen-specforge.js");
/** A proto2 file with groups, extensions and imports, and a proto3 file with `optional` fields (synthetic oneofs). */
const ENTRIES = ["google/protobuf/unittest.proto", "google/protobuf/unittest_proto3.proto"];
const OPT = "artifacts=types+protobuf,int64=string";

const temp = mkdtempSync(path.join(tmpdir(), "specforge-plugin-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** Every file under dir: relative path -> content. */
function readTree(dir: string, root = dir): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) for (const [k, v] of readTree(p, root)) out.set(k, v);
    else out.set(path.relative(root, p).split(path.sep).join("/"), readFileSync(p, "utf8"));
  }
  return out;
}

/** What `specforge generate` writes for the entries with the same options, minus the package README. */
function expected(): Map<string, string> {
  const out = new Map<string, string>();
  for (const rel of ENTRIES) {
    const spec = { file: path.join(CORPUS, rel), display: rel, outDir: rel.replace(/\.proto$/, ""), int64: "string" as const, artifactNames: ["types", "protobuf"] };
    for (const f of generateSpec(spec, nodeSpecHost({ includeDirs: [CORPUS] })).files) out.set(f.path, f.content);
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function protoc(out: string, opt: string) {
  return spawnSync("protoc", [`-I${CORPUS}`, `--plugin=protoc-gen-specforge=${PLUGIN}`, `--specforge_out=${out}`, `--specforge_opt=${opt}`, ...ENTRIES], { encoding: "utf8" });
}

describe("protoc-gen-specforge end to end", () => {
  it("the plugin is built (npm run build)", () => {
    expect(existsSync(path.join(REPO, "dist/plugin/main.js"))).toBe(true);
  });

  it("protoc --specforge_out writes what specforge generate writes", () => {
    const out = path.join(temp, "protoc");
    execFileSync("mkdir", ["-p", out]);
    const res = protoc(out, OPT);
    expect(res.stderr).toBe("");
    expect(res.status).toBe(0);
    const tree = readTree(out);
    expect([...tree.keys()]).toEqual([...expected().keys()]);
    expect(tree).toEqual(expected());
  });

  it("buf generate with a local plugin in buf.gen.yaml writes the same files", () => {
    const dir = path.join(temp, "buf");
    execFileSync("mkdir", ["-p", dir]);
    writeFileSync(path.join(dir, "buf.gen.yaml"), ["version: v2", "plugins:", `  - local: ${PLUGIN}`, "    out: gen", `    opt: ${OPT}`, ""].join("\n"));
    const paths = ENTRIES.flatMap((e) => ["--path", path.join(CORPUS, e)]);
    execFileSync(BUF, ["generate", CORPUS, ...paths, "--template", "buf.gen.yaml"], {
      cwd: dir,
      env: { ...process.env, BUF_CACHE_DIR: path.join(dir, "cache") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    expect(readTree(path.join(dir, "gen"))).toEqual(expected());
  });

  it("protoc reports a bad parameter from the response's error field and fails", () => {
    const out = path.join(temp, "bad");
    execFileSync("mkdir", ["-p", out]);
    const res = protoc(out, "int64=long");
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain("plugin parameter int64=long: expected bigint, string, number");
    expect(readdirSync(out)).toEqual([]);
  });
});
