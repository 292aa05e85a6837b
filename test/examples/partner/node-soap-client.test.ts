import path from "node:path";
import soap from "soap";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPartnerEmulator, type RunningPartnerEmulator } from "../../../examples/partner/emulator.js";

/**
 * node-soap, built from specs/partner.wsdl, as a real client of the emulator: everything goes over loopback HTTP and
 * through node-soap's own envelope writer and parser, so this checks our server against an independent peer.
 */
const WSDL = path.resolve(import.meta.dirname, "../../../specs/partner.wsdl");
const NS = "urn:partner.api.example";

let emulator: RunningPartnerEmulator;
let client: soap.Client;

beforeAll(async () => {
  emulator = await startPartnerEmulator({ onError: () => undefined });
  client = await soap.createClientAsync(WSDL, { endpoint: emulator.endpoint });
});
afterAll(() => emulator.close());

/** node-soap rejects with an error whose `root` is the parsed fault envelope. */
async function nodeSoapFault(call: Promise<unknown>): Promise<{ faultcode: string; faultstring: string; detail: Record<string, Record<string, string>> }> {
  try {
    await call;
  } catch (e) {
    const fault = (e as { root?: { Envelope?: { Body?: { Fault?: unknown } } } }).root?.Envelope?.Body?.Fault;
    if (fault) return fault as never;
    throw e;
  }
  throw new Error("expected a fault");
}

describe("node-soap as a client of the emulator", () => {
  it("reads an INVALID_LOGIN fault", async () => {
    const fault = await nodeSoapFault(client.loginAsync({ username: "admin@example.com", password: "wrong" }));
    expect(fault.faultcode).toMatch(/^\w+:INVALID_LOGIN$/);
    expect(fault.detail.LoginFault).toMatchObject({ exceptionCode: "INVALID_LOGIN" });
  });

  it("reads an INVALID_SESSION_ID fault", async () => {
    const fault = await nodeSoapFault(client.getUserInfoAsync({}));
    expect(fault.faultcode).toMatch(/:INVALID_SESSION_ID$/);
    expect(fault.detail.fault).toMatchObject({ exceptionCode: "INVALID_SESSION_ID" });
  });

  it("logs in, creates, queries, pages with queryMore, updates, deletes and undeletes", async () => {
    const [login] = await client.loginAsync({ username: "admin@example.com", password: "Passw0rd!" });
    expect(login.result.serverUrl).toContain(`127.0.0.1:${emulator.port}`);
    client.setEndpoint(login.result.serverUrl);
    client.addSoapHeader({ SessionHeader: { sessionId: login.result.sessionId } }, "", "tns", NS);

    const [created] = await client.createAsync({
      sObjects: [
        { type: "Account", Id: null, Name: "node-soap one", Industry: "Energy" },
        { type: "Account", Id: null, Name: "node-soap two" },
      ],
    });
    const ids = created.result.map((r: { id: string; success: boolean }) => (expect(r.success).toBe(true), r.id));
    expect(ids).toHaveLength(2);

    client.addSoapHeader({ QueryOptions: { batchSize: 2 } }, "", "tns", NS);
    const [page1] = await client.queryAsync({ queryString: "SELECT Id, Name FROM Account ORDER BY Name" });
    expect(page1.result.done).toBe(false);
    expect(page1.result.size).toBe(6);
    const names: string[] = page1.result.records.map((r: { Name: string }) => r.Name);
    let locator: string | null = page1.result.queryLocator;
    for (let i = 0; locator && i < 10; i++) {
      const [more] = await client.queryMoreAsync({ queryLocator: locator });
      const records = Array.isArray(more.result.records) ? more.result.records : [more.result.records];
      names.push(...records.map((r: { Name: string }) => r.Name));
      locator = more.result.done ? null : more.result.queryLocator;
    }
    expect(names).toEqual(["Acme Corporation", "Globex", "Initech", "node-soap one", "node-soap two", "Umbrella Holdings"]);

    const [updated] = await client.updateAsync({ sObjects: [{ type: "Account", Id: ids[0], Name: "node-soap renamed" }] });
    expect(updated.result[0].success).toBe(true);

    const [deleted] = await client.deleteAsync({ ids: [ids[1]] });
    expect(deleted.result[0]).toMatchObject({ success: true, id: ids[1] });
    const [gone] = await client.queryAsync({ queryString: `SELECT Name FROM Account WHERE Name LIKE 'node-soap%'` });
    expect(gone.result.size).toBe(1);

    const [restored] = await client.undeleteAsync({ ids: [ids[1]] });
    expect(restored.result[0]).toMatchObject({ success: true, id: ids[1] });
    const [back] = await client.queryAsync({ queryString: `SELECT Name FROM Account WHERE Name LIKE 'node-soap%' ORDER BY Name` });
    expect(back.result.records.map((r: { Name: string }) => r.Name)).toEqual(["node-soap renamed", "node-soap two"]);
  });

  it("reads an ApiQueryFault's row and column", async () => {
    const fault = await nodeSoapFault(client.queryAsync({ queryString: "SELECT Name FROM Account WHERE" }));
    expect(fault.faultcode).toMatch(/:MALFORMED_QUERY$/);
    expect(fault.detail.ApiQueryFault).toMatchObject({ exceptionCode: "MALFORMED_QUERY", row: "1", column: "31" });
  });
});
