/**
 * `specforge mock --proxy <url>` (issue 30): a validating proxy in front of a real server. Upstreams here are the
 * mocks themselves (answers that keep the contract) and hand-written servers that break it; the proxy must report
 * every violation on the side it happened, forward invalid requests anyway, and hand the answer back unchanged.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpService } from "../../src/ir/model.js";
import { loadSpecForMock, type LoadedSpec } from "../../src/mock/load.js";
import { createValidatingProxy, type ProxyLogEntry } from "../../src/mock/proxy.js";
import { createRestMock, mockBasePath } from "../../src/mock/rest.js";
import { createSoapMock } from "../../src/mock/soap.js";
import { ValueGenerator } from "../../src/mock/values.js";
import { serveNode, type NodeServerHandle } from "../../src/runtime/http/node.js";
import { REPO } from "../helpers/seeds.js";
import { credentials, requestFor } from "../helpers/mock-requests.js";

type Fn = (...args: unknown[]) => unknown;
const servers: NodeServerHandle[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});
async function listen(handler: (r: Request) => Promise<Response>): Promise<string> {
  const s = await serveNode(handler, { port: 0, host: "127.0.0.1" });
  servers.push(s);
  return s.url;
}

describe("REST: --proxy in front of a server (webhooks.openapi.yaml)", () => {
  let spec: LoadedSpec;
  let service: HttpService;
  let good: string;
  let bad: string;
  const upstreamSeen: string[] = [];
  beforeAll(async () => {
    spec = await loadSpecForMock({ spec: path.join(REPO, "specs/webhooks.openapi.yaml") });
    service = spec.doc.services.find((s): s is HttpService => s.kind === "http")!;
    const mock = createRestMock(spec, { seed: 5 });
    good = await listen(async (r) => {
      upstreamSeen.push(`${r.method} ${new URL(r.url).pathname}`);
      return mock(r);
    });
    // Breaks the contract: an undeclared status for one path, a body of the wrong shape for the rest.
    bad = await listen(async (r) =>
      new URL(r.url).pathname.endsWith("/count")
        ? new Response("teapot", { status: 418, headers: { "content-type": "text/plain", "x-upstream": "bad" } })
        : Response.json({ unexpected: true, id: 12 }, { status: 200, headers: { "x-upstream": "bad" } }),
    );
  }, 60_000);

  async function proxy(target: string): Promise<{ url: string; log: ProxyLogEntry[] }> {
    const log: ProxyLogEntry[] = [];
    const url = await listen(createValidatingProxy(spec, { target, log: (e) => log.push(e) }));
    return { url, log };
  }

  it("a valid exchange: every operation through the generated client, no violations, answers as the upstream sent them", async () => {
    const { url, log } = await proxy(good);
    const client = (spec.module[spec.names.api(0).createClient] as Fn)({ baseUrl: url + mockBasePath(service), auth: credentials(service) }) as Record<string, Fn>;
    const direct = (spec.module[spec.names.api(0).createClient] as Fn)({ baseUrl: good + mockBasePath(service), auth: credentials(service) }) as Record<string, Fn>;
    const gen = new ValueGenerator(spec.doc);
    for (const op of service.operations) {
      const input = requestFor(spec, gen, op, 4);
      const [viaProxy, straight] = (await Promise.all([client[spec.names.operation(op).method]!(input), direct[spec.names.operation(op).method]!(input)])) as { status: number; body: unknown }[];
      expect(viaProxy!.status, op.name).toBe(straight!.status);
      expect(viaProxy!.body, op.name).toEqual(straight!.body);
    }
    expect(log).toHaveLength(service.operations.length);
    expect(log.flatMap((e) => e.violations)).toEqual([]);
    expect(log.map((e) => e.operation)).toEqual(service.operations.map((o) => o.name));
  });

  it("an invalid request is reported with its JSON pointers and still forwarded", async () => {
    const { url, log } = await proxy(good);
    const op = service.operations.find((o) => o.requestBody && o.method === "post")!;
    const before = upstreamSeen.length;
    const res = await fetch(url + mockBasePath(service) + op.path, { method: "POST", headers: { "content-type": "application/json", authorization: "Basic dTpw" }, body: JSON.stringify({ url: 5 }) });
    const upstreamAnswer = await fetch(good + mockBasePath(service) + op.path, { method: "POST", headers: { "content-type": "application/json", authorization: "Basic dTpw" }, body: JSON.stringify({ url: 5 }) });
    expect(res.status).toBe(upstreamAnswer.status);
    expect(upstreamSeen.length).toBe(before + 2);
    const entry = log.at(-1)!;
    expect(entry.operation).toBe(op.name);
    const v = entry.violations.find((x) => x.side === "request")!;
    expect(v.message).toMatch(/invalid request/);
    expect(v.issues!.length).toBeGreaterThan(0);
    for (const i of v.issues!) expect(i.path).toMatch(/^\//);
    // A path no operation has.
    await fetch(`${url}/nowhere`);
    expect(log.at(-1)!.violations).toEqual([expect.objectContaining({ side: "request", message: expect.stringMatching(/^404/) })]);
  });

  it("a server breaking the contract: undeclared status and wrong body reported, answers passed through byte for byte", async () => {
    const { url, log } = await proxy(bad);
    const count = service.operations.find((o) => o.path.endsWith("/count"))!;
    const res = await fetch(url + mockBasePath(service) + count.path, { headers: { authorization: "Basic dTpw" } });
    expect(res.status).toBe(418);
    expect(await res.text()).toBe("teapot");
    expect(res.headers.get("x-upstream")).toBe("bad");
    expect(log.at(-1)!.violations).toEqual([expect.objectContaining({ side: "response", message: expect.stringMatching(/status 418 is not declared/) })]);
    const list = service.operations.find((o) => o.method === "get" && !o.path.includes("{") && !o.path.endsWith("/count"))!;
    const listed = await fetch(url + mockBasePath(service) + list.path, { headers: { authorization: "Basic dTpw" } });
    expect(await listed.json()).toEqual({ unexpected: true, id: 12 });
    const v = log.at(-1)!.violations;
    expect(v).toHaveLength(1);
    expect(v[0]!.side).toBe("response");
    expect(v[0]!.issues!.length).toBeGreaterThan(0);
  });
});

describe("SOAP: --proxy in front of a server (partner.wsdl)", () => {
  let spec: LoadedSpec;
  let good: string;
  let bad: string;
  beforeAll(async () => {
    spec = await loadSpecForMock({ spec: path.join(REPO, "specs/partner.wsdl") });
    good = await listen(createSoapMock(spec, { seed: 1 }));
    // Answers every call with a loginResponse, whatever was asked.
    bad = await listen(async () =>
      new Response(`<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><p:loginResponse xmlns:p="urn:partner.api.example"><p:result/></p:loginResponse></s:Body></s:Envelope>`, { status: 200, headers: { "content-type": "text/xml; charset=utf-8" } }),
    );
  }, 60_000);

  const envelope = (body: string) => `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>${body}</s:Body></s:Envelope>`;
  const post = (url: string, body: string) => fetch(`${url}/services/Soap/u/17.0`, { method: "POST", headers: { "content-type": "text/xml; charset=utf-8", soapaction: '""' }, body: envelope(body) });

  it("checks requests with the generated server and answers with the generated decoders and validators", async () => {
    const log: ProxyLogEntry[] = [];
    const proxied = await listen(createValidatingProxy(spec, { target: good, log: (e) => log.push(e) }));
    const client = (spec.module.createPartnerServiceClient as Fn)({ endpoint: `${proxied}/services/Soap/u/17.0` }) as Record<string, Fn>;
    const answer = (await client.getServerTimestamp!({})) as { body: { result: { timestamp: string } } };
    expect(typeof answer.body.result.timestamp).toBe("string");
    expect(log.at(-1)).toMatchObject({ operation: "getServerTimestamp", status: 200, violations: [] });
    // retrieve's ids must be 15 or 18 characters.
    const res = await post(proxied, `<p:retrieve xmlns:p="urn:partner.api.example"><p:fieldList>Name</p:fieldList><p:sObjectType>Account</p:sObjectType><p:ids>tooShort</p:ids></p:retrieve>`);
    expect(res.status).toBe(500);
    expect(log.at(-1)!.violations).toEqual([expect.objectContaining({ side: "request", message: expect.stringMatching(/invalid request: \/ids\/0/) })]);
  });

  it("reports an answer that is not the operation's response element, and passes it through", async () => {
    const log: ProxyLogEntry[] = [];
    const proxied = await listen(createValidatingProxy(spec, { target: bad, log: (e) => log.push(e) }));
    const res = await post(proxied, `<p:getServerTimestamp xmlns:p="urn:partner.api.example"/>`);
    expect(await res.text()).toContain("loginResponse");
    expect(log.at(-1)!.violations).toEqual([expect.objectContaining({ side: "response", message: expect.stringMatching(/expected a \{urn:partner.api.example\}getServerTimestampResponse response element, got \{urn:partner.api.example\}loginResponse/) })]);
    await post(proxied, `<p:login xmlns:p="urn:partner.api.example"><p:username>u</p:username><p:password>p</p:password></p:login>`);
    // loginResponse with an empty result: the result's required fields are missing (the decoder says so).
    const v = log.at(-1)!.violations;
    expect(v).toEqual([expect.objectContaining({ side: "response", message: expect.stringMatching(/^response (does not decode|does not match login)/) })]);
  });
});

describe("specforge mock --proxy", () => {
  it("reports violations as JSON events on stderr", async () => {
    const bad = await listen(async () => Response.json({ wrong: true }, { status: 200 }));
    const child = spawn(process.execPath, [path.join(REPO, "bin/specforge.js"), "mock", "specs/webhooks.openapi.yaml", "--port", "0", "--proxy", bad, "--json"], { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    const listening = new Promise<{ url: string; proxy: string }>((resolve, reject) => {
      child.stderr.on("data", (d: Buffer) => {
        stderr += d.toString();
        const line = stderr.split("\n").find((l) => l.includes('"listening"'));
        if (line) resolve(JSON.parse(line) as { url: string; proxy: string });
      });
      child.on("exit", () => reject(new Error(`exited: ${stderr}`)));
    });
    const { url, proxy } = await listening;
    expect(proxy).toBe(bad);
    const res = await fetch(`${url}/api/v2/webhooks/count`, { headers: { authorization: "Basic dTpw" } });
    expect(await res.json()).toEqual({ wrong: true });
    await new Promise((r) => setTimeout(r, 100));
    const events = stderr.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as { event: string; side?: string; operation?: string });
    expect(events).toContainEqual(expect.objectContaining({ event: "violation", side: "response", operation: "countWebhooks" }));
    const exited = new Promise<number | null>((r) => child.once("exit", r));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 60_000);
});
