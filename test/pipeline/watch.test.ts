import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { PipelineEvent } from "../../src/pipeline/events.js";
import { watch, type WatchHandle } from "../../src/pipeline/watch.js";

const roots: string[] = [];
const handles: WatchHandle[] = [];
afterEach(async () => {
  for (const h of handles.splice(0)) await h.stop();
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function project(): string {
  const root = mkdtempSync(path.join(tmpdir(), "specforge-watch-"));
  roots.push(root);
  mkdirSync(path.join(root, "specs"));
  mkdirSync(path.join(root, "protos"));
  writeFileSync(path.join(root, "specforge.config.json"), JSON.stringify({ specs: ["specs"], out: "gen", protoPaths: ["protos"] }));
  writeFileSync(path.join(root, "protos/common.proto"), 'syntax = "proto3";\npackage common;\nmessage Id { string value = 1; }\n');
  writeFileSync(path.join(root, "specs/a.proto"), A);
  writeFileSync(path.join(root, "specs/b.proto"), 'syntax = "proto3";\npackage b;\nmessage Bee { string name = 1; }\n');
  return root;
}
const A = 'syntax = "proto3";\npackage a;\nimport "common.proto";\nmessage Ay { common.Id id = 1; }\n';

/** Wait (bounded) until an event after `from` matches. */
async function waitFor(events: PipelineEvent[], from: number, match: (e: PipelineEvent) => boolean): Promise<PipelineEvent> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = events.slice(from).find(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out; events: ${JSON.stringify(events.slice(from))}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function start(root: string): { events: PipelineEvent[]; handle: WatchHandle } {
  const events: PipelineEvent[] = [];
  const handle = watch({ cwd: root, debounceMs: 50 }, { onEvent: (e) => events.push(e) });
  handles.push(handle);
  return { events, handle };
}

const generatedSpecs = (events: PipelineEvent[], from = 0) => events.slice(from).flatMap((e) => (e.type === "generated" ? [e.spec] : []));
const roundDone = (e: PipelineEvent) => e.type === "done";

describe("watch", () => {
  it("regenerates only the changed spec, keeps the last good output on a broken edit, and recovers", async () => {
    const root = project();
    const { events, handle } = start(root);
    await handle.ready;
    // The imported common.proto is a module of its own (one module per input file).
    expect(generatedSpecs(events)).toEqual(["specs/a.proto", "specs/b.proto", "protos/common.proto"]);
    expect(events.at(-1)).toEqual({ type: "watching", files: 4 });
    const types = (spec: string) => readFileSync(path.join(root, "gen", spec, "types.ts"), "utf8");
    const bStat = statSync(path.join(root, "gen/b/types.ts")).mtimeMs;

    // An edit: only a is regenerated and rewritten.
    let from = events.length;
    writeFileSync(path.join(root, "specs/a.proto"), A.replace("}\n", "  string note = 2; }\n"));
    await waitFor(events, from, roundDone);
    expect(events.slice(from).find((e) => e.type === "changed")).toEqual({ type: "changed", files: ["specs/a.proto"], specs: ["specs/a.proto"] });
    expect(generatedSpecs(events, from)).toEqual(["specs/a.proto"]);
    expect(types("a")).toContain("note: string;");
    expect(statSync(path.join(root, "gen/b/types.ts")).mtimeMs).toBe(bStat);

    // A broken edit: the error says where, and the last good output stays.
    const good = types("a");
    from = events.length;
    writeFileSync(path.join(root, "specs/a.proto"), A.replace("common.Id id = 1;", "common.Id id = ;"));
    const error = await waitFor(events, from, (e) => e.type === "error");
    expect(error).toMatchObject({ type: "error", spec: "specs/a.proto", message: expect.stringMatching(/^specs\/a\.proto:4:\d+: /) });
    // The round's done says it failed and how many errors it reported, as generate's does.
    const done = await waitFor(events, from, roundDone);
    const errorCount = events.slice(from).filter((e) => e.type === "error").length;
    expect(errorCount).toBeGreaterThan(0);
    expect(done).toMatchObject({ type: "done", ok: false, errors: errorCount, warnings: 0 });
    expect(types("a")).toBe(good);

    // Fixed: regenerated again.
    from = events.length;
    writeFileSync(path.join(root, "specs/a.proto"), A.replace("}\n", "  string fixed = 3; }\n"));
    await waitFor(events, from, (e) => e.type === "done" && e.ok);
    expect(types("a")).toContain("fixed: string;");

    // An imported file counts as an input of the spec that imports it (and of its own module, where its types are).
    from = events.length;
    writeFileSync(path.join(root, "protos/common.proto"), 'syntax = "proto3";\npackage common;\nmessage Id { string value = 1; int32 version = 2; }\n');
    await waitFor(events, from, roundDone);
    expect(generatedSpecs(events, from)).toEqual(["specs/a.proto", "protos/common.proto"]);
    expect(types("common")).toContain("version: number;");
    expect(types("a")).toContain('from "../common/types.js"');
    expect(statSync(path.join(root, "gen/b/types.ts")).mtimeMs).toBe(bStat);
  });

  it("a restart skips specs whose inputs and output are unchanged (.specforge-cache), and redoes edited output", async () => {
    const root = project();
    const first = start(root);
    await first.handle.ready;
    await first.handle.stop();
    expect(JSON.parse(readFileSync(path.join(root, ".specforge-cache/watch.json"), "utf8")).version).toBe(1);

    const second = start(root);
    await second.handle.ready;
    expect(generatedSpecs(second.events)).toEqual([]);
    await second.handle.stop();

    writeFileSync(path.join(root, "gen/b/types.ts"), "// edited by hand\n");
    const third = start(root);
    await third.handle.ready;
    expect(generatedSpecs(third.events)).toEqual(["specs/b.proto"]);
    expect(readFileSync(path.join(root, "gen/b/types.ts"), "utf8")).toContain("export interface Bee");
  });

  it("a broken spec with its own output folder names that folder as kept; one that never generated keeps nothing", async () => {
    const root = project();
    writeFileSync(
      path.join(root, "specforge.config.json"),
      JSON.stringify({ specs: [{ input: "specs/a.proto", out: "ay-custom" }, "specs/b.proto"], out: "gen", protoPaths: ["protos"] }),
    );
    const { events, handle } = start(root);
    await handle.ready;
    let from = events.length;
    writeFileSync(path.join(root, "specs/a.proto"), A.replace("common.Id id = 1;", "common.Id id = ;"));
    expect(await waitFor(events, from, (e) => e.type === "error")).toMatchObject({ spec: "specs/a.proto", kept: "ay-custom" });
    expect(readFileSync(path.join(root, "gen/ay-custom/types.ts"), "utf8")).toContain("export interface Ay");

    // Broken again before it ever generated again: the last good output is still the first one.
    await waitFor(events, from, roundDone);
    from = events.length;
    writeFileSync(path.join(root, "specs/a.proto"), A.replace("common.Id id = 1;", "common.Id = 1;"));
    expect(await waitFor(events, from, (e) => e.type === "error")).toMatchObject({ kept: "ay-custom" });
    await handle.stop();

    // A fresh watch on a spec that is broken from the start: nothing to keep, so no `kept`.
    rmSync(path.join(root, ".specforge-cache"), { recursive: true, force: true });
    const second = start(root);
    await second.handle.ready;
    const error = second.events.find((e) => e.type === "error");
    expect(error).toMatchObject({ type: "error", spec: "specs/a.proto" });
    expect(error).not.toHaveProperty("kept");
  });

  it("picks up a config change", async () => {
    const root = project();
    const { events, handle } = start(root);
    await handle.ready;
    const from = events.length;
    writeFileSync(path.join(root, "specforge.config.json"), JSON.stringify({ specs: ["specs"], out: "gen", protoPaths: ["protos"], int64: "string" }));
    await waitFor(events, from, roundDone);
    // Every spec's options changed (the imported module's too); none uses int64, so they are regenerated but their
    // output stays the same.
    expect(generatedSpecs(events, from)).toEqual(["specs/a.proto", "specs/b.proto", "protos/common.proto"]);
  });

  it("regenerates every spec when a template override appears", async () => {
    const root = project();
    mkdirSync(path.join(root, "tpl"));
    writeFileSync(path.join(root, "specforge.config.json"), JSON.stringify({ specs: ["specs"], out: "gen", protoPaths: ["protos"], templates: "tpl" }));
    const { events, handle } = start(root);
    await handle.ready;
    const from = events.length;
    writeFileSync(path.join(root, "tpl/package-readme.hbs"), "# {{spec}} (custom)\n");
    await waitFor(events, from, roundDone);
    expect(generatedSpecs(events, from)).toEqual(["specs/a.proto", "specs/b.proto", "protos/common.proto"]);
    expect(readFileSync(path.join(root, "gen/b/README.md"), "utf8")).toBe("# b (custom)\n");
  });
});
