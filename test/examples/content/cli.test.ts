import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { createContentFeedClient } from "../../../generated/content-stream/index.js";
import { fetchResponse } from "../../../generated/content/index.js";
import { HttpStatusError } from "../../../src/runtime/http/status-error.js";
import { REPO } from "../../helpers/seeds.js";

let child: ChildProcess | undefined;

afterEach(async () => {
  if (child?.pid === undefined || child.exitCode !== null) return;
  const exited = once(child, "exit");
  process.kill(-child.pid, "SIGTERM"); // the group we started: npm, tsx and the emulator
  await exited;
  child = undefined;
});

/** The first `count` stdout lines, or a rejection after `timeoutMs` (startup compiles TypeScript, so allow a few
 * seconds). */
function firstLines(proc: ChildProcess, count: number, timeoutMs: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let buffered = "";
    const timer = setTimeout(() => reject(new Error(`no ${count} lines within ${timeoutMs} ms; got ${JSON.stringify(buffered)}`)), timeoutMs);
    proc.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      if (lines.length > count) {
        clearTimeout(timer);
        resolve(lines.slice(0, count));
      }
    });
    proc.once("exit", (code) => reject(new Error(`exited with ${code} before printing`)));
  });
}

describe("npm run serve:content", () => {
  it("prints the listening line with the real port and serves the feed", async () => {
    child = spawn("npm", ["run", "--silent", "serve:content", "--", "--port", "0", "--page-size", "50"], {
      cwd: REPO,
      detached: true,
      stdio: ["ignore", "pipe", "ignore"],
    });
    const [line, grpcLine] = await firstLines(child, 2, 45_000);
    const match = /^listening on (http:\/\/127\.0\.0\.1:(\d+))$/.exec(line!);
    expect(match, line).not.toBeNull();
    expect(Number(match![2])).toBeGreaterThan(0);
    const url = match![1]!;
    // The gRPC (HTTP/2) listener: with --port 0 it takes any free port too.
    const grpcMatch = /^grpc listening on (http:\/\/127\.0\.0\.1:(\d+))$/.exec(grpcLine!);
    expect(grpcMatch, grpcLine).not.toBeNull();
    const client = createContentFeedClient({ baseUrl: grpcMatch![1]!, protocol: "grpc" });
    const streamed: number[] = [];
    for await (const item of client.streamEntries({ start: 198 })) streamed.push(item.position!);
    expect(streamed).toEqual([198, 199]);
    const last = await fetchResponse(`${url}/feed?page=4`);
    expect(last.entry).toHaveLength(50);
    expect(last.nextRequestUrl).toBeUndefined();
    const beyond = await fetchResponse(`${url}/feed?page=5`).catch((e: unknown) => e);
    expect((beyond as HttpStatusError).status).toBe(404);
  });

  it("refuses a bad --page-size with exit code 2", async () => {
    child = spawn("npm", ["run", "--silent", "serve:content", "--", "--page-size", "0"], { cwd: REPO, detached: true, stdio: "ignore" });
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(2);
  });
});
