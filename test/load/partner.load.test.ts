/**
 * Load on the partner SOAP emulator through the generated client: 20 concurrent clients (each with its own session)
 * × 50 operations (25 creates, then 25 updates of what it created). Afterwards every acknowledged write is there
 * with its last value, nothing is duplicated, and the heap has settled.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startPartnerEmulator, type RunningPartnerEmulator } from "../../examples/partner/emulator.js";
import { createPartnerServiceClient, type PartnerServiceClient } from "../../generated/partner/index.js";
import { ADMIN, field, sobject } from "../examples/partner/helpers.js";
import { CLIENTS, OPERATIONS, runClients, SETTLED_BOUND_BYTES, settledHeap } from "./helpers.js";

let emulator: RunningPartnerEmulator;
beforeAll(async () => {
  emulator = await startPartnerEmulator({ onError: () => undefined });
});
afterAll(async () => emulator?.close());

async function session(): Promise<{ client: PartnerServiceClient; headers: { SessionHeader: { sessionId: string } } }> {
  const client = createPartnerServiceClient({ endpoint: emulator.endpoint, timeoutMs: 10_000 });
  const { body } = await client.login(ADMIN);
  client.setEndpoint(body.result.serverUrl!);
  return { client, headers: { SessionHeader: { sessionId: body.result.sessionId! } } };
}

it("20 clients x 50 creates/updates: every acknowledged write is there once, with its last value", async () => {
  const before = await settledHeap();
  const acknowledged = new Map<string, { name: string; phone: string }>();
  await runClients(CLIENTS, async (c) => {
    const { client, headers } = await session();
    const mine: string[] = [];
    for (let i = 0; i < OPERATIONS / 2; i++) {
      const name = `load-${c}-${i}`;
      const r = await client.create({ sObjects: [sobject("Account", { Name: name, Phone: "0" })] }, { headers });
      const result = r.body.result![0]!;
      expect(result.success).toBe(true);
      acknowledged.set(result.id!, { name, phone: "0" });
      mine.push(result.id!);
    }
    for (const [i, id] of mine.entries()) {
      const phone = `${c}-${i}-updated`;
      const r = await client.update({ sObjects: [sobject("Account", { Phone: phone }, id)] }, { headers });
      expect(r.body.result![0]!.success).toBe(true);
      acknowledged.set(id, { name: `load-${c}-${i}`, phone });
    }
  });
  expect(acknowledged.size).toBe(CLIENTS * (OPERATIONS / 2));

  const { client, headers } = await session();
  const opts = { headers: { ...headers, QueryOptions: { batchSize: 2000 } } };
  let page = await client.query({ queryString: "SELECT Id, Name, Phone FROM Account WHERE Name LIKE 'load-%'" }, opts);
  const rows = [...(page.body.result.records ?? [])];
  while (!page.body.result.done) {
    page = await client.queryMore({ queryLocator: page.body.result.queryLocator! }, opts);
    rows.push(...(page.body.result.records ?? []));
  }
  const names = rows.map((r) => String(field(r, "Name")));
  expect(new Set(names).size).toBe(names.length); // nothing duplicated
  expect(rows).toHaveLength(acknowledged.size); // nothing lost, nothing extra
  for (const r of rows) expect({ name: field(r, "Name"), phone: field(r, "Phone") }).toEqual(acknowledged.get(r!.Id!));

  expect((await settledHeap()) - before).toBeLessThan(SETTLED_BOUND_BYTES);
});
