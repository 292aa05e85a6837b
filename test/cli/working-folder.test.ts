/**
 * Output does not depend on where the command runs: the same project generated from its own folder, from its parent
 * and from a subfolder (with and without a config file) gives the same files byte for byte. Generated headers and
 * the README name paths from the project folder (the config's folder, or the output root's parent), never cwd.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";

const roots: string[] = [];
afterAll(() => {
  for (const d of roots) rmSync(d, { recursive: true, force: true });
});

const FILES: Record<string, string> = {
  "specs/shop/order.proto": `syntax = "proto3";\npackage shop;\nimport "common/money.proto";\nmessage Order { string id = 1; common.Money total = 2; }\nservice Orders { rpc Get(Order) returns (Order); }\n`,
  "specs/shop/common/money.proto": `syntax = "proto3";\npackage common;\nmessage Money { int64 units = 1; string currency = 2; }\n`,
  "specs/api.yaml": `openapi: 3.0.3\ninfo: {title: T, version: "1"}\npaths: {}\ncomponents:\n  schemas:\n    A: {type: object, properties: {a: {type: string}}}\n`,
};

/** A fresh copy of the project under `<tmp>/outer/proj`, with `outer/elsewhere` beside it; returns proj. */
function project(config: boolean): string {
  const outer = mkdtempSync(path.join(tmpdir(), "specforge-cwd-"));
  roots.push(outer);
  const proj = path.join(outer, "proj");
  mkdirSync(path.join(outer, "elsewhere"), { recursive: true });
  for (const [name, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(proj, name)), { recursive: true });
    writeFileSync(path.join(proj, name), text);
  }
  if (config) writeFileSync(path.join(proj, "specforge.config.json"), JSON.stringify({ specs: ["specs/shop/order.proto", "specs/api.yaml"], out: "gen" }));
  return proj;
}

function tree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(path.relative(dir, p), readFileSync(p, "utf8"));
    }
  };
  walk(dir);
  return out;
}

async function generated(proj: string, cwd: string, ...args: string[]): Promise<Map<string, string>> {
  const r = await runCli(cwd, "generate", ...args);
  expect(r.err).toBe("");
  expect(r.code).toBe(0);
  return tree(path.join(proj, "gen"));
}

describe("output does not depend on the working folder", () => {
  it("with a config file: from the project, its parent, a sibling and a subfolder", async () => {
    const runs: Map<string, string>[] = [];
    for (const where of ["proj", "outer", "elsewhere", "sub"] as const) {
      const proj = project(true);
      const outer = path.dirname(proj);
      const cwd = where === "proj" ? proj : where === "outer" ? outer : where === "elsewhere" ? path.join(outer, "elsewhere") : path.join(proj, "specs/shop");
      runs.push(await generated(proj, cwd, "--config", path.relative(cwd, path.join(proj, "specforge.config.json")) || "specforge.config.json"));
    }
    expect(runs[0]!.size).toBeGreaterThan(10);
    expect(runs[0]!.get("order/types.ts")).toContain("specs/shop/order.proto");
    expect(runs[0]!.get("order/README.md")).toContain("./gen/order/index.js");
    for (const other of runs.slice(1)) expect(other).toEqual(runs[0]);
  });

  it("spec paths as arguments: from the project and from its parent", async () => {
    const a = project(false);
    const b = project(false);
    const fromProject = await generated(a, a, "specs/shop/order.proto", "specs/api.yaml", "--out", "gen");
    const fromParent = await generated(b, path.dirname(b), "proj/specs/shop/order.proto", "proj/specs/api.yaml", "--out", "proj/gen");
    expect(fromProject.size).toBeGreaterThan(10);
    expect(fromParent).toEqual(fromProject);
  });
});
