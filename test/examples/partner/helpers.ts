import { createPartnerServiceClient, type PartnerServiceClient, type SObject } from "../../../generated/partner/index.js";
import { startPartnerEmulator, type RunningPartnerEmulator } from "../../../examples/partner/emulator.js";
import { SOBJECT_NS } from "../../../examples/partner/sobject.js";
import { SoapFaultError } from "../../../src/runtime/index.js";

export const ADMIN = { username: "admin@example.com", password: "Passw0rd!" };

export interface Session {
  readonly emulator: RunningPartnerEmulator;
  readonly client: PartnerServiceClient;
  readonly sessionId: string;
  readonly userId: string;
  /** The SessionHeader every call after login sends. */
  readonly headers: { SessionHeader: { sessionId: string } };
}

/** Start an emulator on a free loopback port and log in as the fixture's admin through the generated client. */
export async function loggedIn(): Promise<Session> {
  const emulator = await startPartnerEmulator({ onError: () => undefined });
  const client = createPartnerServiceClient({ endpoint: emulator.endpoint, timeoutMs: 10_000 });
  const { body } = await client.login(ADMIN);
  client.setEndpoint(body.result.serverUrl!);
  return { emulator, client, sessionId: body.result.sessionId!, userId: body.result.userId!, headers: { SessionHeader: { sessionId: body.result.sessionId! } } };
}

/** An sObject for a write: type, optional Id, fields as open content in the sobject namespace. */
export function sobject(type: string, fields: Record<string, string | number | boolean | null>, id: string | null = null, fieldsToNull?: string[]): SObject {
  return {
    type,
    Id: id,
    ...(fieldsToNull ? { fieldsToNull } : {}),
    $any: Object.entries(fields).map(([name, value]) => ({ ns: SOBJECT_NS, name, value })),
  };
}

/** A record's field value from a query result (open content), by name. */
export function field(record: SObject | null | undefined, name: string): unknown {
  return record?.$any?.find((e) => e.name === name)?.value;
}

/** The SoapFaultError a call rejects with (fails the test when it resolves). */
export async function faultOf(call: Promise<unknown>): Promise<SoapFaultError> {
  try {
    await call;
  } catch (e) {
    if (e instanceof SoapFaultError) return e;
    throw e;
  }
  throw new Error("expected a SOAP fault, the call succeeded");
}
