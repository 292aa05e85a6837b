import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import protobuf from "protobufjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_DATA_DIR, responseFiles } from "../../../examples/content/entries.js";
import { startContentEmulator, type RunningEmulator } from "../../../examples/content/emulator.js";
import {
  decodeResponse, fetchResponse, iterateEntries, serveResponses, type Entry,
} from "../../../generated/content/index.js";
import { FeedLoopError } from "../../../src/runtime/http/feed/errors.js";
import { serveNode } from "../../../src/runtime/http/node.js";
import { HttpStatusError, HttpTimeoutError } from "../../../src/runtime/http/status-error.js";
import { REPO } from "../../helpers/seeds.js";

const SPINN3R = ["spinn3r_test2.protobuf", "spinn3r_test3.protobuf"].map((f) => path.join(DEFAULT_DATA_DIR, f));

/** Entry counts by an independent decoder (protobufjs), not ours. */
function countEntriesWithProtobufjs(files: readonly string[]): number {
  const Response = protobuf.loadSync(path.join(REPO, "specs/content.proto")).lookupType("contentApi.Response");
  return files.reduce((n, f) => n + (Response.decode(readFileSync(f)) as unknown as { entry: unknown[] }).entry.length, 0);
}

/** The originals, decoded straight from the files with the generated decoder (from plain Uint8Arrays, not Buffers). */
const originals: Entry[] = SPINN3R.flatMap((f) => decodeResponse(new Uint8Array(readFileSync(f))).entry ?? []);

/**
 * Index of the first entry that differs (deep, strict: types and bytes), or -1. Used instead of toEqual on whole
 * entry lists, whose failure diff of 200 large entries would take minutes to print.
 */
function firstMismatch(got: readonly Entry[], want: readonly Entry[]): number {
  if (got.length !== want.length) return Math.min(got.length, want.length);
  return got.findIndex((entry, i) => !isDeepStrictEqual(entry, want[i]));
}

async function collect(iterable: AsyncIterable<Entry>, limit = 10_000): Promise<Entry[]> {
  const out: Entry[] = [];
  for await (const entry of iterable) {
    out.push(entry);
    if (out.length > limit) throw new Error("more entries than any page set here holds");
  }
  return out;
}

let emulator: RunningEmulator;
const pageUrl = (k: number) => `${emulator.url}/feed?page=${k}`;

beforeAll(async () => {
  emulator = await startContentEmulator({ port: 0 });
});
afterAll(async () => {
  await emulator?.close();
});

describe("content feed emulator over real HTTP", () => {
  it("serves the two spinn3r files by default", () => {
    expect(responseFiles(DEFAULT_DATA_DIR)).toEqual(SPINN3R);
    expect(countEntriesWithProtobufjs(SPINN3R)).toBe(200);
    expect(emulator.entries).toHaveLength(200);
  });

  it.each(["binary", "json"] as const)("iterates every entry of both files through the generated client (%s)", async (format) => {
    const entries = await collect(iterateEntries(`${emulator.url}/feed`, { format }));
    expect(entries).toHaveLength(countEntriesWithProtobufjs(SPINN3R));
    expect(firstMismatch(entries, originals)).toBe(-1);
  });

  it("links pages with absolute request, previous and next URLs", async () => {
    const first = await fetchResponse(pageUrl(1));
    expect(first.requestUrl).toBe(pageUrl(1));
    expect(first.previousRequestUrl).toBeUndefined();
    expect(first.nextRequestUrl).toBe(pageUrl(2));
    expect(first.entry).toHaveLength(10);
    const middle = await fetchResponse(pageUrl(7), { format: "json" });
    expect([middle.requestUrl, middle.previousRequestUrl, middle.nextRequestUrl]).toEqual([pageUrl(7), pageUrl(6), pageUrl(8)]);
    expect(firstMismatch(middle.entry ?? [], originals.slice(60, 70))).toBe(-1);
    const last = await fetchResponse(pageUrl(20));
    expect(last.previousRequestUrl).toBe(pageUrl(19));
    expect(last.nextRequestUrl).toBeUndefined();
  });

  it("answers 404 beyond the last page and for other paths", async () => {
    for (const url of [pageUrl(21), pageUrl(0), `${emulator.url}/feed?page=x`, `${emulator.url}/other`]) {
      const error = await fetchResponse(url).catch((e: unknown) => e);
      expect(error, url).toBeInstanceOf(HttpStatusError);
      expect((error as HttpStatusError).status).toBe(404);
    }
  });

  it("negotiates the format by Accept, 406 when neither is acceptable", async () => {
    const json = await fetch(pageUrl(1), { headers: { accept: "application/json" } });
    expect(json.headers.get("content-type")).toBe("application/json");
    expect((await json.json()).requestUrl).toBe(pageUrl(1));
    const binary = await fetch(pageUrl(1), { headers: { accept: "application/protobuf, application/json;q=0.5" } });
    expect(binary.headers.get("content-type")).toBe("application/protobuf");
    expect(firstMismatch(decodeResponse(new Uint8Array(await binary.arrayBuffer())).entry ?? [], originals.slice(0, 10))).toBe(-1);
    const refused = await fetch(pageUrl(1), { headers: { accept: "text/html" } });
    expect(refused.status).toBe(406);
  });

  it("cuts pages of --page-size entries from any data directory", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "specforge-content-"));
    copyFileSync(SPINN3R[1]!, path.join(dir, "only.pb"));
    const small = await startContentEmulator({ port: 0, dataDir: dir, pageSize: 7 });
    try {
      const entries = await collect(iterateEntries(`${small.url}/feed`));
      expect(firstMismatch(entries, originals.slice(100))).toBe(-1);
      expect((await fetchResponse(`${small.url}/feed?page=15`)).entry).toHaveLength(2); // 100 = 14 * 7 + 2
      expect((await fetchResponse(`${small.url}/feed?page=15`)).nextRequestUrl).toBeUndefined();
    } finally {
      await small.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("generated feed client against misbehaving servers", () => {
  it("stops with FeedLoopError when a page links back to an earlier page", async () => {
    const looping = await serveNode(serveResponses(async (request) => {
      const k = Number(new URL(request.url).searchParams.get("page") ?? "1");
      // page 1 -> 2 -> 3 -> 1 (relative links, resolved against each page's URL)
      return { entry: [originals[k]!], nextRequestUrl: `?page=${(k % 3) + 1}` };
    }));
    try {
      const seen: Entry[] = [];
      const error = await (async () => {
        for await (const entry of iterateEntries(`${looping.url}/?page=1`)) seen.push(entry);
      })().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FeedLoopError);
      expect(firstMismatch(seen, [originals[1]!, originals[2]!, originals[3]!])).toBe(-1);
    } finally {
      await looping.close();
    }
  });

  it("times out, and aborts, a page that never comes", async () => {
    let release!: () => void;
    const never = new Promise<void>((resolve) => (release = resolve));
    const hanging = await serveNode(serveResponses(async () => {
      await never;
      return undefined;
    }));
    try {
      const timedOut = await fetchResponse(hanging.url, { timeoutMs: 50 }).catch((e: unknown) => e);
      expect(timedOut).toBeInstanceOf(HttpTimeoutError);
      const controller = new AbortController();
      const pending = collect(iterateEntries(hanging.url, { signal: controller.signal }));
      controller.abort(new Error("stop paging"));
      await expect(pending).rejects.toThrow("stop paging");
    } finally {
      release();
      await hanging.close();
    }
  });
});
