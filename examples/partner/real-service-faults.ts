import type { PartnerServiceHandlers, UnexpectedErrorFault } from "../../generated/partner/index.js";
import { SoapFaultError, type SoapHandlerContext } from "../../src/runtime/index.js";

/**
 * Call-level faults as the real service sends them. The spec declares a generic ApiFault (element fns:fault) on every
 * operation, but the real WSDLs declare none: the real service answers INVALID_SESSION_ID and the other call-level
 * errors with an UnexpectedErrorFault detail, which every operation of every version declares. So for a request in
 * the real service's namespaces (ctx.namespaces set by the generated server's namespaceAliases), an ApiFault is
 * re-thrown as that UnexpectedErrorFault, with the same code and message: the client decodes it as a typed fault
 * instead of leaving an element its binding does not know undecoded.
 */
export function withRealServiceFaults(handlers: PartnerServiceHandlers): PartnerServiceHandlers {
  const wrapped: Record<string, unknown> = {};
  for (const [name, handler] of Object.entries(handlers) as [string, (input: unknown, ctx: SoapHandlerContext<unknown, unknown>) => unknown][]) {
    wrapped[name] = async (input: unknown, ctx: SoapHandlerContext<unknown, unknown>) => {
      try {
        return await handler(input, ctx);
      } catch (error) {
        throw ctx.namespaces !== undefined ? asRealServiceFault(error) : error;
      }
    };
  }
  return wrapped as unknown as PartnerServiceHandlers;
}

function asRealServiceFault(error: unknown): unknown {
  if (!(error instanceof SoapFaultError) || error.fault !== "ApiFault") return error;
  const detail = error.detail as { exceptionCode: UnexpectedErrorFault["exceptionCode"]; exceptionMessage: string };
  const unexpected: UnexpectedErrorFault = { $type: "UnexpectedErrorFault", exceptionCode: detail.exceptionCode, exceptionMessage: detail.exceptionMessage };
  return new SoapFaultError({ code: error.code, message: error.message, fault: "UnexpectedErrorFault", detail: unexpected });
}
