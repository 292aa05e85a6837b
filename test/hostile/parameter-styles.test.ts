/**
 * Parameter styles and form bodies with hostile names: quotes, brackets, template text and prototype keys in
 * parameter names, object property names and encoding keys reach the generated code only as escaped strings. The
 * generated modules compile, importing them runs nothing, and values with those names still round-trip.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memorySpecHost } from "../../src/parsers/host.js";
import { generateSpec } from "../../src/pipeline/generate-files.js";
import { typecheckFiles } from "../helpers/typecheck.js";

const EVIL = `"]; globalThis.__pwned = 1; //\${globalThis.__pwned = 2}\``;
/**
 * A property name hostile to code but free of the styles' delimiters (`;`, `=`, `,`, `.`, brackets): delimiters
 * inside names are ambiguous on the wire (OpenAPI's Appendix E, docs/parameters.md), not a safety matter.
 */
const KEY = `"'\`\${globalThis.__pwned}\\ */ \u2028`;

const SPEC = `
openapi: 3.0.3
info: { title: Evil styles, version: "1" }
paths:
  /x/{p}:
    post:
      operationId: evil
      parameters:
        - { name: p, in: path, required: true, style: matrix, explode: true, schema: { $ref: "#/components/schemas/Flat" } }
        - { name: ${JSON.stringify(EVIL)}, in: query, style: deepObject, schema: { $ref: "#/components/schemas/Evil" } }
        - { name: ${JSON.stringify(`${EVIL}c`)}, in: cookie, schema: { type: array, items: { type: string } } }
        - { name: ${JSON.stringify(`x-${EVIL}`.replace(/[^\w-]/g, "-"))}, in: header, explode: true, schema: { $ref: "#/components/schemas/Flat" } }
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema: { $ref: "#/components/schemas/Evil" }
            encoding:
              ${JSON.stringify(KEY)}: { style: deepObject, explode: true }
      responses:
        "200": { description: echo, content: { application/json: { schema: {} } } }
components:
  schemas:
    Flat:
      type: object
      properties:
        ${JSON.stringify(KEY)}: { type: integer }
        __proto__: { type: integer }
        constructor: { type: string }
    Evil:
      type: object
      properties:
        ${JSON.stringify(KEY)}: { type: array, items: { type: integer } }
        __proto__: { type: integer }
        constructor: { type: string }
`;

describe("hostile names in parameter styles and form bodies", () => {
  const out = generateSpec({ file: "/spec/evil.yaml", display: "evil.yaml" }, memorySpecHost({ "/spec/evil.yaml": SPEC }));
  let dir: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let mod: any;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(import.meta.dirname, ".tmp-"));
    for (const f of out.files) {
      mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
      writeFileSync(path.join(dir, f.path), f.content);
    }
    mod = await import(path.join(dir, "evil/index.ts"));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    delete (globalThis as { __pwned?: unknown }).__pwned;
  });

  it("compiles strict, and importing it runs nothing", () => {
    expect(typecheckFiles(new Map(out.files.map((f) => [f.path, f.content])))).toEqual([]);
    expect((globalThis as { __pwned?: unknown }).__pwned).toBeUndefined();
  });

  it("round-trips values under those names without touching prototypes", async () => {
    const handler = mod.createEvilStylesServer({
      evil: ({ request: _request, ...input }: { request: Request }) => ({ status: 200, body: input }),
    });
    const client = mod.createEvilStylesClient({ baseUrl: "http://h", fetch: (r: Request) => handler(r) });
    const value = { [KEY]: [1, 2], constructor: "c" };
    const header = `x-${EVIL}`.replace(/[^\w-]/g, "-");
    const response = await client.evil({
      path: { p: { [KEY]: 5, constructor: "p" } },
      query: { [EVIL]: value },
      cookie: { [`${EVIL}c`]: ["a;b", "c"] },
      header: { [header]: { constructor: "h" } },
      body: { ...value, ["__proto__"]: 9 },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      path: { p: { [KEY]: 5, constructor: "p" } },
      query: { [EVIL]: { [KEY]: [1, 2], constructor: "c" } },
      header: { [header]: { constructor: "h" } },
      cookie: { [`${EVIL}c`]: ["a;b", "c"] },
      body: { [KEY]: [1, 2], constructor: "c", ["__proto__"]: 9 },
    });
    expect((globalThis as { __pwned?: unknown }).__pwned).toBeUndefined();
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});
