import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import soap from "soap";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPartnerServiceClient, type PartnerServiceClient } from "../../../generated/partner/index.js";
import { SoapFaultError } from "../../../src/runtime/index.js";

/**
 * The generated client against node-soap's server (soap.listen on a node:http server on loopback) with a small
 * implementation of a few partner operations: an independent peer writing the responses and faults we decode.
 */
const WSDL = readFileSync(path.resolve(import.meta.dirname, "../../../specs/partner.wsdl"), "utf8");
const PATH = "/services/Soap/u/17.0";
const SESSION = "node-soap-session";

let server: http.Server;
let client: PartnerServiceClient;
const seenHeaders: unknown[] = [];

/**
 * node-soap writes a null as xsi:nil without declaring the xsi prefix (not namespace-well-formed XML, which our
 * parser rightly refuses), so the implementation spells nil out with the declaration itself.
 */
const NIL = { attributes: { "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance", "xsi:nil": "true" } };

function faultDetail(code: string, message: string): string {
  return `<fns:fault xmlns:fns="urn:fault.api.example"><fns:exceptionCode>${code}</fns:exceptionCode><fns:exceptionMessage>${message}</fns:exceptionMessage></fns:fault>`;
}

const service = {
  PartnerService: {
    Soap: {
      login(args: { username: string; password: string }) {
        if (args.password !== "secret") {
          throw { Fault: { faultcode: "soap:Client", faultstring: "INVALID_LOGIN: bad password", detail: { $xml: faultDetail("INVALID_LOGIN", "bad password") } } };
        }
        return {
          result: {
            metadataServerUrl: NIL, passwordExpired: false, sandbox: false, serverUrl: "http://elsewhere.invalid/", sessionId: SESSION,
            userId: "005000000000001AAA",
          },
        };
      },
      getServerTimestamp(_args: unknown, _cb: unknown, headers: unknown) {
        seenHeaders.push(headers);
        return { result: { timestamp: "2024-05-06T07:08:09.000Z" } };
      },
      query() {
        return {
          result: {
            done: true,
            queryLocator: NIL,
            // node-soap would write an sObject's children in the parent's (partner) namespace; the schema puts them in
            // the sobject namespace, so the implementation names them with the envelope's ens prefix.
            records: [
              { "ens:type": "Account", "ens:Id": "001000000000001AAA", "ens:Name": "Acme" },
              { "ens:type": "Account", "ens:Id": "001000000000002AAA", "ens:Name": "Globex" },
            ],
            size: 2,
          },
        };
      },
    },
  },
};

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  soap.listen(server, PATH, service, WSDL);
  const { port } = server.address() as AddressInfo;
  client = createPartnerServiceClient({ endpoint: `http://127.0.0.1:${port}${PATH}`, timeoutMs: 10_000 });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("generated client against a node-soap server", () => {
  it("logs in and decodes the LoginResult (nil values included)", async () => {
    const { body } = await client.login({ username: "u", password: "secret" });
    expect(body.result).toMatchObject({ sessionId: SESSION, passwordExpired: false, sandbox: false, userId: "005000000000001AAA" });
  });

  it("sends typed request headers that node-soap reads", async () => {
    const { body } = await client.getServerTimestamp({}, { headers: { SessionHeader: { sessionId: SESSION }, CallOptions: { client: "tests", defaultNamespace: null } } });
    expect(body.result.timestamp).toBe("2024-05-06T07:08:09.000Z");
    expect(seenHeaders.at(-1)).toMatchObject({ SessionHeader: { sessionId: SESSION }, CallOptions: { client: "tests" } });
  });

  it("decodes a query result with several records", async () => {
    const { body } = await client.query({ queryString: "SELECT Id FROM Account" }, { headers: { SessionHeader: { sessionId: SESSION } } });
    expect(body.result.size).toBe(2);
    expect(body.result.records?.map((r) => r?.Id)).toEqual(["001000000000001AAA", "001000000000002AAA"]);
    expect(body.result.records?.map((r) => r?.$any)).toEqual([
      [{ ns: "urn:sobject.api.example", name: "Name", value: "Acme" }],
      [{ ns: "urn:sobject.api.example", name: "Name", value: "Globex" }],
    ]);
  });

  it("turns node-soap's fault into a SoapFaultError with the decoded detail", async () => {
    const error = await client.login({ username: "u", password: "wrong" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SoapFaultError);
    const fault = error as SoapFaultError;
    expect(fault.message).toBe("INVALID_LOGIN: bad password");
    expect(fault.code).toEqual({ ns: "http://schemas.xmlsoap.org/soap/envelope/", local: "Client" });
    expect(fault.fault).toBe("ApiFault");
    expect(fault.detail).toMatchObject({ exceptionCode: "INVALID_LOGIN", exceptionMessage: "bad password" });
  });
});
