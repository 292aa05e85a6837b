/**
 * The generated REST server writes response bodies with the generated JSON encoders (`encode<T>Json` of the type
 * each status declares), the writer the generated decoders mirror: a `format: byte` property goes out as base64,
 * not as JSON.stringify's {"0":..,"1":..} of a Uint8Array; int64 and dates as the spec's JSON says. Inline response
 * schemas, types whose JSON is JSON.stringify's (no bytes, dates or 64-bit integers) and bodies that are not values of
 * their declared type keep JSON.stringify. The wire text is read with plain fetch, and the answer again through the
 * generated client, as an application would (its revivers give bytes back as Uint8Array: test/emitters/rest-client/
 * json-body-codecs.test.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSpecForMock, type LoadedSpec } from "../../../src/mock/load.js";

const SPEC = `openapi: 3.0.3
info: { title: Blobs, version: "1" }
servers: [{ url: "http://blobs.example/api" }]
paths:
  /blobs/{id}:
    get:
      operationId: getBlob
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: the blob
          content: { application/json: { schema: { $ref: "#/components/schemas/Blob" } } }
        "4XX":
          description: inline error schema
          content: { application/json: { schema: { type: object, properties: { message: { type: string } } } } }
        default:
          description: an error
          content: { application/json: { schema: { $ref: "#/components/schemas/Problem" } } }
  /blobs:
    get:
      operationId: listBlobs
      responses:
        "200":
          description: the blobs, or null
          content: { application/json: { schema: { $ref: "#/components/schemas/BlobList" }, } }
components:
  schemas:
    Blob:
      type: object
      required: [id, data]
      properties:
        id: { type: string }
        data: { type: string, format: byte }
        thumbnail: { type: string, format: byte }
        size: { type: integer, format: int64 }
    BlobList:
      type: object
      nullable: true
      properties:
        items: { type: array, items: { $ref: "#/components/schemas/Blob" } }
    Problem:
      type: object
      required: [code]
      properties:
        code: { type: integer }
        trace: { type: string, format: byte }
`;

type Fn = (...args: unknown[]) => unknown;
const BYTES = Uint8Array.from([0, 1, 2, 250, 251, 252, 253, 254, 255]);
const BASE64 = Buffer.from(BYTES).toString("base64");

let dir: string;
let spec: LoadedSpec;
let client: Record<string, Fn>;
let server: (r: Request) => Promise<Response>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "specforge-byte-"));
  writeFileSync(path.join(dir, "blobs.yaml"), SPEC);
  spec = await loadSpecForMock({ spec: path.join(dir, "blobs.yaml") });
  const api = spec.names.api(0);
  let nextStatus = 200;
  server = (spec.module[api.createServer] as Fn)(
    {
      getBlob: ({ path: p }: { path: { id: string } }) => {
        if (p.id === "missing") return { status: 404, body: { message: "no blob \u00e9" } };
        if (p.id === "broken") return { status: 500, body: { code: 7, trace: BYTES } };
        if (p.id === "sloppy") return { status: 503, body: { message: "not a Problem" } };
        return { status: 200, body: { id: p.id, data: BYTES, thumbnail: new Uint8Array(0), size: 12 } };
      },
      listBlobs: () => (nextStatus++ === 200 ? { status: 200, body: { items: [{ id: "a", data: BYTES }] } } : { status: 200, body: null }),
    },
    {},
  ) as (r: Request) => Promise<Response>;
  client = (spec.module[api.createClient] as Fn)({ baseUrl: "http://blobs.example/api", fetch: (r: Request) => server(r) }) as Record<string, Fn>;
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function call(method: string, input: unknown): Promise<{ status: number; body: unknown }> {
  try {
    const res = (await client[method]!(input)) as { status: number; body: unknown };
    return { status: res.status, body: res.body };
  } catch (error) {
    // A status the client does not accept still carries the body (RestUnexpectedStatusError).
    const e = error as { status?: number; body?: unknown };
    if (e.status === undefined) throw error;
    return { status: e.status, body: e.body };
  }
}

describe("generated REST server: response bodies through the generated JSON encoders", () => {
  it("writes format: byte as base64, which the generated decoder reads back as the same bytes", async () => {
    const wire = await server(new Request("http://blobs.example/api/blobs/b1"));
    expect(wire.status).toBe(200);
    const text = await wire.text();
    expect(JSON.parse(text)).toEqual({ id: "b1", data: BASE64, thumbnail: "", size: 12 });
    const res = await call("getBlob", { path: { id: "b1" } });
    expect(res).toEqual({ status: 200, body: { id: "b1", data: BYTES, thumbnail: new Uint8Array(0), size: 12 } });
    const blobType = spec.doc.types.find((t) => t.name === "Blob")!;
    const decode = spec.module[spec.names.derived(blobType.id, "decodeJson")] as Fn;
    const blob = decode(text) as { data: Uint8Array; thumbnail: Uint8Array };
    expect(blob.data).toEqual(BYTES);
    expect(blob.thumbnail).toEqual(new Uint8Array(0));
  });

  it("writes a named type declared by a status range or default with its encoder too, and null for a nullable body", async () => {
    const wire = await server(new Request("http://blobs.example/api/blobs/broken"));
    expect(JSON.parse(await wire.text())).toEqual({ code: 7, trace: BASE64 });
    const res = await call("getBlob", { path: { id: "broken" } });
    expect(res).toEqual({ status: 500, body: { code: 7, trace: BYTES } });
    const list = await call("listBlobs", {});
    expect(list.body).toEqual({ items: [{ id: "a", data: BYTES }] });
    const empty = await call("listBlobs", {});
    expect(empty).toEqual({ status: 200, body: null });
  });

  it("answers a body that is not a value of its declared type as before (JSON.stringify), not with a 500", async () => {
    const res = await call("getBlob", { path: { id: "sloppy" } });
    expect(res).toEqual({ status: 503, body: { message: "not a Problem" } });
  });

  it("still answers an inline response schema (no named encoder: JSON.stringify)", async () => {
    const res = await call("getBlob", { path: { id: "missing" } });
    expect(res).toEqual({ status: 404, body: { message: "no blob \u00e9" } });
  });
});
