/**
 * Mixed RPC load on the content emulator (issue 32, item 6): 100 concurrent ContentFeed.StreamEntries calls, a third
 * each over Connect and gRPC-Web (HTTP/1.1 port) and gRPC (HTTP/2 port, one shared session), in 3 rounds. Every call
 * must end without an error and bring every entry it asked for, in order: 0 errors, 0 lost messages. Then the same
 * 100-way load over each protocol alone, so that the mixed p99 can be compared with the single-protocol one. The
 * latencies' p50/p99 are printed for the note (never asserted).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startContentEmulator, type RunningEmulator } from "../../examples/content/emulator.js";
import { createContentFeedClient, type ContentFeedClient } from "../../generated/content-stream/index.js";

let emulator: RunningEmulator;
let clients: Record<string, ContentFeedClient>;
beforeAll(async () => {
  emulator = await startContentEmulator({ port: 0, grpcPort: 0 });
  clients = {
    connect: createContentFeedClient({ baseUrl: emulator.url, protocol: "connect" }),
    "grpc-web": createContentFeedClient({ baseUrl: emulator.url, protocol: "grpc-web" }),
    grpc: createContentFeedClient({ baseUrl: emulator.grpcUrl!, protocol: "grpc" }),
  };
});
afterAll(async () => emulator?.close());

const CONCURRENT = 100;
const ROUNDS = 3;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function line(xs: readonly number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  return `p50 ${percentile(s, 50).toFixed(0)} ms, p99 ${percentile(s, 99).toFixed(0)} ms (${s.length} calls)`;
}

/**
 * `rounds` rounds of CONCURRENT streams, call i over protocol `protocols[i % protocols.length]`: the latencies per
 * protocol, the calls that failed and the entries lost (missing or out of order).
 */
async function load(protocols: readonly string[], rounds: number): Promise<{ latencies: Record<string, number[]>; errors: number; lost: number }> {
  const total = emulator.entries.length;
  const latencies: Record<string, number[]> = Object.fromEntries(protocols.map((p) => [p, []]));
  let errors = 0;
  let lost = 0;
  for (let round = 0; round < rounds; round++) {
    await Promise.all(
      Array.from({ length: CONCURRENT }, async (_, i) => {
        const name = protocols[i % protocols.length]!;
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
  return { latencies, errors, lost };
}

it(`${CONCURRENT} concurrent streams mixing Connect, gRPC-Web and gRPC: 0 errors, 0 lost messages`, async () => {
  const names = Object.keys(clients);
  const { latencies, errors, lost } = await load(names, ROUNDS);
  const all = Object.values(latencies).flat();
  console.log(`mixed load: all ${line(all)}; ${names.map((n) => `${n} ${line(latencies[n]!)}`).join("; ")}`);
  expect({ errors, lost, calls: all.length }).toEqual({ errors: 0, lost: 0, calls: CONCURRENT * ROUNDS });
  expect(emulator.openGrpcStreams()).toBe(0);
}, 300_000);

it(`${CONCURRENT} concurrent streams over each protocol alone: 0 errors, 0 lost messages`, async () => {
  const lines: string[] = [];
  for (const name of Object.keys(clients)) {
    const { latencies, errors, lost } = await load([name], 1);
    lines.push(`${name} ${line(latencies[name]!)}`);
    expect({ name, errors, lost, calls: latencies[name]!.length }).toEqual({ name, errors: 0, lost: 0, calls: CONCURRENT });
  }
  console.log(`single-protocol load: ${lines.join("; ")}`);
  expect(emulator.openGrpcStreams()).toBe(0);
}, 300_000);
