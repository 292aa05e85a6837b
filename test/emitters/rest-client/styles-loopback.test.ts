/**
 * Parameter styles and form bodies end to end: a generated client talks to the generated server over real HTTP on
 * loopback. Every style of every location goes out as OpenAPI writes it and arrives as the value the client was
 * given; a multipart body with files and a urlencoded body with nested objects arrive typed and validated.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memorySpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";
import { serveNode, type NodeServerHandle } from "../../../src/runtime/http/node.js";
import { typecheckFiles } from "../../helpers/typecheck.js";

const STYLES_API = `
openapi: 3.1.0
info: { title: Styles API, version: "1" }
paths:
  /paint/{colors}/{rgb}:
    get:
      operationId: paint
      parameters:
        - { name: colors, in: path, required: true, style: label, explode: true, schema: { type: array, items: { type: string } } }
        - { name: rgb, in: path, required: true, style: matrix, explode: true, schema: { $ref: "#/components/schemas/Rgb" } }
        - { name: csv, in: query, explode: false, schema: { type: array, items: { type: integer } } }
        - { name: ssv, in: query, style: spaceDelimited, schema: { type: array, items: { type: string } } }
        - { name: psv, in: query, style: pipeDelimited, schema: { type: array, items: { type: string } } }
        - { name: tsv, in: query, style: tabDelimited, schema: { type: array, items: { type: string } } }
        - { name: filter, in: query, style: deepObject, schema: { $ref: "#/components/schemas/Rgb" } }
        - { name: point, in: query, schema: { $ref: "#/components/schemas/Point" } }
        - { name: expand, in: query, style: deepObject, explode: true, schema: { type: array, items: { type: string } } }
        - { name: created, in: query, style: deepObject, explode: true, schema: { anyOf: [{ type: integer }, { $ref: "#/components/schemas/Range" }] } }
        - { name: items, in: query, style: deepObject, explode: true, schema: { type: array, items: { $ref: "#/components/schemas/Item" } } }
        - { name: coords, in: query, content: { application/json: { schema: { $ref: "#/components/schemas/Point" } } } }
        - { name: X-Colors, in: header, schema: { type: array, items: { type: string } } }
        - { name: X-Rgb, in: header, explode: true, schema: { $ref: "#/components/schemas/Rgb" } }
        - { name: session, in: cookie, schema: { type: string } }
        - { name: prefs, in: cookie, explode: false, schema: { type: array, items: { type: string } } }
      responses:
        "200": { description: what the server read, content: { application/json: { schema: {} } } }
  /grid/{cells}:
    get:
      operationId: grid
      description: >-
        Arrays and objects nested in a one-level style's value (OpenAPI leaves them undefined; specforge degrades them
        with a warning): query ones go in deepObject's bracket convention, the others as JSON text.
      parameters:
        - { name: cells, in: path, required: true, schema: { type: array, items: { type: array, items: { type: integer } } } }
        - { name: Filter, in: query, schema: { type: array, items: { $ref: "#/components/schemas/Filter" } } }
        - { name: pairs, in: query, style: form, explode: false, schema: { type: array, items: { type: array, minItems: 2, maxItems: 2, items: { type: integer } } } }
        - { name: X-Sort, in: header, schema: { $ref: "#/components/schemas/Sort" } }
        - { name: picks, in: cookie, schema: { type: array, items: { $ref: "#/components/schemas/Item" } } }
      responses:
        "200": { description: what the server read, content: { application/json: { schema: {} } } }
  /files:
    post:
      operationId: upload
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema: { $ref: "#/components/schemas/Upload" }
            encoding:
              expand: { style: deepObject, explode: true }
      responses:
        "200": { description: what the server read, content: { application/json: { schema: {} } } }
  /orders:
    post:
      operationId: order
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema: { $ref: "#/components/schemas/Order" }
            encoding:
              tags: { style: form, explode: false }
      responses:
        "200": { description: what the server read, content: { application/json: { schema: {} } } }
  /detect:
    post:
      operationId: detect
      description: A urlencoded body whose schema is one string (spoonacular's) is the form's text itself.
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema: { type: string, maxLength: 40 }
      responses:
        "200": { description: what the server read, content: { application/json: { schema: {} } } }
  /visualize:
    post:
      operationId: visualize
      requestBody:
        content:
          multipart/form-data:
            schema: { type: string }
      responses:
        "200": { description: what the server read, content: { application/json: { schema: {} } } }
  /attach:
    post:
      operationId: attach
      description: A nullable multipart body (stream-io's); null has no fields, so an empty form goes out.
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema: { type: [object, "null"], properties: { note: { type: string } } }
      responses:
        "200": { description: what the server read, content: { application/json: { schema: {} } } }
components:
  schemas:
    Rgb: { type: object, properties: { R: { type: integer }, G: { type: integer }, B: { type: integer } } }
    Point: { type: object, additionalProperties: false, properties: { x: { type: integer }, y: { type: integer } } }
    Range: { type: object, properties: { gt: { type: integer }, lte: { type: integer } } }
    Filter: { type: object, required: [Name], properties: { Name: { type: string }, Values: { type: array, items: { type: string } } } }
    Sort: { type: object, properties: { keys: { type: array, items: { type: string } }, desc: { type: boolean } } }
    Item: { type: object, required: [price], properties: { price: { type: string }, quantity: { type: integer } } }
    Upload:
      type: object
      required: [file, purpose]
      properties:
        file: { type: string, format: binary }
        attachments: { type: array, items: { type: string, format: binary } }
        purpose: { type: string, enum: [avatar, document] }
        size: { type: integer }
        expand: { type: array, items: { type: string } }
        meta: { type: object, properties: { note: { type: string }, count: { type: integer } } }
    Order:
      type: object
      required: [amount]
      properties:
        amount: { type: integer }
        paid: { type: boolean }
        tags: { type: array, items: { type: string } }
        address: { type: object, properties: { city: { type: string }, zip: { type: string } } }
        lines: { type: array, items: { $ref: "#/components/schemas/Item" } }
`;

/** The line of STYLES_API holding `text` (1-based). */
const LINE = (text: string) => STYLES_API.split("\n").findIndex((l) => l.includes(text)) + 1;

const out = generateSpec({ file: "/spec/styles.yaml", display: "styles.yaml" }, memorySpecHost({ "/spec/styles.yaml": STYLES_API }));

/** A Blob as JSON can show it. */
async function blobJson(blob: unknown): Promise<unknown> {
  return blob instanceof Blob ? { blob: await blob.text(), size: blob.size } : blob;
}

describe("parameter styles and form bodies over loopback HTTP", () => {
  let dir: string;
  let server: NodeServerHandle;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let client: any;
  const sent: { url: string; headers: Headers; body: string }[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(import.meta.dirname, ".tmp-"));
    for (const f of out.files) {
      mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
      writeFileSync(path.join(dir, f.path), f.content);
    }
    const mod = await import(path.join(dir, "styles/index.ts"));
    const handler = mod.createStylesAPIServer({
      paint: ({ request: _request, ...input }: { request: Request }) => ({ status: 200, body: input }),
      grid: ({ request: _request, ...input }: { request: Request }) => ({ status: 200, body: input }),
      upload: async (input: { body: Record<string, unknown> }) => {
        const body = input.body;
        const attachments = Array.isArray(body["attachments"]) ? await Promise.all(body["attachments"].map(blobJson)) : undefined;
        return { status: 200, body: { ...body, file: await blobJson(body["file"]), attachments } };
      },
      order: (input: { body: unknown }) => ({ status: 200, body: input.body }),
      detect: (input: { body: unknown }) => ({ status: 200, body: { text: input.body } }),
      visualize: (input: object) => ({ status: 200, body: { hasBody: "body" in input } }),
      attach: (input: { body: unknown }) => ({ status: 200, body: { body: input.body } }),
    });
    server = await serveNode(handler);
    const recording: typeof fetch = async (request) => {
      const r = request as Request;
      sent.push({ url: r.url, headers: r.headers, body: await r.clone().text() });
      return fetch(r);
    };
    client = mod.createStylesAPIClient({ baseUrl: server.url, fetch: recording });
  });

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("type-checks strict", () => {
    expect(typecheckFiles(new Map(out.files.map((f) => [f.path, f.content])))).toEqual([]);
  });

  it("writes every parameter in its style and reads it back as the same value", async () => {
    const request = {
      path: { colors: ["red", "green"], rgb: { R: 1, G: 2, B: 3 } },
      query: {
        csv: [1, 2, 3],
        ssv: ["ab", "c"],
        psv: ["x", "y"],
        tsv: ["t", "u"],
        filter: { R: 10 },
        point: { x: 4, y: 5 },
        expand: ["customer", "invoice.lines"],
        created: { gt: 100, lte: 200 },
        items: [{ price: "p_1", quantity: 2 }, { price: "p_2" }],
        coords: { x: 1, y: 2 },
      },
      header: { "X-Colors": ["red", "blue"], "X-Rgb": { R: 7, G: 8, B: 9 } },
      cookie: { session: "s 1;2", prefs: ["dark", "wide"] },
    };
    const response = await client.paint(request);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(request);
    const wire = sent.at(-1)!;
    const url = new URL(wire.url);
    expect(url.pathname).toBe("/paint/.red.green/;R=1;G=2;B=3");
    expect(url.search).toBe(
      "?csv=1,2,3&ssv=ab%20c&psv=x%7Cy&tsv=t%09u&filter%5BR%5D=10&x=4&y=5" +
        "&expand%5B0%5D=customer&expand%5B1%5D=invoice.lines&created%5Bgt%5D=100&created%5Blte%5D=200" +
        "&items%5B0%5D%5Bprice%5D=p_1&items%5B0%5D%5Bquantity%5D=2&items%5B1%5D%5Bprice%5D=p_2" +
        "&coords=%7B%22x%22%3A1%2C%22y%22%3A2%7D",
    );
    expect(wire.headers.get("x-colors")).toBe("red,blue");
    expect(wire.headers.get("x-rgb")).toBe("R=7,G=8,B=9");
    expect(wire.headers.get("cookie")).toBe("session=s%201%3B2; prefs=dark,wide");
  });

  it("reads Stripe's primitive branch of a union and reports values that fit no branch or schema", async () => {
    const ok = await client.paint({ path: { colors: ["red"], rgb: { R: 0 } }, query: { created: 1700000000 } });
    expect(ok.body.query).toEqual({ created: 1700000000 });
    const bad = await fetch(`${server.url}/paint/.red/;R=x?created%5Bgt%5D=soon&csv=1,b&coords={"x":1,"z":2}`);
    expect(bad.status).toBe(400);
    const issues = ((await bad.json()) as { issues: { path: string }[] }).issues.map((i) => i.path);
    expect(issues).toEqual(["/path/rgb/R", "/query/csv/1", "/query/created", "/query/coords/z"]);
    const notJson = await fetch(`${server.url}/paint/.red/;R=1?coords={x}`);
    expect(((await notJson.json()) as { issues: { path: string; message: string }[] }).issues).toEqual([
      { path: "/query/coords", rule: "type", message: "expected JSON text" },
    ]);
  });

  it("agrees with itself on arrays and objects nested in a one-level style (degraded with warnings)", async () => {
    expect(out.warnings.map((w) => `${w.line}: ${w.detail.replace(/ cannot carry .*; /, " ...; ")}`)).toEqual([
      `${LINE("name: cells")}: path parameter "cells": style simple ...; sent as its JSON text instead (as if declared with content application/json)`,
      `${LINE("name: Filter")}: query parameter "Filter": style form ...; written in deepObject's bracket convention instead (name[0][key]=value, as qs and most clients write it)`,
      `${LINE("name: pairs")}: query parameter "pairs": style form ...; written in deepObject's bracket convention instead (name[0][key]=value, as qs and most clients write it)`,
      `${LINE("name: X-Sort")}: header parameter "X-Sort": style simple ...; sent as its JSON text instead (as if declared with content application/json)`,
      `${LINE("name: picks")}: cookie parameter "picks": style form ...; sent as its JSON text instead (as if declared with content application/json)`,
      `${LINE("operationId: visualize") + 4}: a multipart/form-data body is named parts, the properties of an object schema (OpenAPI, "Special Considerations for multipart Content"), not one string: the media type is left out (clients do not send it, servers do not read it)`,
    ]);
    const request = {
      path: { cells: [[1, 2], [3]] },
      query: { Filter: [{ Name: "state", Values: ["running", "a,b"] }, { Name: "tag" }], pairs: [[1, 2], [3, 4]] },
      header: { "X-Sort": { keys: ["name", "date"], desc: true } },
      cookie: { picks: [{ price: "p;1", quantity: 2 }] },
    };
    const response = await client.grid(request);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(request);
    const wire = sent.at(-1)!;
    const url = new URL(wire.url);
    expect(decodeURIComponent(url.pathname)).toBe("/grid/[[1,2],[3]]");
    expect(decodeURIComponent(url.search)).toBe(
      "?Filter[0][Name]=state&Filter[0][Values][0]=running&Filter[0][Values][1]=a,b&Filter[1][Name]=tag" +
        "&pairs[0][0]=1&pairs[0][1]=2&pairs[1][0]=3&pairs[1][1]=4",
    );
    expect(wire.headers.get("x-sort")).toBe('{"keys":["name","date"],"desc":true}');
    // The server validates what arrives: a pair of three, a filter without its required Name, a header that is not JSON.
    const bad = await fetch(`${server.url}/grid/%5B%5B1%5D%5D?pairs%5B0%5D%5B0%5D=1&pairs%5B0%5D%5B1%5D=2&pairs%5B0%5D%5B2%5D=3&Filter%5B0%5D%5BValues%5D%5B0%5D=x`, {
      headers: { "X-Sort": "{keys" },
    });
    expect(bad.status).toBe(400);
    const issues = ((await bad.json()) as { issues: { path: string; rule: string }[] }).issues.map((i) => `${i.path} ${i.rule}`).sort();
    expect(issues).toEqual(["/header/X-Sort type", "/query/Filter/0/Name required", "/query/pairs/0 maxItems"]);
  });

  it("sends a multipart body with files and fields, and the server hands over Blobs and typed fields", async () => {
    const file = new File(["%PDF-1.7 \u0000\u00ff binary"], "doc.pdf", { type: "application/pdf" });
    const response = await client.upload({
      body: {
        file,
        attachments: [new Blob(["one"]), new Blob(["two"])],
        purpose: "document",
        size: 42,
        expand: ["file_link"],
        meta: { note: "n", count: 3 },
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      file: { blob: await file.text(), size: file.size },
      attachments: [{ blob: "one", size: 3 }, { blob: "two", size: 3 }],
      purpose: "document",
      size: 42,
      expand: ["file_link"],
      meta: { note: "n", count: 3 },
    });
    expect(sent.at(-1)!.headers.get("content-type")).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.at(-1)!.body).toContain('name="expand[0]"');
    expect(sent.at(-1)!.body).toContain('filename="doc.pdf"');
  });

  it("validates a multipart body with the body's validator", async () => {
    const form = new FormData();
    form.append("file", new Blob(["x"]));
    form.append("purpose", "selfie");
    form.append("size", "big");
    const response = await fetch(`${server.url}/files`, { method: "POST", body: form });
    expect(response.status).toBe(400);
    const issues = ((await response.json()) as { issues: { path: string }[] }).issues.map((i) => i.path).sort();
    expect(issues).toEqual(["/purpose", "/size"]);
    const noFile = new FormData();
    noFile.append("purpose", "avatar");
    expect((await fetch(`${server.url}/files`, { method: "POST", body: noFile })).status).toBe(400);
  });

  it("sends a urlencoded body with arrays and nested objects, and the server reads it typed", async () => {
    const order = {
      amount: 1200,
      paid: true,
      tags: ["a", "b"],
      address: { city: "Paris", zip: "75001" },
      lines: [{ price: "p_1", quantity: 1 }],
    };
    const response = await client.order({ body: order });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(order);
    expect(decodeURIComponent(sent.at(-1)!.body)).toBe(
      "amount=1200&paid=true&tags=a,b&address[city]=Paris&address[zip]=75001&lines[0][price]=p_1&lines[0][quantity]=1",
    );
    const bad = await fetch(`${server.url}/orders`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "amount=lots&lines[0][quantity]=1",
    });
    expect(bad.status).toBe(400);
    const issues = ((await bad.json()) as { issues: { path: string }[] }).issues.map((i) => i.path).sort();
    expect(issues).toEqual(["/amount", "/lines/0/price"]);
  });

  it("sends a urlencoded body whose schema is one string as the form's text, and the server reads that text", async () => {
    const text = "ingredientList=3 eggs&servings=2";
    const response = await client.detect({ body: text });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ text });
    expect(sent.at(-1)!.body).toBe(text);
    expect(sent.at(-1)!.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    // The text is validated as the string the schema says.
    const long = await fetch(`${server.url}/detect`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "x".repeat(41),
    });
    expect(long.status).toBe(400);
  });

  it("leaves out a multipart media type whose schema is one string (the client sends no body, the server reads none)", async () => {
    const response = await client.visualize({});
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ hasBody: false });
    expect(sent.at(-1)!.headers.get("content-type")).toBeNull();
    const raw = await fetch(`${server.url}/visualize`, { method: "POST", headers: { "content-type": "multipart/form-data; boundary=b" }, body: "--b--" });
    expect(await raw.json()).toEqual({ hasBody: false });
  });

  it("sends an empty form for a null multipart body, and the fields of an object one", async () => {
    const empty = await client.attach({ body: null });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ body: {} });
    expect(sent.at(-1)!.headers.get("content-type")).toMatch(/^multipart\/form-data; boundary=/);
    const note = await client.attach({ body: { note: "hi" } });
    expect(note.body).toEqual({ body: { note: "hi" } });
  });
});
