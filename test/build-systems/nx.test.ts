/**
 * Nx runs `specforge generate` as a cached target, its inputs made the way docs/build-systems.md says: from
 * `specforge inspect --inputs` (so shop's target lists orders.proto, which shop.proto imports). The second run comes
 * from the cache for every project; after orders.proto changes, orders and shop run again and pets stays cached.
 * Nx is the npm package (its native binary ships inside the registry package); no daemon, no Nx Cloud.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { REPO } from "../helpers/seeds.js";
import { makeWorkspace, ORDERS_PROTO, SPECFORGE } from "./workspace.js";

const NX = path.join(REPO, "node_modules", ".bin", "nx");
const PROJECTS = ["orders", "pets", "shop"] as const;

/** A project's inputs from `specforge inspect --inputs`, as Nx file inputs relative to the workspace root. */
function inputsOf(root: string, project: string): string[] {
  const dir = path.join(root, "packages", project);
  const r = spawnSync(process.execPath, [SPECFORGE, "inspect", "--inputs"], { cwd: dir, encoding: "utf8", timeout: 60_000 });
  if (r.status !== 0) throw new Error(`inspect --inputs exited ${r.status}: ${r.stderr}`);
  const listed = JSON.parse(r.stdout) as { config: string | null; specs: { inputs: string[] }[] };
  const files = [listed.config, ...listed.specs.flatMap((s) => s.inputs)].filter((f): f is string => f !== null);
  return [...new Set(files.map((f) => `{workspaceRoot}/${path.relative(root, path.join(dir, f)).split(path.sep).join("/")}`))].sort();
}

const ws = makeWorkspace("specforge-nx-", (root) => {
  // Nx loads its own plugins from the workspace's node_modules.
  symlinkSync(path.join(REPO, "node_modules"), path.join(root, "node_modules"), "dir");
  writeFileSync(path.join(root, "nx.json"), JSON.stringify({ targetDefaults: { generate: { cache: true } } }, null, 2));
});
for (const p of PROJECTS) {
  const generate = {
    executor: "nx:run-commands",
    options: { command: `node ${JSON.stringify(SPECFORGE)} generate --quiet`, cwd: "{projectRoot}" },
    inputs: inputsOf(ws.root, p),
    outputs: ["{projectRoot}/generated"],
  };
  writeFileSync(ws.file(p, "project.json"), JSON.stringify({ name: p, targets: { generate } }, null, 2));
}
afterAll(() => rmSync(ws.root, { recursive: true, force: true }));

/** `nx run-many -t generate`; which projects' targets came from the cache and which ran. */
function nx(): { hit: string[]; ran: string[] } {
  const r = spawnSync(NX, ["run-many", "-t", "generate", "--outputStyle=static"], {
    cwd: ws.root,
    encoding: "utf8",
    timeout: 180_000,
    env: { ...process.env, NX_DAEMON: "false", NX_NO_CLOUD: "true", NX_TUI: "false", NX_SKIP_NX_CACHE: "false", CI: "1" },
  });
  if (r.status !== 0) throw new Error(`nx exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  const runs = [...r.stdout.matchAll(/^> nx run (\w+):generate(.*)$/gm)];
  return {
    hit: runs.filter((m) => /cache/.test(m[2]!)).map((m) => m[1]!).sort(),
    ran: runs.filter((m) => !/cache/.test(m[2]!)).map((m) => m[1]!).sort(),
  };
}

it("inspect --inputs lists what each project reads, including another project's proto", () => {
  expect(inputsOf(ws.root, "shop")).toEqual([
    "{workspaceRoot}/packages/orders/specs/orders.proto",
    "{workspaceRoot}/packages/shop/specforge.config.json",
    "{workspaceRoot}/packages/shop/specs/shop.proto",
  ]);
});

it("generates every project once, then only what a changed spec affects", () => {
  expect(nx()).toEqual({ hit: [], ran: ["orders", "pets", "shop"] });
  expect(readFileSync(ws.file("shop", "generated/shop/types.ts"), "utf8")).toContain("export interface Cart");
  expect(nx()).toEqual({ hit: ["orders", "pets", "shop"], ran: [] });
  writeFileSync(ws.file("orders", "specs/orders.proto"), ORDERS_PROTO.replace("string id = 1;", "string id = 1; string note = 2;"));
  expect(nx()).toEqual({ hit: ["pets"], ran: ["orders", "shop"] });
  expect(readFileSync(ws.file("orders", "generated/orders/types.ts"), "utf8")).toContain("note");
}, 300_000);
