/**
 * `dates: "Date"` through the generated Connect/gRPC client and server: the handler receives Dates and answers with
 * Dates, over Connect (binary and JSON), gRPC-Web and gRPC (h2c).
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveNode, type NodeServerHandle } from "../../../../src/runtime/http/node.js";
import { serveNodeHttp2, type NodeHttp2ServerHandle } from "../../../../src/runtime/http/node-http2.js";
import { generateDates } from "./gen.js";

type Gen = Record<string, any>;
let gen: Gen;
let http1: NodeServerHandle;
let h2c: NodeHttp2ServerHandle;
const seen: string[] = [];

beforeAll(async () => {
  gen = (await import(path.join(generateDates("Date").dir, "index.ts"))) as Gen;
  const handler = gen.createEventsHandler({
    echo: async (req: Gen) => {
      const all = [req.at, ...(req.history ?? []), ...Object.values(req.byName ?? {}), req.when?.value, req.maybe];
      seen.push(all.map((d) => (d instanceof Date ? `Date ${d.getTime()}` : typeof d)).join(","));
      // One millisecond later everywhere.
      const later = (d: Date) => new Date(d.getTime() + 1);
      return {
        at: later(req.at),
        history: req.history.map(later),
        byName: Object.fromEntries(Object.entries(req.byName as Record<string, Date>).map(([k, v]) => [k, later(v)])),
        when: { case: "exact", value: later(req.when.value) },
        maybe: later(req.maybe),
      };
    },
  });
  http1 = await serveNode(handler);
  h2c = await serveNodeHttp2(handler);
}, 120_000);
afterAll(async () => {
  await Promise.all([http1?.close(), h2c?.close()]);
});

const request = {
  at: new Date(Date.UTC(2024, 1, 29, 12, 0, 0, 123)),
  history: [new Date(-1), new Date(-62135596800000 + 5)],
  byName: { k: new Date(0) },
  when: { case: "exact", value: new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 998)) },
  maybe: new Date(-62135596800000),
};

describe.each([
  ["connect proto", () => ({ baseUrl: http1.url, protocol: "connect", format: "proto" })],
  ["connect json", () => ({ baseUrl: http1.url, protocol: "connect", format: "json" })],
  ["grpc-web", () => ({ baseUrl: http1.url, protocol: "grpc-web", format: "proto" })],
  ["grpc (h2c)", () => ({ baseUrl: h2c.url, protocol: "grpc" })],
])("%s", (_name, settings) => {
  it("carries Dates both ways", async () => {
    seen.length = 0;
    const client = gen.createEventsClient(settings());
    const reply = await client.echo(request);
    expect(seen).toEqual([
      [request.at, ...request.history, request.byName.k, request.when.value, request.maybe].map((d) => `Date ${d.getTime()}`).join(","),
    ]);
    expect(reply.at).toBeInstanceOf(Date);
    expect(reply.at.getTime()).toBe(request.at.getTime() + 1);
    expect(reply.history.map((d: Date) => d.getTime())).toEqual(request.history.map((d) => d.getTime() + 1));
    expect(reply.byName.k.getTime()).toBe(1);
    expect(reply.when.value.getTime()).toBe(request.when.value.getTime() + 1);
    expect(reply.maybe.getTime()).toBe(request.maybe.getTime() + 1);
  });
});
