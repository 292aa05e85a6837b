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
const EDITIONS = path.join(SHARED, "corpus/proto-editions");
const PLUGIN = path.join(REPO, "bin/protoc-gen-specforge.js");
/** A proto2 file with groups, extensions and imports, and a proto3 file with `optional` fields (synthetic oneofs). */
const ENTRIES = ["google/protobuf/unittest.proto", "google/protobuf/unittest_proto3.proto"];
/** Two edition 2023 files: the conformance suite's messages, and proto2's test messages rewritten with features. */
const EDITION_ENTRIES = ["conformance/test_protos/test_messages_edition2023.proto", "editions/golden/test_messages_proto2_editions.proto"];
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
function expected(root = CORPUS, entries = ENTRIES): Map<string, string> {
  const out = new Map<string, string>();
  for (const rel of entries) {
    const spec = { file: path.join(root, rel), display: rel, outDir: rel.replace(/\.proto$/, ""), int64: "string" as const, artifactNames: ["types", "protobuf"] };
    for (const f of generateSpec(spec, nodeSpecHost({ includeDirs: [root] })).files) out.set(f.path, f.content);
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

  /** `buf generate root --path entries...` with a buf.gen.yaml naming the built plugin as `local:`. */
  function bufGenerate(name: string, root: string, entries: readonly string[]): Map<string, string> {
    const dir = path.join(temp, name);
    execFileSync("mkdir", ["-p", dir]);
    writeFileSync(path.join(dir, "buf.gen.yaml"), ["version: v2", "plugins:", `  - local: ${PLUGIN}`, "    out: gen", `    opt: ${OPT}`, ""].join("\n"));
    const paths = entries.flatMap((e) => ["--path", path.join(root, e)]);
    execFileSync(BUF, ["generate", root, ...paths, "--template", "buf.gen.yaml"], {
      cwd: dir,
      env: { ...process.env, BUF_CACHE_DIR: path.join(dir, "cache") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    return readTree(path.join(dir, "gen"));
  }

  it("buf generate with a local plugin in buf.gen.yaml writes the same files", () => {
    expect(bufGenerate("buf", CORPUS, ENTRIES)).toEqual(expected());
  });

  it.skipIf(!existsSync(EDITIONS))("buf generate hands the plugin edition 2023 files, and it writes what specforge generate writes", () => {
    const tree = bufGenerate("buf-editions", EDITIONS, EDITION_ENTRIES);
    expect([...tree.keys()]).toEqual([...expected(EDITIONS, EDITION_ENTRIES).keys()]);
    expect(tree).toEqual(expected(EDITIONS, EDITION_ENTRIES));
    // Features reached the output: the DELIMITED field `data = 201` is framed by start/end-group tags (201<<3|3, |4).
    expect(tree.get("editions/golden/test_messages_proto2_editions/protobuf.ts")).toMatch(/pbWriteTag\(w, 1611\);\n.*\n\s*pbWriteTag\(w, 1612\);/);
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
