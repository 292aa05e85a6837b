/**
 * Hostile wire payloads (test/hostile/payloads.ts) through the generated decoders and the servers that use them:
 * XML through the partner element codecs and the partner SOAP emulator; protobuf through the content codec, a
 * recursive message of the hostile spec and a generated Connect server; JSON through the webhooks codecs and REST
 * emulators and ProtoJSON. Every payload gets one of our error classes, a SOAP fault or a 4xx with a short message:
 * no crash, no hang (each test has vitest's time limit), no stack trace, no prototype touched.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMembersEmulator } from "../../examples/members/app.js";
import { loadMembersFixture } from "../../examples/members/fixture.js";
import { startPartnerEmulator, type RunningPartnerEmulator } from "../../examples/partner/emulator.js";
import { createWebhooksEmulator } from "../../examples/webhooks/app.js";
import { decodeResponse, fromJsonStringResponse$ } from "../../generated/content/index.js";
import { decodeLoginElement } from "../../generated/partner/index.js";
import { decodeWebhookCreateRequestJson } from "../../generated/webhooks/index.js";
import { nodeSpecHost } from "../../src/parsers/host.js";
import { generateSpec } from "../../src/pipeline/generate-files.js";
import { serveNode, type NodeServerHandle } from "../../src/runtime/http/node.js";
import {
  JsonSyntaxError, ProtobufDecodeError, ProtoJsonError, ValidationError, XmlDecodeError, XmlParseError,
} from "../../src/runtime/index.js";
import { generateToTemp, type TempOutput } from "../emitters/proto-http/generate-temp.js";
import {
  JSON_PAYLOADS, JSON_PROTOTYPE_PAYLOADS, PROTOBUF_ACCEPTED, PROTOBUF_PAYLOADS, XML_PAYLOADS, XML_PROTOTYPE_PAYLOAD, nested, soapEnvelope, tag, varint,
} from "./payloads.js";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";

const STACK = /\n\s+at |\.ts:\d+|node:internal/;

function errorOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

function notPolluted(): void {
  for (const probe of [{}, [], Object.create(Object.prototype)]) {
    expect((probe as { polluted?: unknown }).polluted).toBeUndefined();
  }
  expect(Object.prototype).not.toHaveProperty("polluted");
}

/** Heap growth across `fn`, after a collection when the runtime offers one (generous bounds only). */
async function heapGrowth(fn: () => Promise<void> | void): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().heapUsed;
  await fn();
  gc?.();
  return process.memoryUsage().heapUsed - before;
}

// ---- XML ------------------------------------------------------------------------------------------------------------

describe("XML payloads", () => {
  let partner: RunningPartnerEmulator;
  beforeAll(async () => {
    partner = await startPartnerEmulator({ onError: () => undefined });
  });
  afterAll(async () => partner?.close());

  it.each(XML_PAYLOADS)("decodeLoginElement refuses: %s", (_name, text, message) => {
    const e = errorOf(() => decodeLoginElement(text));
    expect(e instanceof XmlParseError || e instanceof XmlDecodeError, String(e)).toBe(true);
    expect((e as Error).message).toMatch(message);
  });

  it("unknown <__proto__>/<constructor> elements are skipped and never reach a prototype", () => {
    const value = decodeLoginElement(XML_PROTOTYPE_PAYLOAD);
    expect(value).toEqual({ username: "u", password: "p" });
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    notPolluted();
  });

  it("the decoders' size limit is an error, not a slow parse", () => {
    const big = `<login xmlns="urn:partner.api.example"><username>${"u".repeat(5000)}</username><password>p</password></login>`;
    expect(errorOf(() => decodeLoginElement(big, { limits: { maxBytes: 1000 } }))).toBeInstanceOf(XmlParseError);
    expect(decodeLoginElement(big).username).toHaveLength(5000);
  });

  const post = (body: string | Uint8Array, contentType = "text/xml; charset=utf-8") =>
    fetch(partner.endpoint, { method: "POST", headers: { "content-type": contentType, soapaction: '""' }, body: body as BodyInit });

  const soapCases: [string, string][] = [...XML_PAYLOADS.map(([n, t]) => [n, t] as [string, string]), ["__proto__ elements", XML_PROTOTYPE_PAYLOAD]];
  it.each(soapCases)("the SOAP server answers with a SOAP envelope (a fault for malformed XML): %s", async (_name, text) => {
    for (const body of [soapEnvelope(text), text.startsWith("<!DOCTYPE") ? text.replace(/(<!DOCTYPE[^\]>]*(\][^>]*)?>)/, "$1" + soapEnvelope("")) : soapEnvelope(text)]) {
      const res = await post(body);
      const answer = await res.text();
      expect(res.headers.get("content-type")).toMatch(/^text\/xml/);
      // Malformed XML is a Client fault (SOAP 1.1 answers every fault with 500); well-formed XML reaches an operation,
      // whose answer is a result or a fault of its own.
      expect(answer).toMatch(/:Envelope /);
      if (res.status !== 200) expect(answer).toMatch(/<faultcode>[^<]*<\/faultcode>/);
      if (!/^(text outside the root|two roots|wrong root element|missing required element|__proto__ elements)$/.test(String(_name))) {
        expect(answer).toMatch(/<faultcode>[^<]*:Client<\/faultcode>/);
      }
      expect(answer).not.toMatch(STACK);
    }
  });

  it("the SOAP server refuses bodies over its limit (413), non-UTF-8 bytes and wrong content types (415)", async () => {
    const huge = soapEnvelope(`<login xmlns="urn:partner.api.example"><username>${"u".repeat(5 * 1024 * 1024)}</username></login>`);
    const tooBig = await post(huge);
    expect(tooBig.status).toBe(413);
    expect(await tooBig.text()).toMatch(/Fault/);
    const latin1 = await post(new Uint8Array([...Buffer.from(soapEnvelope("<a>")), 0xff, 0xfe]));
    expect((await latin1.text())).toMatch(/Client/);
    const json = await post('{"login": {}}', "application/json");
    expect(json.status).toBe(415);
    expect(await json.text()).not.toMatch(STACK);
  });
});

// ---- protobuf -------------------------------------------------------------------------------------------------------

describe("protobuf payloads", () => {
  let greeter: TempOutput;
  let connect: NodeServerHandle;
  let hostile: Record<string, any>;
  let hostileRoot: string;

  beforeAll(async () => {
    greeter = generateToTemp(path.resolve(import.meta.dirname, "../emitters/proto-http/fixtures/greeter.proto"));
    const mod = (await import(`${greeter.dir}/connect.ts`)) as Record<string, any>;
    connect = await serveNode(
      mod.createGreeterHandler({
        greet: async (r: { name: string; times: bigint }) => ({ greeting: r.name, count: r.times }),
        fail: async () => ({}),
      }),
    );
    // The hostile spec's message `constructor` is recursive (field 27 `self`): the one to nest deeply.
    const out = generateSpec({ file: path.join(import.meta.dirname, "specs/hostile.proto"), display: "hostile.proto" }, nodeSpecHost({}));
    hostileRoot = mkdtempSync(path.join(tmpdir(), "specforge-hostile-pb-"));
    for (const f of out.files) {
      mkdirSync(path.dirname(path.join(hostileRoot, f.path)), { recursive: true });
      writeFileSync(path.join(hostileRoot, f.path), f.content);
    }
    hostile = (await import(path.join(hostileRoot, out.dir, "index.ts"))) as Record<string, any>;
  });
  afterAll(async () => {
    await connect?.close();
    greeter?.remove();
    rmSync(hostileRoot, { recursive: true, force: true });
  });

  it.each(PROTOBUF_PAYLOADS)("decodeResponse refuses: %s", (_name, bytes) => {
    const e = errorOf(() => decodeResponse(bytes));
    expect(e, "decoded without an error").toBeInstanceOf(ProtobufDecodeError);
    expect((e as ProtobufDecodeError).offset).toBeGreaterThanOrEqual(0);
    expect((e as Error).message).not.toMatch(STACK);
  });

  it.each(PROTOBUF_ACCEPTED)("decodeResponse accepts, as protoc does: %s", (_name, bytes) => {
    const page = decodeResponse(bytes);
    expect(Object.getPrototypeOf(page)).toBe(Object.prototype);
    if (page.requestUrl !== undefined) expect(page.requestUrl).toBe("\uFFFD(");
    else expect(page.$unknown?.length).toBe(bytes.length);
  });

  it("every payload together decodes in bounded memory", async () => {
    const growth = await heapGrowth(() => {
      for (let round = 0; round < 20; round++) for (const [, bytes] of PROTOBUF_PAYLOADS) errorOf(() => decodeResponse(bytes));
    });
    expect(growth).toBeLessThan(256 * 1024 * 1024);
  });

  it("deep nesting of a recursive message stops at maxDepth (100), as an error", () => {
    expect(hostile.decodeConstructor(nested(27, 99))).toBeTruthy();
    for (const levels of [101, 5000, 200_000]) {
      const e = errorOf(() => hostile.decodeConstructor(nested(27, levels)));
      expect(e).toBeInstanceOf(ProtobufDecodeError);
      expect((e as Error).message).toMatch(/nesting deeper than 100/);
    }
    expect(errorOf(() => hostile.decodeConstructor(nested(27, 20), { maxDepth: 10 }))).toBeInstanceOf(ProtobufDecodeError);
  });

  it("huge repeated counts: a million valid entries decode; a count the bytes cannot hold fails at once", () => {
    const one = [...tag(18, 2), 0]; // repeated class classes = 18: an empty message per entry
    const many = new Uint8Array(one.length * 1_000_000);
    for (let i = 0; i < many.length; i += one.length) many.set(one, i);
    expect(hostile.decodeConstructor(many).classes).toHaveLength(1_000_000);
    expect(errorOf(() => hostile.decodeConstructor(new Uint8Array([...tag(19, 2), ...varint(2 ** 40)])))).toBeInstanceOf(ProtobufDecodeError);
  });

  it.each(PROTOBUF_PAYLOADS)("the Connect server answers 400 invalid_argument: %s", async (_name, bytes) => {
    const res = await fetch(`${connect.url}/specforge.test.v1.Greeter/Greet`, { method: "POST", headers: { "content-type": "application/proto" }, body: bytes as BodyInit });
    const text = await res.text();
    expect(text).not.toMatch(STACK);
    if (res.status === 200) return; // the bytes happen to be a valid GreetRequest (unknown fields are skipped)
    expect(res.status).toBe(400);
    expect(JSON.parse(text)).toMatchObject({ code: "invalid_argument" });
  });

  it("the Connect server: 415 for other content types, 413-style resource_exhausted over the body limit, 405 for GET", async () => {
    const url = `${connect.url}/specforge.test.v1.Greeter/Greet`;
    const wrong = await fetch(url, { method: "POST", headers: { "content-type": "text/plain" }, body: "hi" });
    expect(wrong.status).toBe(415);
    const big = await fetch(url, { method: "POST", headers: { "content-type": "application/proto" }, body: new Uint8Array(5 * 1024 * 1024) });
    expect(big.status).not.toBe(500);
    expect(JSON.parse(await big.text())).toMatchObject({ code: "resource_exhausted" });
    expect((await fetch(url)).status).toBe(405);
    const badJson = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON_PAYLOADS[0]![1] });
    expect(badJson.status).toBe(400);
    expect(await badJson.text()).not.toMatch(STACK);
  });
});

// ---- JSON -----------------------------------------------------------------------------------------------------------

describe("JSON payloads", () => {
  let webhooks: NodeServerHandle;
  let members: NodeServerHandle;
  const admin = `Basic ${Buffer.from("ck_admin:cs_admin").toString("base64")}`;

  beforeAll(async () => {
    webhooks = await serveNode(createWebhooksEmulator(undefined, { pingTimeoutMs: 200 }));
    members = await serveNode(createMembersEmulator(loadMembersFixture()));
  });
  afterAll(async () => {
    await webhooks?.close();
    await members?.close();
  });

  it.each(JSON_PAYLOADS)("the generated decoder refuses: %s", (_name, text) => {
    const e = errorOf(() => decodeWebhookCreateRequestJson(text));
    expect(e instanceof JsonSyntaxError || e instanceof ValidationError, String(e)).toBe(true);
    expect((e as Error).message).not.toMatch(STACK);
  });

  it.each(JSON_PAYLOADS)("ProtoJSON refuses: %s", (_name, text) => {
    const e = errorOf(() => fromJsonStringResponse$(text));
    expect(e instanceof ProtoJsonError || e instanceof JsonSyntaxError, String(e)).toBe(true);
  });

  it.each(JSON_PAYLOADS)("the REST emulators answer 400 with a short JSON error: %s", async (_name, text) => {
    const answers = [
      await fetch(`${webhooks.url}/api/v2/webhooks`, { method: "POST", headers: { authorization: admin, "content-type": "application/json" }, body: text }),
      await fetch(`${members.url}/api/v3/projects/1/members`, { method: "POST", headers: { "private-token": "token-master", "content-type": "application/json" }, body: text }),
    ];
    for (const res of answers) {
      const body = await res.text();
      expect(res.status, body).toBe(400);
      expect(body).not.toMatch(STACK);
      expect(body.length).toBeLessThan(2000);
    }
  });

  it.each(JSON_PROTOTYPE_PAYLOADS)("__proto__/constructor/prototype keys stay data: %s", async (_name, text) => {
    let value: unknown;
    try {
      value = decodeWebhookCreateRequestJson(text);
    } catch (e) {
      expect(e).toBeInstanceOf(ValidationError);
    }
    if (value !== undefined) expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    for (const ignoreUnknownFields of [false, true]) {
      try {
        const page = fromJsonStringResponse$(text, { ignoreUnknownFields });
        expect(Object.getPrototypeOf(page)).toBe(Object.prototype);
      } catch (e) {
        expect(e instanceof ProtoJsonError || e instanceof JsonSyntaxError).toBe(true);
      }
    }
    const res = await fetch(`${webhooks.url}/api/v2/webhooks`, { method: "POST", headers: { authorization: admin, "content-type": "application/json" }, body: text });
    expect(res.status).toBeLessThan(500);
    expect(await res.text()).not.toMatch(STACK);
    notPolluted();
  });

  it("the REST emulators: 415 for other content types, 413 over 1 MiB, 404 and 405, never a stack", async () => {
    const url = `${webhooks.url}/api/v2/webhooks`;
    const form = await fetch(url, { method: "POST", headers: { authorization: admin, "content-type": "text/plain" }, body: "{}" });
    expect(form.status).toBe(415);
    const big = await fetch(url, { method: "POST", headers: { authorization: admin, "content-type": "application/json" }, body: `{"webhook": {"name": "${"x".repeat(2 * 1024 * 1024)}"}}` });
    expect(big.status).toBe(413);
    const membersBig = await fetch(`${members.url}/api/v3/projects/1/members`, { method: "POST", headers: { "private-token": "token-master", "content-type": "application/json" }, body: "[".repeat(2 * 1024 * 1024) });
    expect(membersBig.status).toBe(413);
    expect((await fetch(`${webhooks.url}/api/v2/nope`)).status).toBe(404);
    const put = await fetch(url, { method: "PATCH", headers: { authorization: admin } });
    expect(put.status).toBe(405);
    for (const r of [form, big, membersBig, put]) expect(await r.text()).not.toMatch(STACK);
  });
});
