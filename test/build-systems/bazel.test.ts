/**
 * Bazel runs `specforge generate` as the genrule of docs/build-systems.md, its srcs and outs written from
 * `specforge inspect --inputs` as the page says (the jq step done here in code), sandboxed: the first build runs the
 * genrule, a second build runs nothing (Bazel's action cache), and after a spec changes the genrule runs again.
 * Bazel is Debian's bazel-bootstrap (scripts/ensure-tools.sh); it builds a genrule offline. The page's
 * `:specforge` tool is the bin wrapped in a shell script here: a `sh_binary` would need rules_cc from the network.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { ORDERS_PROTO, SPECFORGE } from "./workspace.js";

const root = mkdtempSync(path.join(tmpdir(), "specforge-bazel-"));
const workspace = path.join(root, "ws");
const outputRoot = path.join(root, "bazel-root");
afterAll(() => {
  // Bazel's output tree holds read-only files and folders.
  spawnSync("chmod", ["-R", "u+w", root]);
  rmSync(root, { recursive: true, force: true });
});

const write = (rel: string, text: string) => {
  mkdirSync(path.dirname(path.join(workspace, rel)), { recursive: true });
  writeFileSync(path.join(workspace, rel), text);
};
write("WORKSPACE", "");
write("specforge.config.json", JSON.stringify({ specs: ["specs"], out: "generated" }));
write("specs/orders.proto", ORDERS_PROTO);
write("specs/shop.proto", 'syntax = "proto3";\npackage shop;\nimport "orders.proto";\nmessage Cart { repeated orders.Order orders = 1; }\n');
write("specforge.sh", `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(SPECFORGE)} "$@"\n`);
chmodSync(path.join(workspace, "specforge.sh"), 0o755);

/** docs/build-systems.md's jq step: SPECFORGE_SRCS and SPECFORGE_OUTS from `specforge inspect --inputs`. */
function writeFileLists(): void {
  const r = spawnSync(process.execPath, [SPECFORGE, "inspect", "--inputs"], { cwd: workspace, encoding: "utf8", timeout: 60_000 });
  if (r.status !== 0) throw new Error(`inspect --inputs exited ${r.status}: ${r.stderr}`);
  const listed = JSON.parse(r.stdout) as { config: string | null; templates: string[]; specs: { inputs: string[]; outputs: string[] }[] };
  const srcs = [...new Set([listed.config, ...listed.templates, ...listed.specs.flatMap((s) => s.inputs)].filter((f): f is string => f !== null))].sort();
  const outs = listed.specs.flatMap((s) => s.outputs);
  write("specforge_files.bzl", `SPECFORGE_SRCS = ${JSON.stringify(srcs)}\nSPECFORGE_OUTS = ${JSON.stringify(outs)}\n`);
}
writeFileLists();
write(
  "BUILD",
  `load(":specforge_files.bzl", "SPECFORGE_OUTS", "SPECFORGE_SRCS")

genrule(
    name = "generated",
    srcs = SPECFORGE_SRCS,
    outs = SPECFORGE_OUTS,
    cmd = "$(execpath specforge.sh) generate --config $(execpath specforge.config.json) --out $(RULEDIR)/generated --quiet",
    tools = ["specforge.sh"],
)
`,
);

/** `bazel build //:generated`; how many actions ran (in the sandbox or locally), not counting Bazel's internal ones. */
function build(): number {
  // Nothing is downloaded: a plain genrule needs no repository beyond @bazel_tools, which Bazel carries (an
  // sh_binary tool would need rules_cc from the network, which is why the tool here is the script file itself).
  const r = spawnSync("bazel", [`--output_user_root=${outputRoot}`, "--batch", "build", "//:generated", "--noshow_progress"], {
    cwd: workspace,
    encoding: "utf8",
    timeout: 240_000,
    env: { ...process.env, HOME: root },
  });
  if (r.status !== 0) throw new Error(`bazel exited ${r.status}:\n${r.stderr.split("\n").filter((l) => !l.includes("linux-sandbox-pid1")).join("\n")}`);
  const line = /INFO: (\d+) process(?:es)?: (.*)/.exec(r.stderr);
  if (!line) throw new Error(`no process count in bazel's output:\n${r.stderr}`);
  return [...line[2]!.matchAll(/(\d+) ([\w-]+)/g)].filter((m) => m[2] !== "internal").reduce((n, m) => n + Number(m[1]), 0);
}

it("the genrule of docs/build-systems.md builds sandboxed, is cached, and reruns when a spec changes", () => {
  expect(build()).toBe(1);
  const types = path.join(workspace, "bazel-bin/generated/shop/types.ts");
  expect(readFileSync(types, "utf8")).toContain("export interface Cart");
  expect(build()).toBe(0);
  write("specs/orders.proto", ORDERS_PROTO.replace("string id = 1;", "string id = 1; string note = 2;"));
  expect(build()).toBe(1);
  expect(readFileSync(path.join(workspace, "bazel-bin/generated/orders/types.ts"), "utf8")).toContain("note");
}, 600_000);
