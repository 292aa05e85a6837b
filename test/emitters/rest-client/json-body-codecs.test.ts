/**
 * The generated REST client and server move JSON bodies holding bytes, dates (`dates: "Date"`) and 64-bit integers
 * (`int64: "bigint"`) with the generated JSON codecs, not JSON.stringify / JSON.parse (src/emitters/rest-client/
 * json-body-codec.ts). Before, the client threw "Do not know how to serialize a BigInt", sent a Uint8Array as
 * {"0":..}, the server rejected a valid body because it validated the parsed JSON (a base64 string where a
 * Uint8Array is declared), and the client returned base64 text typed as Uint8Array.
 *
 * The wire is checked with a fetch that records each request's text, and the generated code is type-checked strict.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memorySpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";
import { pointRuntimeAt } from "../../helpers/source-runtime.js";
import { typecheckFiles } from "../../helpers/typecheck.js";

const SPEC = `openapi: 3.0.3
info: { title: Archive, version: "1" }
servers: [{ url: "http://archive.example/v1" }]
paths:
  /blobs:
    post:
      operationId: putBlob
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: "#/components/schemas/Blob" } } }
      responses:
        "201":
          description: stored
          content: { application/json: { schema: { $ref: "#/components/schemas/Blob" } } }
        "4XX":
          description: refused
          content: { application/json: { schema: { $ref: "#/components/schemas/Problem" } } }
    put:
      operationId: putBlobs
      requestBody:
        content: { application/json: { schema: { type: array, items: { $ref: "#/components/schemas/Blob" } } } }
      responses:
        "200":
          description: all stored
          content: { application/json: { schema: { type: array, items: { type: array, items: { $ref: "#/components/schemas/Blob" } } } } }
        default:
          description: a plain answer
          content: { application/json: { schema: { $ref: "#/components/schemas/Plain" } } }
  /plain:
    post:
      operationId: putPlain
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: "#/components/schemas/Plain" } } }
      responses:
        "200":
          description: echoed
          content: { application/json: { schema: { $ref: "#/components/schemas/Plain" } } }
components:
  schemas:
    Blob:
      type: object
      required: [data, at, size]
      properties:
        data: { type: string, format: byte }
        at: { type: string, format: date-time }
        size: { type: integer, format: int64 }
    Problem:
      type: object
      nullable: true
      required: [code]
      properties:
        code: { type: integer, format: int64 }
    Plain:
      type: object
      properties:
        name: { type: string }
`;

type Fn = (...args: unknown[]) => Promise<{ status: number; body: unknown }>;
const BIG = 2n ** 60n + 1n;
const BLOB = { data: Uint8Array.from([0, 250, 255]), at: new Date("2024-02-29T12:00:00.500Z"), size: BIG };
const BLOB_WIRE = `{"data":"APr/","at":"2024-02-29T12:00:00.500Z","size":${BIG}}`;

describe("generated REST client and server: JSON bodies with bytes, dates and 64-bit integers", () => {
  const out = generateSpec({ file: "/spec/archive.yaml", display: "archive.yaml", outDir: "archive", dates: "Date", int64: "bigint" }, memorySpecHost({ "/spec/archive.yaml": SPEC }));
  const files = new Map(out.files.map((f) => [f.path, f.content]));
  const client = [...files].find(([p]) => p.endsWith("client.ts"))![1];
  let dir: string;
  let api: Record<string, Fn>;
  const sent: string[] = [];
  let answer: { status: number; body: unknown } | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(import.meta.dirname, ".tmp-codecs-"));
    for (const f of out.files) writeFileSync(path.join(dir, path.basename(f.path)), pointRuntimeAt(f.content));
    const m = (await import(path.join(dir, "index.ts"))) as Record<string, (...args: unknown[]) => unknown>;
    const server = m["createArchiveServer"]!({
      putBlob: ({ body }: { body: typeof BLOB }) => answer ?? { status: 201, body },
      putBlobs: ({ body }: { body?: (typeof BLOB)[] }) => answer ?? { status: 200, body: [body ?? []] },
      putPlain: ({ body }: { body: unknown }) => ({ status: 200, body }),
    }) as (r: Request) => Promise<Response>;
    const recording = async (r: Request) => {
      sent.push(await r.clone().text());
      return server(r);
    };
    api = m["createArchiveClient"]!({ baseUrl: "http://archive.example/v1", fetch: recording }) as Record<string, Fn>;
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("type-checks strict", () => {
    expect(typecheckFiles(files)).toEqual([]);
  });

  it("sends a named type with its encoder and gives the answer back in memory shape (bytes, Date, exact bigint)", async () => {
    sent.length = 0;
    answer = undefined;
    const res = await api["putBlob"]!({ body: BLOB });
    expect(sent).toEqual([BLOB_WIRE]);
    expect(res.status).toBe(201);
    expect(res.body).toEqual(BLOB);
    expect((res.body as typeof BLOB).size).toBe(BIG);
  });

  it("revives a status range's type and a nullable type's null", async () => {
    answer = { status: 409, body: { code: BIG } };
    expect(await api["putBlob"]!({ body: BLOB })).toMatchObject({ status: 409, body: { code: BIG } });
    answer = { status: 404, body: null };
    expect(await api["putBlob"]!({ body: BLOB })).toMatchObject({ status: 404, body: null });
  });

  it("sends and revives lists (nested too) of such types, and leaves an optional body out", async () => {
    sent.length = 0;
    answer = undefined;
    const res = await api["putBlobs"]!({ body: [BLOB, BLOB] });
    expect(sent).toEqual([`[${BLOB_WIRE},${BLOB_WIRE}]`]);
    expect(res).toMatchObject({ status: 200, body: [[BLOB, BLOB]] });
    const empty = await api["putBlobs"]!({});
    expect(sent[1]).toBe("");
    expect(empty).toMatchObject({ status: 200, body: [[]] });
  });

  it("answers default's plain type as parsed", async () => {
    answer = { status: 202, body: { name: "later" } };
    expect(await api["putBlobs"]!({ body: [] })).toMatchObject({ status: 202, body: { name: "later" } });
    answer = undefined;
  });

  it("the server refuses a body the revived value does not match, naming the field", async () => {
    const server = await import(path.join(dir, "index.ts")).then((m: Record<string, (...a: unknown[]) => unknown>) =>
      m["createArchiveServer"]!({ putBlob: () => ({ status: 201, body: BLOB }), putBlobs: () => ({ status: 200, body: [] }), putPlain: () => ({ status: 200, body: {} }) }) as (r: Request) => Promise<Response>,
    );
    const bad = await server(new Request("http://archive.example/v1/blobs", { method: "POST", headers: { "content-type": "application/json" }, body: '{"data":"APr/","at":"yesterday","size":1}' }));
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("/at");
  });

  it("keeps JSON.stringify and JSON.parse for types whose JSON is already right", async () => {
    expect(client).toMatch(/putPlain[\s\S]*\{ kind: "json", value: request\.body \}/);
    sent.length = 0;
    expect(await api["putPlain"]!({ body: { name: "x" } })).toMatchObject({ status: 200, body: { name: "x" } });
    expect(sent).toEqual(['{"name":"x"}']);
  });
});
