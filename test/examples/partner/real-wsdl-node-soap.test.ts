import path from "node:path";
import soap from "soap";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPartnerEmulator, type RunningPartnerEmulator } from "../../../examples/partner/emulator.js";
import { SHARED } from "../../helpers/seeds.js";
import { ADMIN } from "./helpers.js";

/**
 * node-soap clients built from the real service's WSDLs (shared/corpus/wsdl/sf-partner-v13 and -v40) against the
 * emulator over loopback HTTP. node-soap leaves sObject.Id out of a create unless given, as the real clients do, so
 * this also covers the emulator's lenient reading of required + nillable elements.
 */
const CORPUS = path.join(SHARED, "corpus", "wsdl");
const TNS = "urn:partner.soap.sforce.com";

let emulator: RunningPartnerEmulator;
beforeAll(async () => {
  emulator = await startPartnerEmulator({ onError: () => undefined });
});
afterAll(() => emulator.close());

interface NodeSoapFault {
  faultcode: string;
  faultstring: string;
  detail: Record<string, Record<string, string>>;
}

/** node-soap rejects with an error whose `root` is the parsed fault envelope. */
async function nodeSoapFault(call: Promise<unknown>): Promise<NodeSoapFault> {
  try {
    await call;
  } catch (e) {
    const fault = (e as { root?: { Envelope?: { Body?: { Fault?: unknown } } } }).root?.Envelope?.Body?.Fault;
    if (fault) return fault as NodeSoapFault;
    throw e;
  }
  throw new Error("expected a fault");
}

const asList = <T>(x: T | T[] | undefined): T[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);

describe.each([
  { version: "13.0", wsdl: "sf-partner-v13.wsdl" },
  { version: "40.0", wsdl: "sf-partner-v40.wsdl" },
])("node-soap built from $wsdl", ({ version, wsdl }) => {
  let client: soap.Client;
  beforeAll(async () => {
    client = await soap.createClientAsync(path.join(CORPUS, wsdl), { endpoint: `${emulator.endpoint.replace("/17.0", `/${version}`)}` });
  });

  it("reads INVALID_LOGIN as a LoginFault detail in the real fault namespace", async () => {
    const fault = await nodeSoapFault(client.loginAsync({ username: ADMIN.username, password: "wrong" }));
    expect(fault.faultcode).toMatch(/^\w+:INVALID_LOGIN$/);
    expect(client.lastResponse).toContain('xmlns:fc="urn:fault.partner.soap.sforce.com"');
    expect(fault.detail.LoginFault).toMatchObject({ exceptionCode: "INVALID_LOGIN" });
  });

  it("reads INVALID_SESSION_ID as an UnexpectedErrorFault detail", async () => {
    const fault = await nodeSoapFault(client.getUserInfoAsync({}));
    expect(fault.faultcode).toMatch(/:INVALID_SESSION_ID$/);
    expect(fault.detail.UnexpectedErrorFault).toMatchObject({ exceptionCode: "INVALID_SESSION_ID" });
  });

  it("logs in, creates without Id, queries, pages with queryMore, updates and deletes", async () => {
    const [login] = await client.loginAsync(ADMIN);
    expect(login.result.serverUrl).toContain(`127.0.0.1:${emulator.port}/services/Soap/u/${version}/`);
    client.setEndpoint(login.result.serverUrl);
    client.clearSoapHeaders();
    client.addSoapHeader({ SessionHeader: { sessionId: login.result.sessionId } }, "", "tns", TNS);

    const tag = `node-soap v${version}`;
    const [created] = await client.createAsync({ sObjects: [1, 2, 3].map((n) => ({ type: "Account", Name: `${tag} ${n}` })) });
    // The request really left Id out (the strict server would have refused it).
    expect(client.lastRequest).not.toMatch(/:Id\b|<Id\b/);
    const ids = asList<{ id: string; success: boolean }>(created.result).map((r) => (expect(r.success).toBe(true), r.id));
    expect(ids).toHaveLength(3);

    client.addSoapHeader({ QueryOptions: { batchSize: 2 } }, "", "tns", TNS);
    const [page1] = await client.queryAsync({ queryString: `SELECT Id, Name FROM Account WHERE Name LIKE '${tag}%' ORDER BY Name` });
    expect(page1.result.done).toBe(false);
    expect(Number(page1.result.size)).toBe(3);
    const records = [...asList<{ Id: string | string[]; Name: string }>(page1.result.records)];
    let locator: string | null = page1.result.queryLocator;
    for (let i = 0; locator && i < 5; i++) {
      const [more] = await client.queryMoreAsync({ queryLocator: locator });
      records.push(...asList<{ Id: string | string[]; Name: string }>(more.result.records));
      locator = more.result.done ? null : more.result.queryLocator;
    }
    expect(records.map((r) => r.Name)).toEqual([`${tag} 1`, `${tag} 2`, `${tag} 3`]);
    // The response's sObject fields are in the client's own namespace (node-soap reads them under the ens prefix).
    expect(client.lastResponse).toContain('xmlns:ns3="urn:sobject.partner.soap.sforce.com"');

    const [updated] = await client.updateAsync({ sObjects: [{ type: "Account", Id: ids[0], Name: `${tag} renamed` }] });
    expect(asList<{ success: boolean }>(updated.result)[0]!.success).toBe(true);
    const [deleted] = await client.deleteAsync({ ids: [ids[1]] });
    expect(asList(deleted.result)[0]).toMatchObject({ success: true, id: ids[1] });

    const [after] = await client.queryAsync({ queryString: `SELECT Name FROM Account WHERE Name LIKE '${tag}%' ORDER BY Name` });
    expect(asList<{ Name: string }>(after.result.records).map((r) => r.Name)).toEqual([`${tag} 3`, `${tag} renamed`]);
  });
});
