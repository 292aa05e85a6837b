import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RUNTIME_API, RUNTIME_API_EXPORT } from "../../src/codegen/runtime-imports.js";
import { listFiles } from "../../src/pipeline/write-output.js";
import { REPO } from "../helpers/seeds.js";
import { typecheckFiles } from "../helpers/typecheck.js";

/**
 * The runtime API check (src/runtime/version.ts, docs/runtime.md): generated files re-export `RuntimeApi<N>` from
 * the runtime they import. Today's generated/ must keep compiling against the next runtime (one that adds API 2 and
 * keeps 1), and code that needs an API the installed runtime lacks must fail to compile, on the check's line.
 */
const AREAS = ["protobuf", "json", "xml", "soap", "rest", "rpc"];
const work = mkdtempSync(path.join(tmpdir(), "specforge-runtime-api-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const generated = new Map(
  listFiles(path.join(REPO, "generated"))
    .filter((f) => f.endsWith(".ts"))
    .map((f) => [f, readFileSync(path.join(REPO, "generated", f), "utf8")] as const),
);

/** compilerOptions.paths sending specforge/runtime and its areas to the runtime at `dir` (a copy of src/runtime). */
function pathsTo(dir: string): Record<string, string[]> {
  return {
    "specforge/runtime": [path.join(dir, "index.ts")],
    ...Object.fromEntries(AREAS.map((a) => [`specforge/runtime/${a}`, [path.join(dir, "areas", `${a}.ts`)]])),
  };
}

/** A copy of src/runtime whose version.ts is rewritten by `edit`, and whose entries re-export what it names. */
function runtimeCopy(name: string, edit: (version: string) => string, reexport: string): string {
  const dir = path.join(work, name);
  cpSync(path.join(REPO, "src/runtime"), dir, { recursive: true });
  const version = path.join(dir, "version.ts");
  writeFileSync(version, edit(readFileSync(version, "utf8")));
  for (const entry of ["index.ts", ...AREAS.map((a) => `areas/${a}.ts`)]) {
    const file = path.join(dir, entry);
    const text = readFileSync(file, "utf8");
    const line = /^export \{ RUNTIME_API_VERSION, type RuntimeApi1 \} from "(\.\.?\/version\.js)";$/m;
    expect(text, entry).toMatch(line);
    writeFileSync(file, text.replace(line, (_, from: string) => `export { ${reexport} } from "${from}";`));
  }
  return dir;
}

describe("the runtime API check", () => {
  it("every generated file that imports the runtime imports an area entry and carries the check once; others none", () => {
    let checked = 0;
    for (const [file, text] of generated) {
      const imports = [...text.matchAll(/ from "(specforge\/runtime[^"]*)";/g)].map((m) => m[1]!);
      expect(imports, file).not.toContain("specforge/runtime");
      for (const m of imports) expect(AREAS.map((a) => `specforge/runtime/${a}`), file).toContain(m);
      const checks = text.split("\n").filter((l) => l.includes(RUNTIME_API_EXPORT));
      if (imports.length === 0) {
        expect(checks, file).toEqual([]);
        continue;
      }
      expect(checks, file).toEqual([expect.stringMatching(new RegExp(`^export type \\{ RuntimeApi${RUNTIME_API} as \\$specforgeRuntimeApi \\} from "specforge/runtime/[a-z]+";$`))]);
      checked++;
    }
    // 22 files of generated/ import the runtime (the types and index files do not).
    expect(checked).toBe(22);
  });

  it("today's generated/ compiles strict against the next runtime (API 2 added, API 1 kept)", () => {
    const next = runtimeCopy(
      "next",
      (v) => v.replace("export const RUNTIME_API_VERSION = 1;", "export const RUNTIME_API_VERSION = 2;") + 'export type RuntimeApi2 = "specforge runtime API 2";\n',
      "RUNTIME_API_VERSION, type RuntimeApi1, type RuntimeApi2",
    );
    expect(typecheckFiles(generated, { paths: pathsTo(next) })).toEqual([]);
  }, 240_000);

  it("code generated for an API the runtime lacks fails to compile on the check's line, below the line saying why", () => {
    // What a generator targeting API 2 writes, compiled against today's runtime (API 1 only); and today's code
    // against a runtime that dropped API 1.
    const needs2 = new Map([...generated].filter(([f]) => f.startsWith("webhooks/")).map(([f, t]) => [f, t.replaceAll(`RuntimeApi${RUNTIME_API}`, "RuntimeApi2").replaceAll(`serving API ${RUNTIME_API}:`, "serving API 2:")]));
    const errors = typecheckFiles(needs2);
    const files = [...needs2].filter(([, t]) => t.includes(RUNTIME_API_EXPORT));
    expect(errors).toHaveLength(files.length);
    for (const [file, text] of files) {
      const lines = text.split("\n");
      const at = lines.findIndex((l) => l.includes(RUNTIME_API_EXPORT));
      expect(lines[at - 1]).toMatch(/^\/\/ Needs a specforge runtime serving API 2: a compile error on the next line means the installed specforge is older/);
      expect(errors).toContainEqual(expect.stringMatching(new RegExp(`^${file}:${at + 1}:\\d+: '"specforge/runtime/[a-z]+"' has no exported member named 'RuntimeApi2'\\.`)));
    }

    const dropped = runtimeCopy("dropped", (v) => v.replace(/export type RuntimeApi1 = [^\n]*\n/, 'export type RuntimeApi2 = "specforge runtime API 2";\n'), "RUNTIME_API_VERSION, type RuntimeApi2");
    const webhooks = new Map([...generated].filter(([f]) => f.startsWith("webhooks/")));
    const old = typecheckFiles(webhooks, { paths: pathsTo(dropped) });
    expect(old.length).toBeGreaterThan(0);
    for (const e of old) expect(e).toMatch(/: '"specforge\/runtime\/[a-z]+"' has no exported member named 'RuntimeApi1'\./);
  }, 240_000);
});
