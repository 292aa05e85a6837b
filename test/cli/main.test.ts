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
  return runWith({ cwd }, ...args);
}

/** Run the CLI in-process; `tty` pretends stderr is a terminal, `interrupted` stands in for Ctrl-C. */
async function runWith(
  options: { cwd: string; tty?: boolean; interrupted?: (io: { out: () => string }) => Promise<void> },
  ...args: string[]
): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const prev = process.cwd();
  process.chdir(options.cwd);
  try {
    const interrupted = options.interrupted ? () => options.interrupted!({ out: () => out }) : undefined;
    const code = await main(args, { out: (t) => (out += t), err: (t) => (err += t), tty: options.tty }, interrupted);
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
    rmSync(path.join(dir, "gen/hello/index.ts"));
    // Only the types now: the codecs specforge wrote before are extra (a user's file would not be).
    const res = await run(dir, "check", "hello.proto", "--out", "gen", "--artifacts", "types");
    expect(res.code).toBe(1);
    expect(res.err).toContain("stale: hello/types.ts");
    expect(res.err).toContain("missing: hello/index.ts");
    expect(res.err).toContain("extra: hello/protobuf.ts");
  });

  it("reports a spec error as file:line:col, exits 1, and leaves the output exactly as it was", async () => {
    const dir = project({ "hello.proto": GOOD_PROTO, "bad.proto": 'syntax = "proto3";\nmessage Bad {\n  string name = ;\n}\n' });
    expect((await run(dir, "generate", "hello.proto", "--out", "gen")).code).toBe(0);
    const before = readFileSync(path.join(dir, "gen/hello/types.ts"), "utf8");
    const filesBefore = listFiles(path.join(dir, "gen"));
    writeFileSync(path.join(dir, "hello.proto"), GOOD_PROTO.replace("Hello", "Hi"));
    const res = await run(dir, "generate", "hello.proto", "bad.proto", "--out", "gen");
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/^bad\.proto:3:\d+: .+\n1 error in 1 spec\n$/);
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

  it("check prints a unified diff of each stale file on stdout and names every difference on stderr", async () => {
    const dir = project({ "hello.proto": GOOD_PROTO });
    expect((await run(dir, "generate", "hello.proto", "--out", "gen", "-q")).code).toBe(0);
    const types = path.join(dir, "gen/hello/types.ts");
    const good = readFileSync(types, "utf8");
    writeFileSync(types, good.replace("  name: string;\n", "  name: number;\n"));
    rmSync(path.join(dir, "gen/hello/README.md"));
    const res = await run(dir, "check", "hello.proto", "--out", "gen");
    expect(res.code).toBe(1);
    expect(res.out).toMatch(/^--- a\/gen\/hello\/types\.ts\n\+\+\+ b\/gen\/hello\/types\.ts\n@@ -\d+,7 \+\d+,7 @@\n/);
    expect(res.out).toContain("\n-  name: number;\n+  name: string;\n");
    expect(res.err).toBe("missing: hello/README.md\nstale: hello/types.ts\n2 generated file(s) out of date: run 'specforge generate'\n");
  });

  it("prints plain lines when stderr is not a terminal, nothing with --quiet", async () => {
    const dir = project({ "hello.proto": GOOD_PROTO });
    const plain = await run(dir, "generate", "hello.proto");
    expect(plain.err).toBe("");
    expect(plain.out).toMatch(/^hello\.proto -> hello\/ \(8 files, wrote; read 1 file in [\d.]+ ms, generated in [\d.]+ ms, written in [\d.]+ ms\)\ngenerated 1 spec in [\d.]+ ms\n$/);
    const again = await run(dir, "generate", "hello.proto");
    expect(again.out).toContain("(8 files, unchanged; ");
    expect(await run(dir, "generate", "hello.proto", "--quiet")).toEqual({ code: 0, out: "", err: "" });
  });

  it("on a terminal, shows live progress on stderr and the results on stdout", async () => {
    const dir = project({ "hello.proto": GOOD_PROTO });
    const res = await runWith({ cwd: dir, tty: true }, "generate", "hello.proto");
    expect(res.code).toBe(0);
    expect(res.err).toContain("\r\x1b[2K");
    expect(res.err).toContain("[1/1] hello.proto: read 1 file (hello.proto, ");
    expect(res.err.endsWith("\r\x1b[2K")).toBe(true);
    expect(res.out).toContain("hello.proto -> hello/ (8 files, wrote; ");
  });

  it("--json prints one event object per line, errors included", async () => {
    const dir = project({ "hello.proto": GOOD_PROTO, "bad.proto": "message {" });
    const res = await run(dir, "generate", "hello.proto", "--json");
    expect(res.code).toBe(0);
    const events = res.out.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(events.map((e) => e.type)).toEqual(["start", "read", "generated", "written", "done"]);
    expect(events[1]).toMatchObject({ spec: "hello.proto", file: "hello.proto", bytes: GOOD_PROTO.length, ms: expect.any(Number) });
    expect(events[3]).toMatchObject({ spec: "hello.proto", dir: "hello", files: 8, state: "wrote" });
    expect(events[4]).toMatchObject({ type: "done", specs: 1, written: 1, ok: true });

    const bad = await run(dir, "generate", "bad.proto", "--json");
    expect(bad.code).toBe(1);
    const badEvents = bad.out.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(badEvents.slice(-2)).toEqual([
      { type: "error", spec: "bad.proto", file: "bad.proto", line: 1, column: 9, message: expect.stringMatching(/^bad\.proto:1:9: /) },
      { type: "done", specs: 1, written: 0, differences: 0, ms: expect.any(Number), ok: false, errors: 1 },
    ]);

    writeFileSync(path.join(dir, "hello.proto"), GOOD_PROTO.replace("Hello", "Hi"));
    const stale = await run(dir, "check", "hello.proto", "--json");
    expect(stale.code).toBe(1);
    const checkEvents = stale.out.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(checkEvents.filter((e) => e.type === "difference").map((e) => `${e.state} ${e.path}`)).toEqual([
      "stale hello/README.md",
      "stale hello/protobuf.ts",
      "stale hello/protojson.ts",
      "stale hello/prototext.ts",
      "stale hello/types.ts",
      "stale hello/validate.ts",
    ]);
    expect(checkEvents.find((e) => e.type === "diff" && e.path === "hello/types.ts").diff).toContain("-export interface Hello {\n+export interface Hi {");
  });

  it("--artifacts picks artifact groups, with what they need", async () => {
    const dir = project({ "hello.proto": GOOD_PROTO });
    expect((await run(dir, "generate", "hello.proto", "--artifacts", "types", "-q")).code).toBe(0);
    expect(listFiles(path.join(dir, "generated/hello"))).toEqual([".specforge-manifest.json", "README.md", "index.ts", "types.ts"]);
    expect((await run(dir, "generate", "hello.proto", "--artifacts", "serializers", "-q")).code).toBe(0);
    expect(listFiles(path.join(dir, "generated/hello"))).toEqual([".specforge-manifest.json", "README.md", "index.ts", "protobuf.ts", "protojson.ts", "prototext.ts", "types.ts"]);
    const bad = await run(dir, "generate", "hello.proto", "--artifacts", "types,docs");
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("Allowed: types, validators, serializers, client, server");
  });

  it("init writes a starter config from the specs it finds, and refuses to overwrite one without --force", async () => {
    const dir = project({
      "package.json": "{}",
      "api.yaml": "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\n",
      "notes.yaml": "not: openapi\n",
    });
    mkdirSync(path.join(dir, "specs/protos"), { recursive: true });
    writeFileSync(path.join(dir, "specs/protos/common.proto"), 'syntax = "proto3";\npackage c;\nmessage Id { string v = 1; }\n');
    writeFileSync(path.join(dir, "specs/protos/main.proto"), 'syntax = "proto3";\npackage m;\nimport "common.proto";\nmessage M { c.Id id = 1; }\n');
    const res = await run(dir, "init");
    expect(res.code).toBe(0);
    expect(res.err).toBe("specs/protos/common.proto: left out: specs/protos/main.proto reads it\n");
    const config = JSON.parse(readFileSync(path.join(dir, "specforge.config.json"), "utf8"));
    expect(config).toEqual({ $schema: "./node_modules/specforge/specforge.schema.json", out: "generated", specs: ["api.yaml", "specs/protos/main.proto"] });
    expect(res.out).toContain("with 2 spec(s):\n  api.yaml\n  specs/protos/main.proto\n");

    const again = await run(dir, "init");
    expect(again).toMatchObject({ code: 1, err: "specforge.config.json already exists (use --force to overwrite it)\n" });
    rmSync(path.join(dir, "api.yaml"));
    expect((await run(dir, "init", "--force", "-q")).code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, "specforge.config.json"), "utf8")).specs).toEqual(["specs/protos/main.proto"]);
    // The starter config works as is.
    expect((await run(dir, "generate", "-q")).code).toBe(0);
    expect(listFiles(path.join(dir, "generated/main"))).toContain("types.ts");
  });

  it("generate --watch runs until interrupted, then exits 0", async () => {
    const dir = project({ "specforge.config.json": JSON.stringify({ specs: ["hello.proto"] }), "hello.proto": GOOD_PROTO });
    const res = await runWith(
      {
        cwd: dir,
        interrupted: async (io) => {
          const deadline = Date.now() + 10_000;
          while (!io.out().includes("watching ") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        },
      },
      "generate",
      "--watch",
    );
    expect(res.code).toBe(0);
    expect(res.out).toContain("hello.proto -> hello/ (8 files, wrote; ");
    expect(res.out).toContain("watching 2 files for changes (Ctrl-C to stop)\n");
    expect(existsSync(path.join(dir, "generated/hello/types.ts"))).toBe(true);
  });

  it("the installed bin reads specforge.config.ts under plain node", () => {
    const dir = project({
      "specforge.config.ts": 'const out: string = "ts-out";\nexport default { out, specs: ["hello.proto"] };\n',
      "hello.proto": GOOD_PROTO,
    });
    const res = spawnSync(process.execPath, [path.join(REPO, "bin/specforge.js"), "generate"], { cwd: dir, encoding: "utf8" });
    expect(res.stderr).toBe("");
    expect(res.status).toBe(0);
    expect(existsSync(path.join(dir, "ts-out/hello/types.ts"))).toBe(true);
  });
});
