/**
 * Mixed RPC load on the content emulator (issue 32, item 6): 100 concurrent ContentFeed.StreamEntries calls, a third
 * each over Connect and gRPC-Web (HTTP/1.1 port) and gRPC (HTTP/2 port, one shared session), in 3 rounds. Every call
 * must end without an error and bring every entry it asked for, in order: 0 errors, 0 lost messages. The latencies'
 * p50/p99 are printed for the note (never asserted).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startContentEmulator, type RunningEmulator } from "../../examples/content/emulator.js";
import { createContentFeedClient, type ContentFeedClient } from "../../generated/content-stream/index.js";

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startContentEmulator({ port: 0, grpcPort: 0 });
});
afterAll(async () => emulator?.close());

const CONCURRENT = 100;
const ROUNDS = 3;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

it(`${CONCURRENT} concurrent streams mixing Connect, gRPC-Web and gRPC: 0 errors, 0 lost messages`, async () => {
  const clients: Record<string, ContentFeedClient> = {
    connect: createContentFeedClient({ baseUrl: emulator.url, protocol: "connect" }),
    "grpc-web": createContentFeedClient({ baseUrl: emulator.url, protocol: "grpc-web" }),
    grpc: createContentFeedClient({ baseUrl: emulator.grpcUrl!, protocol: "grpc" }),
  };
  const names = Object.keys(clients);
  const total = emulator.entries.length;
  const latencies: Record<string, number[]> = { connect: [], "grpc-web": [], grpc: [] };
  let errors = 0;
  let lost = 0;
  for (let round = 0; round < ROUNDS; round++) {
    await Promise.all(
      Array.from({ length: CONCURRENT }, async (_, i) => {
        const name = names[i % names.length]!;
        const start = (i * 7) % total;
        const t = performance.now();
        let got = 0;
        let next = start;
        try {
          for await (const item of clients[name]!.streamEntries({ start })) {
            if (item.position !== next) lost++;
            next = (item.position ?? -1) + 1;
            got++;
          }
        } catch {
          errors++;
        }
        lost += total - start - got > 0 ? total - start - got : 0;
        latencies[name]!.push(performance.now() - t);
      }),
    );
  }
  const all = Object.values(latencies).flat().sort((a, b) => a - b);
  const line = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return `p50 ${percentile(s, 50).toFixed(0)} ms, p99 ${percentile(s, 99).toFixed(0)} ms (${s.length} calls)`;
  };
  console.log(`mixed load: all ${line(all)}; ${names.map((n) => `${n} ${line(latencies[n]!)}`).join("; ")}`);
  expect({ errors, lost, calls: all.length }).toEqual({ errors: 0, lost: 0, calls: CONCURRENT * ROUNDS });
  expect(emulator.openGrpcStreams()).toBe(0);
}, 300_000);
