/**
 * Every JSON request and response body has a named validator of its own, whatever its shape (a top-level oneOf
 * without discriminator, an inline array or map, a scalar), and the generated server calls it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memorySpecHost } from "../../../src/parsers/host.js";
import { generateSpec, type OutputFile } from "../../../src/pipeline/generate-files.js";
import { typecheckFiles } from "../../helpers/typecheck.js";

const SPEC = `
openapi: 3.0.3
info: { title: Shapes, version: "1" }
paths:
  /shapes:
    post:
      operationId: createShape
      requestBody:
        required: true
        content:
          application/json:
            schema:
              oneOf:
                - $ref: "#/components/schemas/Circle"
                - $ref: "#/components/schemas/Square"
      responses:
        "201":
          description: the shapes now stored
          content:
            application/json:
              schema: { type: array, items: { $ref: "#/components/schemas/Circle" } }
  /tags:
    put:
      operationId: putTags
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, additionalProperties: { type: integer } }
      responses:
        "200":
          description: how many tags
          content:
            application/json:
              schema: { type: integer }
        "400":
          description: a plain-text complaint
          content:
            text/plain:
              schema: { type: string }
components:
  schemas:
    Circle:
      type: object
      required: [radius]
      additionalProperties: false
      properties: { radius: { type: number } }
    Square:
      type: object
      required: [side]
      additionalProperties: false
      properties: { side: { type: number } }
`;

describe("named body validators", () => {
  let files: readonly OutputFile[];
  let dir: string;
  let server: (handlers: object, options: object) => (r: Request) => Promise<Response>;
  let validate: Record<string, (v: unknown) => unknown[]>;
  const content = (name: string) => files.find((f) => f.path.endsWith(`/${name}`))!.content;

  beforeAll(async () => {
    files = generateSpec({ file: "/spec/api.yaml", display: "api.yaml" }, memorySpecHost({ "/spec/api.yaml": SPEC })).files;
    dir = mkdtempSync(path.join(import.meta.dirname, ".tmp-"));
    for (const f of files) {
      mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
      writeFileSync(path.join(dir, f.path), f.content);
    }
    const mod = await import(path.join(dir, "api/index.ts"));
    server = mod.createShapesServer;
    validate = mod;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("type-checks strict", () => {
    expect(typecheckFiles(new Map(files.map((f) => [f.path, f.content])))).toEqual([]);
  });

  it("declares a type for each JSON body, but not for a text body", () => {
    const types = content("types.ts");
    expect(types).toContain("export type CreateShapeRequest = Circle | Square;");
    expect(types).toContain("export type CreateShapeResponse201 = Circle[];");
    expect(types).toContain("export type PutTagsRequest = { [key: string]: number };");
    expect(types).toContain("export type PutTagsResponse200 = number;");
    expect(types).not.toContain("PutTagsResponse400");
  });

  const rows: [validator: string, value: unknown, issues: number][] = [
    ["validateCreateShapeRequest", { radius: 1 }, 0],
    ["validateCreateShapeRequest", { side: 2 }, 0],
    ["validateCreateShapeRequest", { radius: 1, side: 2 }, 1],
    ["validateCreateShapeRequest", "circle", 1],
    ["validateCreateShapeResponse201", [{ radius: 1 }], 0],
    ["validateCreateShapeResponse201", [{ side: 1 }], 2],
    ["validatePutTagsRequest", { a: 1 }, 0],
    ["validatePutTagsRequest", { a: "1" }, 1],
    ["validatePutTagsResponse200", 3, 0],
    ["validatePutTagsResponse200", 3.5, 1],
  ];
  it.each(rows)("%s(%j) finds %i issue(s)", (name, value, count) => {
    expect(validate[name]!(value)).toHaveLength(count);
  });

  it("the server checks request bodies with them", async () => {
    const seen: unknown[] = [];
    const handler = server(
      {
        createShape: ({ body }: { body: unknown }) => (seen.push(body), { status: 201, body: [{ radius: 1 }] }),
        putTags: () => ({ status: 200, body: 1 }),
      },
      { development: true },
    );
    const post = (body: string) => handler(new Request("http://h/shapes", { method: "POST", headers: { "content-type": "application/json" }, body }));
    expect((await post('{"side":2}')).status).toBe(201);
    const both = await post('{"radius":1,"side":2}');
    expect(both.status).toBe(400);
    const put = await handler(new Request("http://h/tags", { method: "PUT", headers: { "content-type": "application/json" }, body: '{"a":"x"}' }));
    expect(put.status).toBe(400);
    expect((await put.json()).issues.map((i: { path: string }) => i.path)).toEqual(["/a"]);
    expect(seen).toEqual([{ side: 2 }]);
  });

  it("and, in development mode, response bodies", async () => {
    const handler = server(
      {
        createShape: () => ({ status: 201, body: [{ side: 1 }] }),
        putTags: () => ({ status: 200, body: 1.5 }),
      },
      { development: true },
    );
    const created = await handler(new Request("http://h/shapes", { method: "POST", headers: { "content-type": "application/json" }, body: '{"radius":1}' }));
    expect(created.status).toBe(500);
    const put = await handler(new Request("http://h/tags", { method: "PUT", headers: { "content-type": "application/json" }, body: "{}" }));
    expect(put.status).toBe(500);
  });
});
