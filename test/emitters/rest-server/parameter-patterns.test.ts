import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { memorySpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";

/**
 * Parameter patterns in the generated server: one only JavaScript's legacy syntax reads (`[\w-\.]`, an error with
 * the `u` flag) is compiled without the flag, a Java one (`\p{Alnum}`) arrives translated, and both check requests.
 */
const API = `
openapi: 3.0.3
info: { title: Patterns, version: "1" }
paths:
  /items:
    get:
      operationId: listItems
      parameters:
        - { name: host, in: query, schema: { type: string, pattern: "^[\\\\w-\\\\.]+$" } }
        - { name: code, in: query, schema: { type: string, pattern: "^\\\\p{Alnum}+$" } }
      responses:
        "204": { description: none }
`;
const dir = mkdtempSync(path.join(import.meta.dirname, ".tmp-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("compiles a legacy-only parameter pattern without `u` and checks both patterns", async () => {
  const out = generateSpec({ file: "/spec/api.yaml", display: "api.yaml", outDir: "p" }, memorySpecHost({ "/spec/api.yaml": API }));
  const server = out.files.find((f) => f.path === "p/server.ts")!.content;
  expect(server).toContain('new RegExp("^[\\\\w-\\\\.]+$").test(');
  expect(server).toContain('new RegExp("^[a-zA-Z0-9]+$", "u").test(');
  for (const f of out.files) {
    mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
    writeFileSync(path.join(dir, f.path), f.content);
  }
  const mod = (await import(path.join(dir, "p/index.ts"))) as { createPatternsServer: (h: object, o: object) => (r: Request) => Promise<Response> };
  const handler = mod.createPatternsServer({ listItems: () => ({ status: 204, body: undefined }) }, { development: true });
  expect((await handler(new Request("http://h/items?host=a-b.c_d&code=Ab9"))).status).toBe(204);
  const bad = await handler(new Request("http://h/items?host=a%20b&code=a-b"));
  expect(bad.status).toBe(400);
  expect(((await bad.json()) as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual(["/query/host", "/query/code"]);
});
