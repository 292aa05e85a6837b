/**
 * `specforge mock` for WSDL (issue 30) over real HTTP on 127.0.0.1, on the seed partner.wsdl and the real Salesforce
 * partner WSDL (v40) from the corpus:
 * - every operation is called once through the generated SOAP client (SOAP 1.1, and 1.2 by media type) with a
 *   generated valid input, and every answer passes the generated validator of the output element;
 * - node-soap clients built from the WSDL call every operation and get answers that node-soap parses and that
 *   libxml2 (`xmllint --schema`, the WSDL's own schemas) accepts;
 * - an invalid request gets a Client fault (HTTP 500 in SOAP 1.1, 400 in SOAP 1.2) naming what failed;
 * - `Prefer: fault=<name>` answers with the declared typed fault, its detail valid.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import soap from "soap";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BoundOperation } from "../../src/emitters/soap-client/bound-operations.js";
import { elementCodecNames } from "../../src/emitters/xml/element-names.js";
import { loadSpecForMock, type LoadedSpec } from "../../src/mock/load.js";
import type { MockLogEntry } from "../../src/mock/rest.js";
import { bodyValue, createSoapMock, elementValue, mockedSoapOperations, soapServicePaths } from "../../src/mock/soap.js";
import { ValueGenerator } from "../../src/mock/values.js";
import { clientMethodName } from "../../src/naming/property-name.js";
import { serveNode, type NodeServerHandle } from "../../src/runtime/http/node.js";
import { REPO, SHARED } from "../helpers/seeds.js";
import { bodyPayload, wsdlSchemaDriver, xmllintFailures } from "./helpers/wsdl-xmllint.js";

type Fn = (...args: unknown[]) => unknown;
type Client = Record<string, Fn>;

const SPECS = {
  partner: path.join(REPO, "specs/partner.wsdl"),
  salesforce: path.join(SHARED, "corpus/wsdl/sf-partner-v40.wsdl"),
};

interface Running {
  spec: LoadedSpec;
  url: string;
  endpoint: string;
  log: MockLogEntry[];
  server: NodeServerHandle;
  gen: ValueGenerator;
}

const running = new Map<keyof typeof SPECS, Running>();

beforeAll(async () => {
  for (const [key, file] of Object.entries(SPECS) as [keyof typeof SPECS, string][]) {
    const spec = await loadSpecForMock({ spec: file, cwd: REPO });
    const log: MockLogEntry[] = [];
    const server = await serveNode(createSoapMock(spec, { seed: 7, log: (e) => log.push(e) }), { port: 0, host: "127.0.0.1" });
    const bound = mockedSoapOperations(spec.doc)[0]!.service;
    running.set(key, { spec, url: server.url, endpoint: `${server.url}${soapServicePaths(bound)[0]}`, log, server, gen: new ValueGenerator(spec.doc, { int64: spec.int64, dates: spec.dates }) });
  }
}, 120_000);

afterAll(async () => {
  for (const r of running.values()) await r.server.close();
});

function generatedClient(r: Running, soapVersion: "1.1" | "1.2"): Client {
  const bound = mockedSoapOperations(r.spec.doc)[0]!.service;
  const create = r.spec.module[r.spec.names.soap(bound.index).createClient] as Fn;
  return create({ endpoint: r.endpoint, soapVersion }) as Client;
}

function outputValidator(r: Running, op: BoundOperation): Fn | undefined {
  if (op.output?.kind !== "element" || op.output.element.type.kind !== "ref") return undefined;
  return r.spec.module[r.spec.names.derived(op.output.element.type.id, "validate")] as Fn | undefined;
}

/** The request element of `op` as XML, from a generated valid value (node-soap sends it as given with `_xml`). */
function inputXml(r: Running, op: BoundOperation, seed: string): string {
  if (op.input.kind !== "element") throw new Error(`${op.name} is rpc style`);
  const el = op.input.element;
  const encode = r.spec.module[elementCodecNames(r.spec.doc).get(el.id)!.encode] as Fn;
  return encode(elementValue(r.spec, r.gen, el, seed).value) as string;
}

describe.each(Object.keys(SPECS) as (keyof typeof SPECS)[])("SOAP mock of %s", (key) => {
  for (const version of ["1.1", "1.2"] as const) {
    it(`answers every operation through the generated client (SOAP ${version}), each answer valid`, async () => {
      const r = running.get(key)!;
      const client = generatedClient(r, version);
      const ops = mockedSoapOperations(r.spec.doc);
      expect(ops.length).toBeGreaterThan(key === "partner" ? 25 : 50);
      let validated = 0;
      for (const { operation: op } of ops) {
        const input = bodyValue(r.spec, r.gen, op.input, `in:${op.name}`).value;
        const answer = (await client[clientMethodName(op.name, ["endpoint", "setEndpoint"])]!(input)) as { body: unknown };
        const validate = outputValidator(r, op);
        if (op.output === undefined) continue;
        expect(answer.body, op.name).toBeDefined();
        if (validate) {
          expect(validate(answer.body), op.name).toEqual([]);
          validated++;
        }
      }
      expect(validated).toBe(ops.filter(({ operation }) => outputValidator(r, operation) !== undefined).length);
      expect(validated).toBeGreaterThan(ops.length * 0.9);
      console.log(`${key}: ${ops.length} operations answered over SOAP ${version}, ${validated} answers checked by the generated validator`);
    }, 120_000);
  }

  it("node-soap clients get an answer to every operation that node-soap parses and xmllint accepts", async () => {
    const r = running.get(key)!;
    const client = (await soap.createClientAsync(SPECS[key], { endpoint: r.endpoint })) as unknown as Client;
    const ops = mockedSoapOperations(r.spec.doc);
    const payloads: string[] = [];
    for (const { operation: op } of ops) {
      const [result, raw] = (await client[`${op.name}Async`]!({ _xml: inputXml(r, op, `ns:${op.name}`) })) as [unknown, string];
      expect(raw, op.name).toMatch(/<(\w+:)?Envelope\b/);
      // node-soap parsed the answer (an empty response element is null to it) and it is the operation's.
      if (op.output?.kind === "element") {
        expect(raw, op.name).toMatch(new RegExp(`<(\\w+:)?${op.output.element.name.local}\\b`));
        if (!new RegExp(`<(\\w+:)?${op.output.element.name.local}\\b[^>]*/>`).test(raw)) expect(result, op.name).toBeTruthy();
      }
      payloads.push(bodyPayload(raw));
    }
    const schema = wsdlSchemaDriver(SPECS[key]);
    expect(xmllintFailures(schema, payloads).slice(0, 3)).toEqual([]);
    // The judge can fail: the same payloads with an undeclared element inserted are refused.
    const broken = payloads.filter((p) => !/^<[^>]*\/>$/.test(p)).slice(0, 3).map((p) => p.replace(/^(<[^>]*[^/]>)/, "$1<notInTheSchema/>"));
    expect(xmllintFailures(schema, broken)).toHaveLength(3);
    console.log(`${key}: node-soap got ${payloads.length} answers, all valid under xmllint`);
  }, 180_000);

  it("node-soap with SOAP 1.2 headers and its own serialization of arguments", async () => {
    const r = running.get(key)!;
    const client = (await soap.createClientAsync(SPECS[key], { endpoint: r.endpoint, forceSoap12Headers: true })) as unknown as Client;
    const [result, raw] = (await client.loginAsync!({ username: "user@example.com", password: "secret" })) as [Record<string, unknown>, string];
    expect(raw).toContain("http://www.w3.org/2003/05/soap-envelope");
    expect(result.result).toBeTruthy();
    expect(xmllintFailures(wsdlSchemaDriver(SPECS[key]), [bodyPayload(raw)])).toEqual([]);
  }, 60_000);

  it("an invalid request is a Client fault naming what failed (500 in SOAP 1.1, 400 in 1.2)", async () => {
    const r = running.get(key)!;
    const ns = r.spec.doc.services.find((s) => s.kind === "soap")!.targetNamespace;
    // retrieve's ids are IDs of 15 or 18 characters: "tooShort" breaks the pattern / length facets.
    const body = `<p:retrieve xmlns:p="${ns}"><p:fieldList>Name</p:fieldList><p:sObjectType>Account</p:sObjectType><p:ids>tooShort</p:ids></p:retrieve>`;
    const v11 = await fetch(r.endpoint, {
      method: "POST",
      headers: { "content-type": "text/xml; charset=utf-8", soapaction: '""' },
      body: `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>${body}</s:Body></s:Envelope>`,
    });
    const text11 = await v11.text();
    expect(v11.status).toBe(500);
    expect(text11).toMatch(/<faultcode>[\w.-]*:?Client<\/faultcode>/);
    expect(text11).toContain("invalid request");
    expect(text11).toContain("/ids/0");
    const v12 = await fetch(r.endpoint, {
      method: "POST",
      headers: { "content-type": "application/soap+xml; charset=utf-8" },
      body: `<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Body>${body}</s:Body></s:Envelope>`,
    });
    expect(v12.status).toBe(400);
    expect(await v12.text()).toMatch(/Sender/);
    // node-soap sees the fault as an error with the parsed envelope.
    const client = (await soap.createClientAsync(SPECS[key], { endpoint: r.endpoint })) as unknown as Client;
    const error = (await (client.retrieveAsync!({ _xml: body }) as Promise<unknown>).catch((e: unknown) => e)) as { root?: { Envelope: { Body: { Fault: { faultcode: string } } } } };
    expect(error.root?.Envelope.Body.Fault.faultcode).toMatch(/Client$/);
  }, 60_000);

  it("Prefer: fault=<name> answers with the declared fault, its detail valid", async () => {
    const r = running.get(key)!;
    const op = mockedSoapOperations(r.spec.doc).find(({ operation }) => operation.name === "login")!.operation;
    const loginFault = op.faults.find((f) => f.name === "LoginFault")!;
    expect(loginFault).toBeDefined();
    const bound = mockedSoapOperations(r.spec.doc)[0]!.service;
    const create = r.spec.module[r.spec.names.soap(bound.index).createClient] as Fn;
    const client = create({ endpoint: r.endpoint, httpHeaders: { prefer: "fault=LoginFault" } }) as Client;
    const error = (await (client.login!({ username: "u", password: "p" }) as Promise<unknown>).catch((e: unknown) => e)) as { name: string; fault?: string; detail?: unknown; codeText: string };
    expect(error.name).toBe("SoapFaultError");
    expect(error.codeText).toMatch(/(^|})Server$/);
    expect(error.fault).toBe("LoginFault");
    const validate = r.spec.module[r.spec.names.derived((loginFault.element.type as { id: string }).id, "validate")] as Fn;
    expect(error.detail).toBeDefined();
    expect(validate(error.detail)).toEqual([]);
    // A fault the operation does not declare is a Server fault saying which it declares.
    const other = create({ endpoint: r.endpoint, httpHeaders: { prefer: "fault=NoSuchFault" } }) as Client;
    const e2 = (await (other.login!({ username: "u", password: "p" }) as Promise<unknown>).catch((e: unknown) => e)) as Error;
    expect(e2.message).toContain("declares no fault");
    expect(e2.message).toContain("LoginFault");
  }, 60_000);

  it("logs every request with its operation", () => {
    const r = running.get(key)!;
    const ops = new Set(mockedSoapOperations(r.spec.doc).map((o) => o.operation.name));
    const answered = new Set(r.log.filter((e) => e.status === 200).map((e) => e.operation));
    for (const op of ops) expect(answered.has(op), op).toBe(true);
  });
});

describe("specforge mock on a WSDL", () => {
  it("listens at the port's address, serves ?wsdl pointed at itself, logs each request and stops on SIGTERM", async () => {
    const child = spawn(process.execPath, [path.join(REPO, "bin/specforge.js"), "mock", "specs/partner.wsdl", "--port", "0", "--json"], { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    const listening = new Promise<{ url: string; endpoints: string[]; operations: number }>((resolve, reject) => {
      child.stderr.on("data", (d: Buffer) => {
        stderr += d.toString();
        const line = stderr.split("\n").find((l) => l.includes('"listening"'));
        if (line) resolve(JSON.parse(line) as { url: string; endpoints: string[]; operations: number });
      });
      child.on("exit", () => reject(new Error(`exited: ${stderr}`)));
    });
    const { url, endpoints, operations } = await listening;
    expect(operations).toBe(30);
    expect(endpoints).toHaveLength(1);
    const endpoint = endpoints[0]!;
    expect(endpoint.startsWith(url)).toBe(true);
    const wsdl = await (await fetch(`${endpoint}?wsdl`)).text();
    expect(wsdl).toContain(`location="${endpoint}"`);
    // node-soap reads the served WSDL and calls the address it names.
    const client = (await soap.createClientAsync(`${endpoint}?wsdl`)) as unknown as Client;
    const [result] = (await client.getServerTimestampAsync!({})) as [{ result: { timestamp: unknown } }];
    // node-soap reads the xsd:dateTime into a Date.
    expect(result.result.timestamp).toBeInstanceOf(Date);
    await new Promise((r) => setTimeout(r, 100));
    const request = stderr.split("\n").filter((l) => l.includes('"request"')).map((l) => JSON.parse(l) as MockLogEntry);
    expect(request).toContainEqual(expect.objectContaining({ method: "POST", status: 200, operation: "getServerTimestamp", source: "generated" }));
    const exited = new Promise<number | null>((r) => child.once("exit", r));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 60_000);
});
