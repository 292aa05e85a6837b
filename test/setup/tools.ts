/**
 * vitest global setup: the suite cross-checks against protoc, xmllint, xmlsec1, g++ (the conformance runner), chromium
 * and bazel (test/build-systems).
 * Without them dozens of tests would fail one by one with `spawnSync protoc ENOENT`; instead the run stops before
 * any test with the one message of scripts/ensure-tools.sh --check (which tools, and the command that installs
 * them). `npm test` installs them first when it can (as root).
 */
import { spawnSync } from "node:child_process";
import path from "node:path";

export default function checkTools(): void {
  const script = path.resolve(import.meta.dirname, "../../scripts/ensure-tools.sh");
  const r = spawnSync("bash", [script, "--check"], { encoding: "utf8", timeout: 30_000 });
  if (r.status !== 0) throw new Error(r.stderr.trim() || `scripts/ensure-tools.sh --check exited ${r.status}`);
}
