import path from "node:path";
import soap from "soap";
import { beforeAll, describe, expect, it } from "vitest";
import * as p from "../../../generated/partner/index.js";
import { buildSoapEnvelope, parseSoapEnvelope } from "../../../src/runtime/index.js";

/**
 * node-soap (the `soap` package) as an independent implementation of the same WSDL, at codec level: it parses what we
 * encode, and we decode the requests its client writes (captured from a stubbed HTTP client, nothing is sent).
 */
const WSDL = path.resolve(import.meta.dirname, "../../../specs/partner.wsdl");
const ENS = "urn:sobject.api.example";

interface NodeSoapClient {
  wsdl: { xmlToObject(xml: string): { Body: Record<string, unknown> } };
  httpClient: unknown;
  [operation: string]: unknown;
}

let client: NodeSoapClient;
const captured: string[] = [];

beforeAll(async () => {
  client = (await soap.createClientAsync(WSDL)) as unknown as NodeSoapClient;
  // node-soap hands the finished envelope to its HTTP client synchronously; keep it instead of sending it.
  client.httpClient = { request: (_url: string, data: string) => captured.push(data), requestStream: () => undefined };
});

function nodeSoapRequest(operation: string, args: unknown): string {
  captured.length = 0;
  (client[operation] as (a: unknown, cb: () => void) => void)(args, () => undefined);
  expect(captured).toHaveLength(1);
  return captured[0]!;
}

describe("node-soap interop (codec level)", () => {
  it("node-soap parses our login and create requests", () => {
    const login = buildSoapEnvelope({ version: "1.1", body: p.encodeLoginElement({ username: "ann@example.com", password: "p<&>w" }) });
    expect(client.wsdl.xmlToObject(login).Body).toEqual({ login: { username: "ann@example.com", password: "p<&>w" } });

    const create = buildSoapEnvelope({
      version: "1.1",
      body: p.encodeCreateElement({
        sObjects: [
          { type: "Account", Id: null, $any: [{ ns: ENS, name: "Name", value: "Acme" }, { ns: ENS, name: "Phone", value: "555" }] },
          { type: "Contact", Id: null, $any: [{ ns: ENS, name: "LastName", value: "Lee" }] },
        ],
      }),
    });
    const parsed = client.wsdl.xmlToObject(create).Body as { create: { sObjects: Record<string, unknown>[] } };
    expect(parsed.create.sObjects.map((o) => ({ type: o.type, Name: o.Name, Phone: o.Phone, LastName: o.LastName }))).toEqual([
      { type: "Account", Name: "Acme", Phone: "555", LastName: undefined },
      { type: "Contact", Name: undefined, Phone: undefined, LastName: "Lee" },
    ]);
  });

  it("we decode node-soap's login and create requests", () => {
    const login = parseSoapEnvelope(nodeSoapRequest("login", { username: "ann@example.com", password: "p<&>w" }));
    const loginNode = login.body[0]!;
    expect(p.xmlElements[`{${loginNode.ns}}${loginNode.local}`]!.decode(loginNode)).toEqual({ username: "ann@example.com", password: "p<&>w" });

    const create = parseSoapEnvelope(nodeSoapRequest("create", { sObjects: [{ type: "Account", Id: null, Name: "Acme & Co", Phone: "555" }] }));
    expect(p.decodeCreateElement(create.body[0]!)).toEqual({
      sObjects: [{ type: "Account", Id: null, $any: [{ ns: ENS, name: "Name", value: "Acme & Co" }, { ns: ENS, name: "Phone", value: "555" }] }],
    });
  });

  it("node-soap reads our queryResponse", () => {
    const response = buildSoapEnvelope({
      version: "1.1",
      body: p.encodeQueryResponseElement({
        result: { done: true, queryLocator: null, size: 2, records: [
          { type: "Account", Id: "001000000000000AAA", $any: [{ ns: ENS, name: "Name", value: "Acme" }] },
          { type: "Account", Id: "001000000000001AAA", $any: [{ ns: ENS, name: "Name", value: "Beta" }] },
        ] },
      }),
    });
    const body = client.wsdl.xmlToObject(response).Body as { queryResponse: { result: { size: number; done: boolean; records: { Id: string; Name: string }[] } } };
    expect(body.queryResponse.result.size).toBe(2);
    expect(body.queryResponse.result.done).toBe(true);
    expect(body.queryResponse.result.records.map((r) => [r.Id, r.Name])).toEqual([["001000000000000AAA", "Acme"], ["001000000000001AAA", "Beta"]]);
  });
});
