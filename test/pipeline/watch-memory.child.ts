/**
 * Child of test/pipeline/watch-scale.test.ts (run with node --expose-gc --import tsx): a 50-spec watch project,
 * 40 rounds each regenerating one spec, and the heap after each round (after a full GC) on stdout as JSON.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PipelineEvent } from "../../src/pipeline/events.js";
import { watch } from "../../src/pipeline/watch.js";
import { makeScaleProject, waitForEvent } from "../helpers/watch-scale.js";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc");

const root = mkdtempSync(path.join(tmpdir(), "specforge-watch-memory-"));
try {
  const specs = makeScaleProject(root).filter((s) => s.endsWith(".proto"));
  const events: PipelineEvent[] = [];
  const handle = watch({ cwd: root, debounceMs: 50 }, { onEvent: (e) => events.push(e) });
  await handle.ready;
  const samples: number[] = [];
  for (let round = 1; round <= 40; round++) {
    const spec = path.join(root, specs[round % specs.length]!);
    const from = events.length;
    // Each round a different spec, with content it never had before (the watch hashes content).
    writeFileSync(spec, `${readFileSync(spec, "utf8")}\nmessage Round${round} { optional string note = 1; }\n`);
    const done = await waitForEvent(events, from, (e) => e.type === "done");
    if (done.type !== "done" || !done.ok || done.specs !== 1) throw new Error(`round ${round}: ${JSON.stringify(events)}`);
    // The event log is the test's, not watch's: drop it so it is not counted.
    events.length = 0;
    gc();
    gc();
    samples.push(process.memoryUsage().heapUsed);
  }
  await handle.stop();
  process.stdout.write(JSON.stringify({ samples }) + "\n");
} finally {
  rmSync(root, { recursive: true, force: true });
}
