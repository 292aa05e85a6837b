/**
 * Load on the content feed emulator (read-only: a feed has no writes) through the generated feed client: 20
 * concurrent clients × 50 page fetches, binary and ProtoJSON alternating, each page checked against the entries it
 * must hold; then a concurrent full iteration per client format finds every entry exactly once. The heap settles.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startContentEmulator, type RunningEmulator } from "../../examples/content/emulator.js";
import { encodeEntry, fetchResponse, iterateEntries } from "../../generated/content/index.js";
import { CLIENTS, OPERATIONS, runClients, SETTLED_BOUND_BYTES, settledHeap } from "./helpers.js";

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startContentEmulator({ pageSize: 7 });
});
afterAll(async () => emulator?.close());

const bytesOf = (e: Parameters<typeof encodeEntry>[0]) => Buffer.from(encodeEntry(e)).toString("base64");

it("20 clients x 50 page fetches, then concurrent full iterations: every entry once, in order", async () => {
  const before = await settledHeap();
  const expected = emulator.entries.map(bytesOf);
  const pages = Math.ceil(expected.length / emulator.pageSize);
  expect(pages).toBeGreaterThan(1);
  await runClients(CLIENTS, async (c) => {
    for (let i = 0; i < OPERATIONS; i++) {
      const page = 1 + ((c * OPERATIONS + i) % pages);
      const r = await fetchResponse(`${emulator.url}/feed?page=${page}`, { format: i % 2 === 0 ? "binary" : "json" });
      const start = (page - 1) * emulator.pageSize;
      expect((r.entry ?? []).map(bytesOf)).toEqual(expected.slice(start, start + emulator.pageSize));
    }
  });
  const all = await runClients(4, async (c) => {
    const seen: string[] = [];
    for await (const entry of iterateEntries(`${emulator.url}/feed`, { format: c % 2 === 0 ? "binary" : "json" })) seen.push(bytesOf(entry));
    return seen;
  });
  for (const seen of all) expect(seen).toEqual(expected);
  expect((await settledHeap()) - before).toBeLessThan(SETTLED_BOUND_BYTES);
});
