import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { listFiles } from "../../src/pipeline/write-output.js";
import { REPO } from "../helpers/seeds.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "specforge-cli-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    const p = path.join(dir, name);
    writeFileSync(p, text);
  }
  return dir;
}

async function run(cwd: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const prev = process.cwd();
  process.chdir(cwd);
  try {
    const code = await main(args, { out: (t) => (out += t), err: (t) => (err += t) });
    return { code, out, err };
  } finally {
    process.chdir(prev);
  }
}

const GOOD_PROTO = 'syntax = "proto3";\npackage demo;\n// A greeting.\nmessage Hello { string name = 1; repeated int64 ids = 2; }\n';

describe("specforge CLI", () => {
  it("generate writes specs/ into generated/ from the config file, and check agrees", async () => {
    const dir = project({ "specforge.config.json": JSON.stringify({ specs: ["specs"], out: "generated" }) });
    mkdirSync(path.join(dir, "specs"));
    writeFileSync(path.join(dir, "specs/hello.proto"), GOOD_PROTO);
    const gen = await run(dir, "generate");
    expect(gen.err).toBe("");
    expect(gen.code).toBe(0);
    expect(listFiles(path.join(dir, "generated"))).toEqual(expect.arrayContaining(["hello/index.ts", "hello/types.ts"]));
    const types = readFileSync(path.join(dir, "generated/hello/types.ts"), "utf8");
    expect(types).toContain("export interface Hello {");
    expect(types).toContain("  name: string;\n  ids?: bigint[];");
    expect((await run(dir, "check")).code).toBe(0);
  });

  it("check exits 1 and names stale, missing and extra files", async () => {
    const dir = project({ "hello.proto": GOOD_PROTO });
    expect((await run(dir, "generate", "hello.proto", "--out", "gen")).code).toBe(0);
    writeFileSync(path.join(dir, "gen/hello/types.ts"), "// edited\n");
    writeFileSync(path.join(dir, "gen/hello/extra.ts"), "");
    rmSync(path.join(dir, "gen/hello/index.ts"));
    const res = await run(dir, "check", "hello.proto", "--out", "gen");
    expect(res.code).toBe(1);
    expect(res.err).toContain("stale: hello/types.ts");
    expect(res.err).toContain("missing: hello/index.ts");
    expect(res.err).toContain("extra: hello/extra.ts");
  });

  it("reports a spec error as file:line:col, exits 1, and leaves the output exactly as it was", async () => {
    const dir = project({ "hello.proto": GOOD_PROTO, "bad.proto": 'syntax = "proto3";\nmessage Bad {\n  string name = ;\n}\n' });
    expect((await run(dir, "generate", "hello.proto", "--out", "gen")).code).toBe(0);
    const before = readFileSync(path.join(dir, "gen/hello/types.ts"), "utf8");
    const filesBefore = listFiles(path.join(dir, "gen"));
    writeFileSync(path.join(dir, "hello.proto"), GOOD_PROTO.replace("Hello", "Hi"));
    const res = await run(dir, "generate", "hello.proto", "bad.proto", "--out", "gen");
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/^bad\.proto:3:\d+: .+\n$/);
    expect(res.err).not.toContain("    at ");
    expect(readFileSync(path.join(dir, "gen/hello/types.ts"), "utf8")).toBe(before);
    expect(existsSync(path.join(dir, "gen/bad"))).toBe(false);
    expect(listFiles(path.join(dir, "gen"))).toEqual(filesBefore);
  });

  it("inspect --ir prints the IR as JSON", async () => {
    const dir = project({ "hello.proto": GOOD_PROTO });
    const res = await run(dir, "inspect", "hello.proto", "--ir");
    expect(res.code).toBe(0);
    const ir = JSON.parse(res.out);
    expect(ir.format).toBe("proto");
    expect(ir.types[0]).toMatchObject({ kind: "record", id: "proto:.demo.Hello", doc: "A greeting." });
  });

  it("names a missing spec and an unknown config option without a stack trace", async () => {
    const dir = project({ "specforge.config.json": '{"outt": "x"}' });
    const missing = await run(dir, "generate", "nope.wsdl");
    expect(missing).toMatchObject({ code: 1, err: "nope.wsdl: no such spec file or folder\n" });
    const config = await run(dir, "generate");
    expect(config.code).toBe(1);
    expect(config.err).toContain('unknown option "outt"');
  });

  it("the installed bin runs and exits 1 on a spec error", () => {
    const dir = project({ "bad.proto": "message {" });
    const res = spawnSync(process.execPath, [path.join(REPO, "bin/specforge.js"), "generate", "bad.proto"], { cwd: dir, encoding: "utf8" });
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/^bad\.proto:1:9: /);
    expect(res.stderr).not.toContain("    at ");
  });
});
