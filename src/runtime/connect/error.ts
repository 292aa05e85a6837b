import type { ConnectCode } from "./code.js";

/** One error detail: a protobuf message packed like google.protobuf.Any (type name and binary value). */
export interface ConnectErrorDetail {
  /** Fully qualified message name, e.g. "google.rpc.RetryInfo". */
  readonly type: string;
  readonly value: Uint8Array;
  /** A JSON rendering the server added for humans; informational only. */
  readonly debug?: unknown;
}

/**
 * An RPC failed with a status code (the Connect names of the canonical gRPC codes). Servers throw it from an
 * implementation to answer with that code over any protocol (Connect, gRPC, gRPC-Web); clients get it for every
 * failure (error responses, network errors, timeouts, undecodable answers).
 */
export class RpcError extends Error {
  /** The message without the "[code]" prefix, as sent on the wire. */
  readonly rawMessage: string;
  readonly details: readonly ConnectErrorDetail[];
  /** Response headers of a failed call (client side), or headers to send with the error (server side). */
  readonly metadata: Headers;

  constructor(
    readonly code: ConnectCode,
    message: string,
    options: { details?: readonly ConnectErrorDetail[]; metadata?: HeadersInit; cause?: unknown } = {},
  ) {
    super(message ? `[${code}] ${message}` : `[${code}]`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "RpcError";
    this.rawMessage = message;
    this.details = options.details ?? [];
    this.metadata = new Headers(options.metadata);
  }
}

/** The name RpcError had when only the Connect protocol was spoken; the same class. */
export const ConnectError = RpcError;
export type ConnectError = RpcError;
