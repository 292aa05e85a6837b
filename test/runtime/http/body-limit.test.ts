import { describe, expect, it } from "vitest";
import { BodyTooLargeError, readBodyWithLimit } from "../../../src/runtime/http/body-limit.js";

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
}

function post(body: BodyInit | ReadableStream<Uint8Array>, headers: Record<string, string> = {}): Request {
  return new Request("http://x/", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

describe("readBodyWithLimit", () => {
  it("reads a body within the limit, joining chunks", async () => {
    const body = await readBodyWithLimit(post(streamOf([new Uint8Array([1, 2]), new Uint8Array([3])])), 3);
    expect([...body]).toEqual([1, 2, 3]);
  });

  it("reads an empty body", async () => {
    expect((await readBodyWithLimit(new Request("http://x/"), 10)).length).toBe(0);
  });

  it("refuses a declared Content-Length over the limit before reading", async () => {
    await expect(readBodyWithLimit(post("abcdef", { "content-length": "6" }), 5)).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it("refuses a streamed body once it passes the limit and stops pulling", async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const error = await readBodyWithLimit(post(endless), 4096).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BodyTooLargeError);
    expect((error as BodyTooLargeError).limit).toBe(4096);
    expect(pulled).toBeLessThan(10);
  });
});
