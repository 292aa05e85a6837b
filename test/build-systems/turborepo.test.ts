/**
 * Turborepo runs `specforge generate` as a cached task (docs/build-systems.md): the second run is a cache hit for
 * every package, and after one spec changes only that package and the package that imports it regenerate.
 * turbo is the npm package (its binary ships inside the registry package); no network, no telemetry.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { REPO } from "../helpers/seeds.js";
import { makeWorkspace, ORDERS_PROTO } from "./workspace.js";

const TURBO = path.join(REPO, "node_modules", ".bin", "turbo");
const ws = makeWorkspace("specforge-turbo-", (root) => {
  // The task of docs/build-systems.md: the config and the specs as inputs, generated/ as outputs; shop's hash also
  // takes in orders' (dependsOn ^generate), since shop.proto imports orders.proto.
  const task = { dependsOn: ["^generate"], inputs: ["specforge.config.json", "specs/**"], outputs: ["generated/**"] };
  writeFileSync(path.join(root, "turbo.json"), JSON.stringify({ tasks: { generate: task } }, null, 2));
});
afterAll(() => rmSync(ws.root, { recursive: true, force: true }));

/** `turbo run generate`; which packages' tasks were a cache hit and which ran. */
function turbo(): { hit: string[]; ran: string[] } {
  const r = spawnSync(TURBO, ["run", "generate", "--output-logs=hash-only", "--no-daemon"], {
    cwd: ws.root,
    encoding: "utf8",
    timeout: 180_000,
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1", TURBO_NO_UPDATE_NOTIFIER: "1", CI: "1" },
  });
  if (r.status !== 0) throw new Error(`turbo exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  const of = (what: RegExp) => [...r.stdout.matchAll(what)].map((m) => m[1]!).sort();
  return { hit: of(/^(\w+):generate: cache hit/gm), ran: of(/^(\w+):generate: cache miss/gm) };
}

it("generates every package once, then only what a changed spec affects", () => {
  expect(turbo()).toEqual({ hit: [], ran: ["orders", "pets", "shop"] });
  expect(readFileSync(ws.file("shop", "generated/shop/types.ts"), "utf8")).toContain("export interface Cart");

  // Nothing changed: every task comes from the cache.
  expect(turbo()).toEqual({ hit: ["orders", "pets", "shop"], ran: [] });

  // orders.proto changes: orders regenerates, and shop (which imports it) with it; pets stays cached.
  writeFileSync(ws.file("orders", "specs/orders.proto"), ORDERS_PROTO.replace("string id = 1;", "string id = 1; string note = 2;"));
  expect(turbo()).toEqual({ hit: ["pets"], ran: ["orders", "shop"] });
  expect(readFileSync(ws.file("orders", "generated/orders/types.ts"), "utf8")).toContain("note");
}, 300_000);
