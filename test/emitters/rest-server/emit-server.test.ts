import { describe, expect, it } from "vitest";
import { generateAwkward } from "../rest-client/awkward-api.js";

describe("rest server emitter", () => {
  const out = generateAwkward();
  const server = out.files.find((f) => f.path === "odd/server.ts")!.content;

  it("declares typed handlers and a server with the spec's base path", () => {
    expect(server).toContain("export interface OddAPIHandlers {");
    expect(server).toContain("export function createOddAPIServer(");
    expect(server).toContain('{ basePath: "/base/v1", ...options },');
    expect(server).toContain('path: "/things/{thing-id}/say\\"hi\\"/{n}",');
  });

  it("prints straight-line parameter parsing with facet and enum checks", () => {
    expect(server).toContain('const path1 = path1Text == null ? undefined : restInteger(path1Text, "/path/n", issues);');
    expect(server).toContain('if (path1 !== undefined && path1 < 1) restParamIssue(issues, "/path/n", "minimum", "must be at least 1");');
    expect(server).toContain('if (path1 !== undefined && path1 > 9) restParamIssue(issues, "/path/n", "maximum", "must be at most 9");');
    expect(server).toContain('restItems(query2Text, "/query/tags", issues, restInteger)');
    expect(server).toContain('if (query3 !== undefined && query3 !== "a" && query3 !== "b*/") restParamIssue(issues, "/query/kind", "enum", ');
    expect(server).toContain('const header5Text = request.headers.get("X-Trace");');
  });

  it("decodes form bodies field by field and validates them with the generated validator", () => {
    expect(server).toContain("function decodeCreateThingForm(form: URLSearchParams): unknown {");
    expect(server).toContain('const field1 = restFormText(form, "size", "form", true, "p");');
    expect(server).toContain('if (field1 !== undefined) value["size"] = restCoerceForm(field1, "integer");');
    expect(server).toContain('if (field2 !== undefined) value["ok"] = restCoerceForm(field2, "boolean");');
    expect(server).toContain("validate: validateThing,");
  });

  it("serves requests: coercion, checks and the handler's reply", async () => {
    // Compile the generated module for real (via vitest's transform) from a temp dir of the generated files.
    const { mkdtempSync, writeFileSync, mkdirSync, rmSync } = await import("node:fs");
    const path = await import("node:path");
    const dir = mkdtempSync(path.join(import.meta.dirname, ".tmp-"));
    try {
      for (const f of out.files) {
        mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
        writeFileSync(path.join(dir, f.path), f.content);
      }
      const mod = await import(path.join(dir, "odd/index.ts"));
      const handler = mod.createOddAPIServer({
        getThing: (input: { path: Record<string, unknown>; query: Record<string, unknown> }) => ({ status: 200, body: { name: JSON.stringify([input.path, input.query]) } }),
        createThing: (input: { body: unknown }) => ({ status: 204, body: undefined, headers: { "x-got": JSON.stringify(input.body) } }),
      }, { development: true });
      const ok = await handler(new Request('http://h/base/v1/things/a%2Fb/say"hi"/3?tags=1&tags=2&f[x]=y&kind=a'));
      expect(ok.status).toBe(200);
      expect(JSON.parse((await ok.json()).name)).toEqual([{ "thing-id": "a/b", n: 3 }, { tags: [1, 2], kind: "a", f: { x: "y" } }]);
      const bad = await handler(new Request('http://h/base/v1/things/a/say"hi"/10?kind=c'));
      expect(bad.status).toBe(400);
      expect((await bad.json()).issues.map((i: { path: string }) => i.path)).toEqual(["/path/n", "/query/kind"]);
      const created = await handler(new Request("http://h/base/v1/things", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "name=n&size=3&ok=true&extra=1" }));
      expect([created.status, created.headers.get("x-got")]).toEqual([204, '{"name":"n","size":3,"ok":true}']);
      const invalid = await handler(new Request("http://h/base/v1/things", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "size=big" }));
      expect(invalid.status).toBe(400);
      const json = await handler(new Request("http://h/base/v1/things", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }));
      expect(json.status).toBe(415);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
