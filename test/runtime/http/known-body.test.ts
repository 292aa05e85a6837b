import { describe, expect, it } from "vitest";
import { knownBody, responseWithKnownBody } from "../../../src/runtime/http/known-body.js";
import { restJsonResponse } from "../../../src/runtime/rest/response.js";

describe("responseWithKnownBody", () => {
  it("behaves like a Response for status, headers and every way of reading the body", async () => {
    const r = responseWithKnownBody('{"a":1}', { status: 201, headers: { "content-type": "application/json" } });
    expect(r).toBeInstanceOf(Response);
    expect([r.status, r.ok, r.statusText, r.headers.get("content-type"), r.bodyUsed]).toEqual([201, true, "", "application/json", false]);
    expect(await r.json()).toEqual({ a: 1 });
    expect(r.bodyUsed).toBe(true);
    await expect(r.text()).rejects.toThrow(TypeError);
    expect(await responseWithKnownBody(new Uint8Array([1, 2, 3])).bytes()).toEqual(new Uint8Array([1, 2, 3]));
    expect(new TextDecoder().decode(await responseWithKnownBody("é").arrayBuffer())).toBe("é");
  });

  it("hands out a real Response for streams and clones, and copies into new Response(null, r)", async () => {
    const r = responseWithKnownBody("hello", { status: 404, headers: { a: "b" } });
    expect(await r.clone().text()).toBe("hello");
    expect(await new Response(r.body).text()).toBe("hello");
    expect(r.bodyUsed).toBe(true);
    const head = new Response(null, responseWithKnownBody("x", { status: 404, headers: { a: "b" } }));
    expect([head.status, head.headers.get("a")]).toEqual([404, "b"]);
  });

  it("exposes its parts to an adapter only while the body is unread, with the headers as given until someone took them", async () => {
    const r = restJsonResponse(200, { ok: true });
    expect(knownBody(r)).toMatchObject({ body: '{"ok":true}', status: 200, headerRecord: { "content-type": "application/json" }, headers: undefined });
    r.headers.set("x-added", "1");
    expect(knownBody(r)?.headers?.get("x-added")).toBe("1");
    await r.text();
    expect(knownBody(r)).toBeUndefined();
    expect(knownBody(new Response("plain"))).toBeUndefined();
  });
});
