/**
 * scripts/ensure-tools.sh, the first step of the README's test command: on a machine without the tools, run by a
 * user who cannot install them, it stops at once with one message that names what is missing and the command that
 * installs it — never a suite of ENOENT failures. A PATH with only the basics stands in for a machine without
 * protoc, xmllint, xmlsec1 and g++ (the headers and chromium are looked up by absolute path, so they are present here).
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const SCRIPT = path.resolve(import.meta.dirname, "../../scripts/ensure-tools.sh");
const bare = mkdtempSync(path.join(tmpdir(), "specforge-bare-path-"));
chmodSync(bare, 0o755); // readable by `nobody`
// What the script itself runs, and nothing it checks for.
for (const tool of ["bash", "dirname", "id", "sed", "sudo"]) {
  const found = spawnSync("bash", ["-c", `command -v ${tool}`], { encoding: "utf8" }).stdout.trim();
  if (found) symlinkSync(found, path.join(bare, tool));
}
// A copy `nobody` can read wherever the clone is (CI's clone folder may be private to root); with tools missing the
// script stops before it needs anything beside it.
const COPY = path.join(bare, "ensure-tools.sh");
copyFileSync(SCRIPT, COPY);
chmodSync(COPY, 0o755);
afterAll(() => rmSync(bare, { recursive: true, force: true }));

const isRoot = process.getuid?.() === 0;
/** As an unprivileged user: root's `nobody` through runuser, or this user when it is not root already. */
function runUnprivileged(args: string[]) {
  const env = { PATH: bare, HOME: "/nonexistent", LANG: "C" };
  const started = Date.now();
  const r = isRoot
    ? spawnSync("runuser", ["-u", "nobody", "--", "/usr/bin/env", "-i", ...Object.entries(env).map(([k, v]) => `${k}=${v}`), path.join(bare, "bash"), COPY, ...args], { encoding: "utf8", timeout: 30_000 })
    : spawnSync(path.join(bare, "bash"), [COPY, ...args], { encoding: "utf8", timeout: 30_000, env });
  return { ...r, ms: Date.now() - started };
}

describe("scripts/ensure-tools.sh", () => {
  it("without the tools and without root: one message naming them and the install command, exit 1, nothing else", () => {
    const r = runUnprivileged([]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    const lines = r.stderr.trim().split("\n");
    expect(lines[0]).toBe("specforge tests: missing tools: protoc (protobuf-compiler), xmllint (libxml2-utils), xmlsec1 (xmlsec1), g++ (g++), bazel (bazel-bootstrap).");
    expect(lines[1]).toBe("They cannot be installed from here: not root, and no passwordless sudo.");
    expect(lines).toContain("  sudo apt-get update && sudo apt-get install -y protobuf-compiler libxml2-utils xmlsec1 g++ bazel-bootstrap");
    expect(lines).toHaveLength(5);
    expect(r.stderr).not.toMatch(/ENOENT|command not found/);
  });

  it("--check installs nothing and says so", () => {
    const r = runUnprivileged(["--check"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("Nothing was installed (--check).");
    expect(r.stderr).toContain("protoc (protobuf-compiler)");
  });

  it("--check passes on this machine, where npm test installed everything", () => {
    const r = spawnSync("bash", [SCRIPT, "--check"], { encoding: "utf8", timeout: 30_000 });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});
