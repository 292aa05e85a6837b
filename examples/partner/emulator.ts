import { readFileSync } from "node:fs";
import path from "node:path";
import { createPartnerServiceServer } from "../../generated/partner/index.js";
import { withCors, type CorsOptions } from "../../src/runtime/http/cors.js";
import { serveNode } from "../../src/runtime/http/node.js";
import { partnerHandlers } from "./handlers.js";
import { REAL_SERVICE_NAMESPACES } from "./namespaces.js";
import { withRealServiceFaults } from "./real-service-faults.js";
import { SERVICE_PATH } from "./session.js";
import { PartnerState, type EmulatorOptions } from "./state.js";

const here = path.dirname(new URL(import.meta.url).pathname);
const WSDL_FILE = path.resolve(here, "../../specs/partner.wsdl");
/** The WSDL's own soap:address, replaced by the emulator's address when the WSDL is served. */
const WSDL_ADDRESS = "http://127.0.0.1:8080/services/Soap/u/17.0";

export interface PartnerEmulator {
  readonly state: PartnerState;
  /** The web-standard handler (any path; GET ?wsdl serves the WSDL pointing back at the emulator). */
  readonly handler: (request: Request) => Promise<Response>;
}

export interface RunningPartnerEmulator extends PartnerEmulator {
  /** The service address, e.g. http://127.0.0.1:49152/services/Soap/u/17.0 */
  readonly endpoint: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * The emulator on the generated server. sendEmail is validated per message by the emulator itself (see email.ts).
 * It also answers clients built from the real service's WSDLs (see namespaces.ts).
 */
export function createPartnerEmulator(options: EmulatorOptions & { onError?: (error: unknown, operation: string) => void } = {}): PartnerEmulator {
  const state = new PartnerState(options);
  const wsdl = readFileSync(WSDL_FILE, "utf8");
  const handler = createPartnerServiceServer(withRealServiceFaults(partnerHandlers(state)), {
    wsdl: (request) => wsdl.replace(WSDL_ADDRESS, `${new URL(request.url).origin}${SERVICE_PATH}`),
    validate: (operation) => operation !== "sendEmail",
    onError: options.onError ?? ((error, operation) => console.error(`partner emulator: ${operation} failed:`, error)),
    // Clients generated from the real service's WSDLs speak its namespaces, and leave out sObject.Id on create
    // (required + nillable in the schema) as the real service allows.
    namespaceAliases: [REAL_SERVICE_NAMESPACES],
    lenientNillable: true,
  });
  return { state, handler };
}

/**
 * CORS of the emulator: the runtime's defaults already cover what the generated SOAP client sends (Content-Type,
 * SOAPAction) and it reads no other response header.
 */
export const PARTNER_CORS: CorsOptions = {};

/**
 * Listen on 127.0.0.1 (port 0 picks a free port). `cors` (default PARTNER_CORS: localhost origins) lets pages call
 * it; false leaves CORS out.
 */
export async function startPartnerEmulator(
  options: EmulatorOptions & { port?: number; host?: string; cors?: CorsOptions | false; onError?: (error: unknown, operation: string) => void } = {},
): Promise<RunningPartnerEmulator> {
  const emulator = createPartnerEmulator(options);
  const cors = options.cors ?? PARTNER_CORS;
  const server = await serveNode(cors === false ? emulator.handler : withCors(emulator.handler, cors), { port: options.port ?? 0, host: options.host ?? "127.0.0.1" });
  return { ...emulator, endpoint: `${server.url}${SERVICE_PATH}`, port: server.port, close: () => server.close() };
}
