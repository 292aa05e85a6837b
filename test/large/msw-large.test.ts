/**
 * The MSW plugin on Stripe and DigitalOcean (../shared/corpus): msw.ts generated through the CLI, its handlers run
 * with msw's setupServer in node, and every operation called through the generated client answers as
 * `specforge mock` does and passes the generated validator (test/pipeline/msw-plugin.test.ts does the same on the
 * seeds and the OAI examples). Tens of seconds and about a gigabyte each: the "large" vitest project.
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { setupServer } from "msw/node";
import { afterAll, describe, expect, it } from "vitest";
import { loadSpecForMock } from "../../src/mock/load.js";
import { createRestMock } from "../../src/mock/rest.js";
import { everyOperationAsTheMock } from "../helpers/mock-requests.js";
import { runCli } from "../helpers/run-cli.js";
import { REPO, SHARED } from "../helpers/seeds.js";

/**
 * `allowRefusals`: Stripe's form bodies (deep objects, arrays) as the generated client writes them are not all read
 * back by the generated server, which answers 400; the handlers then answer the mock's same 400, counted and listed.
 */
const DOCS = [
  { file: "stripe/spec3.json", dir: "spec3", allowRefusals: true },
  { file: "digitalocean/DigitalOcean-public.v2.yaml", dir: "DigitalOcean-public.v2", allowRefusals: false },
];

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("specforge:msw on large real-world documents", () => {
  it.each(DOCS)("$file: every operation answers through MSW as specforge mock does", async ({ file, dir: out, allowRefusals }) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "specforge-msw-large-"));
    dirs.push(dir);
    symlinkSync(path.join(REPO, "node_modules"), path.join(dir, "node_modules"), "dir");
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
    const spec = path.join(SHARED, "corpus/openapi", file);
    writeFileSync(path.join(dir, "specforge.config.json"), JSON.stringify({ specs: [spec], plugins: ["specforge:msw"] }));
    const r = await runCli(dir, "generate", "--quiet");
    expect(r.code, r.err).toBe(0);
    const mswFile = path.join(dir, "generated", out, "msw.ts");
    expect(readFileSync(mswFile, "utf8")).toContain("msw.http.");

    const loaded = await loadSpecForMock({ spec });
    const base = "https://large.example.test/root";
    const mod = (await import(pathToFileURL(mswFile).href)) as Record<string, unknown>;
    const handlers = Object.keys(mod).filter((k) => k.endsWith("MswHandlers")).flatMap((k) => (mod[k] as (o: unknown) => Parameters<typeof setupServer>)({ baseUrl: base }));
    const server = setupServer(...handlers);
    server.listen({ onUnhandledRequest: "error" });
    try {
      // `format: byte` bodies: the generated server writes them as base64 with the generated encoders and the generated
      // client revives them into Uint8Array, so every body of a named type passes its validator (none tolerated).
      const { served, validated, tolerated, refused } = await everyOperationAsTheMock(loaded, createRestMock(loaded, { basePath: "/root" }), base, { allowRefusals });
      console.log(`msw plugin on ${file}: ${served} operations served as the mock answers, ${validated} bodies checked by their generated validator; ${refused.length} requests of the generated client refused with 400 by server and mock alike${refused.length > 0 ? ` (${refused.slice(0, 5).join(", ")}...)` : ""}`);
      expect(tolerated).toEqual([]);
      // Most operations answer their default response.
      expect(refused.length).toBeLessThan(served / 2);
      expect(served).toBeGreaterThan(100);
    } finally {
      server.close();
    }
  }, 600_000);
});
