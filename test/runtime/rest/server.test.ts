import { describe, expect, it } from "vitest";
import { createRestHandler, restOperation, type RestServerOptions } from "../../../src/runtime/rest/server.js";
import { restInteger } from "../../../src/runtime/rest/params.js";
import { restBasePathOf } from "../../../src/runtime/rest/server.js";
import type { ValidationIssue } from "../../../src/runtime/index.js";

/** A tiny hand-bound API: GET/PUT /items/{id}, POST /items (JSON body { name: string }), GET /boom (throws). */
function api(options: RestServerOptions = {}) {
  const validateItem = (v: unknown): ValidationIssue[] =>
    typeof v === "object" && v !== null && typeof (v as { name?: unknown }).name === "string" ? [] : [{ path: "/name", rule: "required", message: "name is required" }];
  return createRestHandler(
    [
      restOperation({
        name: "getItem", method: "GET", path: "/items/{id}", query: false,
        parameters: (segments, _q, _r, issues: ValidationIssue[]) => ({ id: restInteger(segments[0]!, "/path/id", issues)! }),
        invoke: (p) => ({ status: 200, body: { id: p.id, name: "x" } }),
        validateResponse: (status, body) => (status === 200 && (body as { id: number }).id !== 13 ? [] : [{ path: "/id", rule: "x", message: "unlucky" }]),
      }),
      restOperation({
        name: "putItem", method: "PUT", path: "/items/{id}", query: false,
        parameters: () => ({}),
        body: { required: true, json: true, validate: validateItem },
        invoke: (_p, body) => ({ status: 200, body }),
      }),
      restOperation({
        name: "createItem", method: "POST", path: "/items", query: false,
        parameters: () => ({}),
        body: { required: true, json: true, form: (f) => ({ name: f.get("name") }), validate: validateItem },
        invoke: (_p, body) => ({ status: 201, body, headers: { "x-created": "1" } }),
      }),
      restOperation({
        name: "boom", method: "GET", path: "/boom", query: false,
        parameters: () => ({}),
        invoke: () => {
          throw new Error("secret stack detail");
        },
      }),
    ],
    { basePath: "/api", ...options },
  );
}

const call = (handler: (r: Request) => Promise<Response>, path: string, init?: RequestInit) =>
  handler(new Request(`http://localhost${path}`, init));

describe("createRestHandler", () => {
  it("routes under the base path and coerces parameters", async () => {
    const r = await call(api(), "/api/items/5");
    expect([r.status, await r.json()]).toEqual([200, { id: 5, name: "x" }]);
    expect((await call(api(), "/items/5")).status).toBe(404);
    expect((await call(api(), "/apix/items/5")).status).toBe(404);
  });

  it("answers 400 with the issues for a bad parameter", async () => {
    const r = await call(api(), "/api/items/abc");
    expect(r.status).toBe(400);
    expect((await r.json()).issues[0].path).toBe("/path/id");
  });

  it("answers 404 for unknown routes and 405 with Allow for wrong methods", async () => {
    expect((await call(api(), "/api/nothing")).status).toBe(404);
    const r = await call(api(), "/api/items/1", { method: "DELETE" });
    expect([r.status, r.headers.get("allow")]).toEqual([405, "GET, PUT"]);
  });

  it("answers 415 for a content type the operation does not take, 400 for malformed JSON, 413 over the limit", async () => {
    const h = api({ maxBodyBytes: 16 });
    expect((await call(h, "/api/items", { method: "POST", headers: { "content-type": "text/plain" }, body: "x" })).status).toBe(415);
    expect((await call(h, "/api/items", { method: "POST", headers: { "content-type": "application/json" }, body: "{" })).status).toBe(400);
    const big = JSON.stringify({ name: "x".repeat(100) });
    expect((await call(h, "/api/items", { method: "POST", headers: { "content-type": "application/json" }, body: big })).status).toBe(413);
    // A streamed body without Content-Length is cut off while reading.
    const stream = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode(big)); c.close(); } });
    const streamed = await call(h, "/api/items", { method: "POST", headers: { "content-type": "application/json" }, body: stream, duplex: "half" } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it("validates bodies before the handler; a form body goes through the same validator", async () => {
    const bad = await call(api(), "/api/items", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(bad.status).toBe(400);
    const missing = await call(api(), "/api/items", { method: "POST" });
    expect(missing.status).toBe(400);
    const form = await call(api(), "/api/items", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "name=a" });
    expect([form.status, await form.json(), form.headers.get("x-created")]).toEqual([201, { name: "a" }, "1"]);
  });

  it("lets onValidationError answer, or hand a failing body to the handler", async () => {
    const seen: string[] = [];
    const h = api({
      onValidationError: (issues, ctx) => {
        seen.push(`${ctx.operation}:${ctx.stage}:${issues[0]?.path}`);
        return ctx.stage === "body" ? undefined : new Response("custom", { status: 418 });
      },
    });
    expect((await call(h, "/api/items/x")).status).toBe(418);
    const passed = await call(h, "/api/items", { method: "POST", headers: { "content-type": "application/json" }, body: "[1]" });
    expect([passed.status, await passed.json()]).toEqual([201, [1]]);
    expect(seen).toEqual(["getItem:parameters:/path/id", "createItem:body:/name"]);
  });

  it("turns a thrown error into a 500 without details", async () => {
    const errors: unknown[] = [];
    const r = await call(api({ onHandlerError: (e) => errors.push(e) }), "/api/boom");
    expect(r.status).toBe(500);
    expect(await r.text()).not.toContain("secret");
    expect(errors).toHaveLength(1);
  });

  it("validates responses in development mode only", async () => {
    expect((await call(api(), "/api/items/13")).status).toBe(200);
    const dev = await call(api({ development: true }), "/api/items/13");
    expect(dev.status).toBe(500);
    expect(JSON.stringify(await dev.json())).toContain("unlucky");
  });

  it("uses a pluggable error body", async () => {
    const r = await call(api({ errorBody: (status, message) => ({ errors: [{ code: `e${status}`, message }] }) }), "/api/none");
    expect(await r.json()).toEqual({ errors: [{ code: "e404", message: "Not found" }] });
  });

  it("derives the base path of a server URL", () => {
    expect(restBasePathOf("http://127.0.0.1:8080/api/v2")).toBe("/api/v2");
    expect(restBasePathOf("https://h/")).toBe("");
    expect(restBasePathOf("/api/v3/")).toBe("/api/v3");
  });
});
