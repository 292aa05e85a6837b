/**
 * The content emulator's ContentFeed stream (specs/content-stream.proto) over all three protocols: the generated
 * client over Connect and gRPC-Web (HTTP/1.1 port) and gRPC (HTTP/2 port), and @grpc/grpc-js with the .proto loaded
 * by proto-loader, all reading the entries the paged feed serves. The paged /feed keeps working next to it.
 */
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startContentEmulator, type RunningEmulator } from "../../../examples/content/emulator.js";
import { createContentFeedClient, type StreamedEntry } from "../../../generated/content-stream/index.js";
import { encodeEntry, fetchResponse } from "../../../generated/content/index.js";
import { RpcError } from "../../../src/runtime/index.js";
import { REPO } from "../../helpers/seeds.js";
import { expectNoLeaks } from "../../rpc/peers/leaks.js";

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startContentEmulator({ port: 0, grpcPort: 0 });
});
afterAll(async () => {
  await emulator?.close();
});

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

async function collect(stream: AsyncIterable<StreamedEntry>, limit = 1_000): Promise<StreamedEntry[]> {
  const out: StreamedEntry[] = [];
  for await (const item of stream) {
    out.push(item);
    if (out.length > limit) throw new Error("more entries than the feed holds");
  }
  return out;
}

describe("ContentFeed.StreamEntries from the content emulator", () => {
  const protocols = [
    ["connect", () => ({ baseUrl: emulator.url, protocol: "connect" as const })],
    ["connect json", () => ({ baseUrl: emulator.url, protocol: "connect" as const, format: "json" as const })],
    ["grpc-web", () => ({ baseUrl: emulator.url, protocol: "grpc-web" as const })],
    ["grpc", () => ({ baseUrl: emulator.grpcUrl!, protocol: "grpc" as const })],
  ] as const;

  it.each(protocols)("streams the feed's last entries over %s, each with its position", async (_, options) => {
    const client = createContentFeedClient(options());
    const got = await collect(client.streamEntries({ start: 195 }));
    expect(got.map((g) => g.position)).toEqual([195, 196, 197, 198, 199]);
    // The same entries the emulator loaded (and the pages carry), compared as their encodings: the emulator's came
    // from a file as Buffers, the streamed ones as Uint8Arrays.
    expect(got.map((g) => hex(encodeEntry(g.entry!)))).toEqual(emulator.entries.slice(195).map((e) => hex(encodeEntry(e))));
  });

  it("streams every entry by default, and as many as max_entries asks", async () => {
    const client = createContentFeedClient({ baseUrl: emulator.grpcUrl!, protocol: "grpc" });
    const all = await collect(client.streamEntries({}));
    expect(all).toHaveLength(emulator.entries.length);
    expect(all.map((g) => g.position)).toEqual(emulator.entries.map((_, i) => i));
    expect((await collect(client.streamEntries({ start: 10, maxEntries: 3 }))).map((g) => g.position)).toEqual([10, 11, 12]);
    expect(await collect(client.streamEntries({ start: 5_000 }))).toEqual([]);
  });

  it("answers a negative start with invalid_argument", async () => {
    const client = createContentFeedClient({ baseUrl: emulator.url });
    const error = await collect(client.streamEntries({ start: -1 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).code).toBe("invalid_argument");
  });

  it("serves @grpc/grpc-js with the .proto loaded by proto-loader", async () => {
    const definition = protoLoader.loadSync("content-stream.proto", { includeDirs: [path.join(REPO, "specs")], longs: String, defaults: false });
    const loaded = grpc.loadPackageDefinition(definition) as unknown as { contentApi: { ContentFeed: grpc.ServiceClientConstructor } };
    const client = new loaded.contentApi.ContentFeed(new URL(emulator.grpcUrl!).host, grpc.credentials.createInsecure());
    try {
      const got = await new Promise<{ position: number; entry: { permalinkEntry?: { title?: string } } }[]>((resolve, reject) => {
        const items: { position: number; entry: { permalinkEntry?: { title?: string } } }[] = [];
        const call = (client as unknown as Record<string, (r: object) => grpc.ClientReadableStream<(typeof items)[number]>>).StreamEntries!({ start: 0, maxEntries: 4 });
        call.on("data", (item: (typeof items)[number]) => items.push(item));
        call.on("error", reject);
        call.on("end", () => resolve(items));
      });
      expect(got.map((g) => g.position)).toEqual([0, 1, 2, 3]);
      expect(got.map((g) => g.entry.permalinkEntry?.title)).toEqual(emulator.entries.slice(0, 4).map((e) => e.permalinkEntry?.title));
    } finally {
      client.close();
    }
  });

  it("stops producing when a gRPC client stops reading; nothing stays open", async () => {
    const client = createContentFeedClient({ baseUrl: emulator.grpcUrl!, protocol: "grpc" });
    let n = 0;
    for await (const _ of client.streamEntries({})) if (++n === 2) break;
    expect(n).toBe(2);
    await expectNoLeaks(() => ({ openStreams: emulator.openGrpcStreams(), running: 0 }));
  });

  it("lets a page on another origin call it over gRPC-Web (preflight allows the RPC headers)", async () => {
    const url = `${emulator.url}/contentApi.ContentFeed/StreamEntries`;
    const origin = "http://localhost:5173";
    const preflight = await fetch(url, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type,x-grpc-web,grpc-timeout,grpc-accept-encoding" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")?.split(/,\s*/)).toEqual(expect.arrayContaining(["x-grpc-web", "grpc-timeout", "grpc-accept-encoding"]));
    const client = createContentFeedClient({
      baseUrl: emulator.url,
      protocol: "grpc-web",
      fetch: (input, init) => fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), origin } }),
    });
    expect((await collect(client.streamEntries({ start: 199 }))).map((g) => g.position)).toEqual([199]);
  });

  it("keeps the paged feed working beside the stream", async () => {
    const first = await fetchResponse(`${emulator.url}/feed`);
    expect(first.entry).toHaveLength(10);
    expect(first.nextRequestUrl).toBe(`${emulator.url}/feed?page=2`);
  });
});
