/**
 * One error class for SOAP faults in both directions: a generated client throws it when a call answers with a fault
 * (detail decoded by element / xsi:type), and a generated server writes it as a fault when a handler throws it. So a
 * gateway can rethrow a fault it received unchanged.
 *
 * (The parsed-envelope shape from envelope.ts is the interface `SoapFault`; this is the throwable.)
 */

/** A fault code: a QName, or the protocol's own Client/Server code (SOAP 1.2: Sender/Receiver). */
export type SoapFaultCode = { readonly ns: string; readonly local: string } | "Client" | "Server";

export interface SoapFaultInit<D> {
  /** Default "Server". */
  readonly code?: SoapFaultCode;
  /** faultstring (SOAP 1.2: Reason/Text). */
  readonly message: string;
  readonly actor?: string;
  /** The wsdl:fault name the detail belongs to ("ApiFault", "LoginFault", ...); selects the detail's encoder. */
  readonly fault?: string;
  /** The detail element's value (decoded on the client, encoded by the server). */
  readonly detail?: D;
  /** HTTP status of the response that carried the fault (client side). */
  readonly status?: number;
}

export class SoapFaultError<D = unknown> extends Error {
  readonly code: SoapFaultCode;
  readonly actor: string | undefined;
  readonly fault: string | undefined;
  readonly detail: D | undefined;
  readonly status: number | undefined;

  constructor(init: SoapFaultInit<D>) {
    super(init.message);
    this.name = "SoapFaultError";
    this.code = init.code ?? "Server";
    this.actor = init.actor;
    this.fault = init.fault;
    this.detail = init.detail;
    this.status = init.status;
  }

  /** The fault code as "{ns}local" or "Client"/"Server", handy in logs and assertions. */
  get codeText(): string {
    return typeof this.code === "string" ? this.code : `{${this.code.ns}}${this.code.local}`;
  }
}

/** A response that is not a usable SOAP message (not XML, not an envelope, the wrong body element). */
export class SoapResponseError extends Error {
  constructor(
    message: string,
    readonly status: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "SoapResponseError";
  }
}
