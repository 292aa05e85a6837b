/**
 * Generated SOAP servers (issue 32, item 5): handler keys go through the naming rule (an operation named `then`,
 * `constructor`, `__proto__` or `new` has its handler under `then$`, ...), and operations sharing a request element
 * are dispatched by their action (SOAPAction in SOAP 1.1, the content type's action parameter in 1.2) — or, when
 * their actions are the same, reported by a located warning at generation time.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeSpecHost } from "../../../src/parsers/host.js";
import { generateSpec, type SpecOutput } from "../../../src/pipeline/generate-files.js";
import { serveNode, type NodeServerHandle } from "../../../src/runtime/http/node.js";
import { buildSoapEnvelope, parseSoapEnvelope } from "../../../src/runtime/index.js";
import { typecheckFiles } from "../../helpers/typecheck.js";

const SPEC = path.join(import.meta.dirname, "specs", "dispatch.wsdl");
let out: SpecOutput;
let m: Record<string, any>;
let root: string;
const servers: NodeServerHandle[] = [];

beforeAll(async () => {
  out = generateSpec({ file: SPEC, display: "dispatch.wsdl" }, nodeSpecHost({}));
  root = mkdtempSync(path.join(tmpdir(), "specforge-dispatch-"));
  for (const f of out.files) {
    mkdirSync(path.dirname(path.join(root, f.path)), { recursive: true });
    writeFileSync(path.join(root, f.path), f.content);
  }
  m = (await import(path.join(root, out.dir, "index.ts"))) as Record<string, any>;
});

afterAll(async () => {
  for (const s of servers) await s.close();
  rmSync(root, { recursive: true, force: true });
});

async function listen(handler: (request: Request) => Promise<Response>): Promise<string> {
  const server = await serveNode(handler, { onError: () => undefined });
  servers.push(server);
  return `${server.url}/soap`;
}

const echo = (name: string) => (input: unknown) => ({ text: `${name}:${typeof input === "string" ? input : (input as { text: string }).text}` });

describe("SOAP handler names", () => {
  it("handlers of then/constructor/__proto__/new are keyed then$/constructor$/__proto__$/new$, and a class can implement them", () => {
    const server = out.files.find((f) => f.path.endsWith("/server.ts"))!.content;
    for (const name of ["then", "constructor", "__proto__", "new"]) expect(server).toContain(`\n  ${name}$(\n`);
    // A class implementing the handlers interface (a method named `constructor` would be the class's constructor, an
    // interface member `new(...)` a construct signature), and a handlers object that `await` hands back as is.
    const files = new Map(out.files.map((f) => [f.path, f.content]));
    files.set(
      `${out.dir}/impl.ts`,
      [
        'import { createSvc11Server, type Svc11Handlers } from "./index.js";',
        "class Impl implements Svc11Handlers {",
        '  then$(input: string) { return { text: `then:${input}` }; }',
        '  constructor$(input: string) { return { text: `constructor:${input}` }; }',
        '  __proto__$(input: string) { return { text: `proto:${input}` }; }',
        '  new$(input: string) { return { text: `new:${input}` }; }',
        '  getA(input: { text: string }) { return { text: `getA:${input.text}` }; }',
        '  getB(input: { text: string }) { return { text: `getB:${input.text}` }; }',
        '  dupX(input: string) { return { text: `dupX:${input}` }; }',
        '  dupY(input: string) { return { text: `dupY:${input}` }; }',
        "}",
        "export async function load(): Promise<Svc11Handlers> { return new Impl(); }",
        "export const server = load().then((h) => createSvc11Server(h));",
      ].join("\n"),
    );
    expect(typecheckFiles(files)).toEqual([]);
  });

  it("a handlers object is not a thenable, and each special-named operation reaches its own handler over loopback", async () => {
    const handlers = { then$: echo("then"), constructor$: echo("constructor"), __proto__$: echo("proto"), new$: echo("new") };
    expect(await (async () => handlers)()).toBe(handlers);
    const client = m.createSvc11Client({ endpoint: await listen(m.createSvc11Server(handlers)) });
    expect((await client.then$("a")).body).toEqual({ text: "then:a" });
    expect((await client.constructor("b")).body).toEqual({ text: "constructor:b" });
    expect((await client.__proto__$("c")).body).toEqual({ text: "proto:c" });
    expect((await client.new$("d")).body).toEqual({ text: "new:d" });
  });

  it("without a handler, a special-named operation is 'not implemented', never an inherited member", async () => {
    const client = m.createSvc11Client({ endpoint: await listen(m.createSvc11Server({})) });
    await expect(client.constructor("x")).rejects.toThrow("operation constructor is not implemented");
    await expect(client.__proto__$("x")).rejects.toThrow("operation __proto__ is not implemented");
  });
});

describe("operations sharing a request element", () => {
  const handlers = { getA: echo("getA"), getB: echo("getB"), dupX: echo("dupX"), dupY: echo("dupY") };

  it("SOAP 1.1: dispatched by SOAPAction (each operation of the generated client reaches its own handler)", async () => {
    const endpoint = await listen(m.createSvc11Server(handlers));
    const client = m.createSvc11Client({ endpoint });
    expect((await client.getA({ text: "1" })).body).toEqual({ text: "getA:1" });
    expect((await client.getB({ text: "2" })).body).toEqual({ text: "getB:2" });
    const body = buildSoapEnvelope({ version: "1.1", body: '<Req xmlns="urn:dispatch"><text>3</text></Req>' });
    const post = (headers: Record<string, string>) =>
      fetch(endpoint, { method: "POST", headers: { "content-type": "text/xml; charset=utf-8", ...headers }, body });
    const faultOf = async (r: Response) => parseSoapEnvelope(await r.text()).fault;
    expect(await faultOf(await post({}))).toMatchObject({ code: { local: "Client" }, string: expect.stringContaining("operations getA, getB all take a {urn:dispatch}Req element: the request's SOAPAction must say which") });
    expect(await faultOf(await post({ soapaction: '"urn:other"' }))).toMatchObject({ code: { local: "Client" }, string: expect.stringContaining('SOAPAction "urn:other" matches none of the operations') });
    const b = await post({ soapaction: '"urn:getB"' });
    expect(m.decodeResElement(parseSoapEnvelope(await b.text()).body[0]!)).toEqual({ text: "getB:3" });
  });

  it("SOAP 1.2: dispatched by the action parameter", async () => {
    const endpoint = await listen(m.createSvc12Server(handlers));
    const client = m.createSvc12Client({ endpoint });
    expect((await client.getA({ text: "1" })).body).toEqual({ text: "getA:1" });
    expect((await client.getB({ text: "2" })).body).toEqual({ text: "getB:2" });
    expect((await client.dupX("3")).body).toEqual({ text: "dupX:3" });
    expect((await client.dupY("4")).body).toEqual({ text: "dupY:4" });
    const body = buildSoapEnvelope({ version: "1.2", body: '<Req xmlns="urn:dispatch"><text>5</text></Req>' });
    const r = await fetch(endpoint, { method: "POST", headers: { "content-type": 'application/soap+xml; charset=utf-8; action="urn:getB"' }, body });
    expect(m.decodeResElement(parseSoapEnvelope(await r.text()).body[0]!)).toEqual({ text: "getB:5" });
  });

  it("the same element with the same action: a located warning at the unreachable operation", () => {
    expect(out.warnings).toEqual([
      {
        file: "dispatch.wsdl",
        line: 50,
        column: 5,
        detail: expect.stringContaining("SOAP operations dupX and dupY both take a {urn:dispatch}Dup request with the same soapAction \"urn:dup\""),
      },
    ]);
    expect(out.warnings[0]!.detail).toContain("dupY is unreachable");
  });
});
