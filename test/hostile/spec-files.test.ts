/**
 * Reading spec files safely (hardening): imports, `$ref`s and includes are read only from the run's roots (the
 * working folder, the config's folder, each spec's folder, the proto paths, `--root`), only when they are regular
 * files, and only up to a size limit. A refusal is located at the import/$ref/include, names the rule, and never
 * echoes anything of the file it refused (before this, `import "/etc/passwd"` was read and its first token quoted).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";

const roots: string[] = [];
afterAll(() => {
  for (const d of roots) rmSync(d, { recursive: true, force: true });
});

/** A workspace: `project/` (the working folder) and `outside/` beside it, holding a file with a secret. */
function workspace(files: Record<string, string>): { project: string; outside: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "specforge-spec-files-"));
  roots.push(dir);
  const project = path.join(dir, "project");
  const outside = path.join(dir, "outside");
  mkdirSync(project);
  mkdirSync(outside);
  writeFileSync(path.join(outside, "secret.yaml"), "SECRET-TOKEN-123: {type: string}\n");
  writeFileSync(path.join(outside, "secret.proto"), 'SECRET_TOKEN_123 syntax = "proto3";\n');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(project, name)), { recursive: true });
    writeFileSync(path.join(project, name), text);
  }
  return { project, outside };
}

const openapi = (ref: string) =>
  `openapi: 3.0.3\ninfo: {title: T, version: "1"}\npaths: {}\ncomponents:\n  schemas:\n    A: {$ref: "${ref}"}\n`;
const xsd = (location: string) =>
  `<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t">\n  <xsd:include schemaLocation="${location}"/>\n</xsd:schema>\n`;

async function generate(project: string, ...args: string[]) {
  const r = await runCli(project, "generate", ...args, "--out", "gen");
  expect(r.err).not.toMatch(/SECRET|TOKEN|Internal|at .*\.ts:\d+/);
  return r;
}

describe("proto imports follow protoc's rule: a path inside the proto path", () => {
  it.each([
    ["/etc/passwd", "never absolute"],
    ["../../outside/secret.proto", 'may not contain ".", ".."'],
    ["a/./b.proto", 'may not contain ".", ".."'],
    ["a//b.proto", "empty segments"],
  ])("import %s is refused before anything is opened", async (imported, rule) => {
    const { project } = workspace({ "api.proto": `syntax = "proto3";\nimport "${imported}";\n` });
    const r = await generate(project, "api.proto");
    expect(r.code).toBe(1);
    expect(r.err).toContain(`api.proto:2:1: import "${imported}": `);
    expect(r.err).toContain(rule);
  });

  it("an import that is a symlink out of the roots is refused as outside, not read", async () => {
    const { project, outside } = workspace({ "api.proto": `syntax = "proto3";\nimport "linked.proto";\n` });
    symlinkSync(path.join(outside, "secret.proto"), path.join(project, "linked.proto"));
    const r = await generate(project, "api.proto");
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/api\.proto:2:1: import "linked\.proto": cannot read linked\.proto: outside the folders specs may be read from/);
  });

  it("an import of a device is refused, not read (it would never end)", async () => {
    const { project } = workspace({ "api.proto": `syntax = "proto3";\nimport "zero.proto";\n` });
    symlinkSync("/dev/zero", path.join(project, "zero.proto"));
    const r = await generate(project, "api.proto", "--root", "/dev");
    expect(r.code).toBe(1);
    expect(r.err).toContain('import "zero.proto": cannot read zero.proto: not a regular file (a character device)');
  });
});

describe("OpenAPI $refs and XSD includes", () => {
  it("a $ref outside the roots is refused, located at the $ref; --root allows it", async () => {
    const { project, outside } = workspace({ "api.yaml": openapi("../outside/secret.yaml#/SECRET-TOKEN-123") });
    const r = await generate(project, "api.yaml");
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^api\.yaml:6:9: cannot read referenced file '.*outside\/secret\.yaml': outside the folders specs may be read from \(\.\); allow its folder with --root <dir>/m);
    const allowed = await runCli(project, "generate", "api.yaml", "--out", "gen", "--root", outside);
    expect(allowed.err).toBe("");
    expect(allowed.code).toBe(0);
  });

  it("a $ref to a named pipe is refused at once (opening it would wait for a writer forever)", async () => {
    const { project } = workspace({ "api.yaml": openapi("pipe.yaml") });
    execFileSync("mkfifo", [path.join(project, "pipe.yaml")]);
    const r = await generate(project, "api.yaml");
    expect(r.code).toBe(1);
    expect(r.err).toContain("cannot read referenced file 'pipe.yaml': not a regular file (a named pipe)");
  });

  it("an xsd:include of /dev/zero through a symlink is refused", async () => {
    const { project } = workspace({ "s.xsd": xsd("zero.xsd") });
    symlinkSync("/dev/zero", path.join(project, "zero.xsd"));
    const r = await generate(project, "s.xsd");
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/s\.xsd:2:\d+: .*zero\.xsd.*outside the folders specs may be read from/);
  });

  it("a file over --max-spec-bytes is refused before it is read, naming the limit", async () => {
    const { project } = workspace({ "api.yaml": openapi("big.yaml"), "big.yaml": `type: string\ndescription: "${"x".repeat(5000)}"\n` });
    const r = await generate(project, "api.yaml", "--max-spec-bytes", "1000");
    expect(r.code).toBe(1);
    expect(r.err).toContain("cannot read referenced file 'big.yaml': 5029 bytes, over the size limit for a spec file (1000 bytes; raise it with --max-spec-bytes)");
    expect((await runCli(project, "generate", "api.yaml", "--out", "gen", "--max-spec-bytes", "banana")).err).toContain("--max-spec-bytes: expected a number of bytes");
  });
});
