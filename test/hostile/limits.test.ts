/**
 * Depth and size (issue 32, item 3): parsers stay linear on deep nesting and huge literals, and stop beyond their
 * documented depth limit with a located error. Times are compared with a baseline measured in the same test (a
 * ratio, never a wall-clock limit), each the best of a few runs.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nodeSpecHost } from "../../src/parsers/host.js";
import { parseProto } from "../../src/parsers/proto/index.js";
import { tokenize } from "../../src/parsers/proto/tokenizer.js";

const dir = mkdtempSync(path.join(tmpdir(), "specforge-limits-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The best of `runs` timings of `fn` (ms), and its last result. */
function best<T>(runs: number, fn: () => T): { ms: number; result: T } {
  let ms = Infinity;
  let result!: T;
  for (let k = 0; k < runs; k++) {
    const t = performance.now();
    result = fn();
    ms = Math.min(ms, performance.now() - t);
  }
  return { ms, result };
}

describe("proto string literals", () => {
  it("bytes and value: escapes (one byte each, combined as UTF-8), literal UTF-8, lone surrogates, octal and hex", () => {
    const str = (literal: string) => tokenize(`option x = ${literal};`, "t.proto").find((t) => t.kind === "string")!;
    const a = str(`"a\\303\\251b\\x41\\101\\u00e9\\U0001F600ñ\\n"`);
    expect(a.value).toBe("aébAAé😀ñ\n");
    expect(a.latin1).toBe("a\xc3\xa9bAA\xc3\xa9\xf0\x9f\x98\x80\xc3\xb1\n");
    const b = str(`'\\377x'`);
    expect(b.value).toBe("\ufffdx");
    expect(b.latin1).toBe("\xffx");
    const c = str(`"${"x".repeat(100)}\ud800${"y".repeat(100)}"`);
    expect(c.value).toBe(`${"x".repeat(100)}\ufffd${"y".repeat(100)}`);
    expect(c.latin1).toBe(`${"x".repeat(100)}\xef\xbf\xbd${"y".repeat(100)}`);
    expect(str(`"q\\"\\\\'"`).value).toBe(`q"\\'`);
  });

  it("a 50 MB string literal parses in a small multiple of the time reading the file takes", () => {
    const chunk = "Lorem ipsum dolor sit amet, ".repeat(36) + "ñandú \\n\\x41\\303\\251 ";
    const literal = chunk.repeat(Math.ceil((50 << 20) / chunk.length));
    const file = path.join(dir, "big.proto");
    writeFileSync(file, `syntax = "proto3";\npackage p;\noption java_package = "${literal}";\nmessage M { string s = 1; }\n`);
    const read = best(3, () => readFileSync(file, "utf8"));
    const parsed = best(3, () => parseProto(file, nodeSpecHost({})));
    const value = (parsed.result.options as Record<string, unknown> | undefined)?.["java_package"];
    expect(typeof value === "string" ? value.length : parsed.result.types.length).toBeGreaterThan(0);
    // Parsing reads the file too; about 2.5x the read alone here (50 MB at ~3 s per MB before).
    expect(parsed.ms / read.ms).toBeLessThan(6);
  }, 120_000);
});
