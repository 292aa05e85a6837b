/** The text forms gRPC puts in headers: grpc-timeout, grpc-message, and gRPC-Web's trailer block. */
import { base64Decode, base64Encode } from "../connect/base64.js";
import { RpcError } from "../connect/error.js";
import { grpcCodeOf, rpcCodeFromGrpc } from "./code.js";
import { decodeRpcStatus, encodeRpcStatus } from "./status-details.js";

const TIMEOUT_UNIT_MS: Readonly<Record<string, number>> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 0.001, n: 0.000001 };

/** grpc-timeout ("100m", "5S": at most 8 digits and a unit) in milliseconds; undefined when absent or malformed. */
export function parseGrpcTimeout(value: string | null): number | undefined {
  if (value === null) return undefined;
  const match = /^([0-9]{1,8})([HMSmun])$/.exec(value);
  return match ? Number(match[1]) * TIMEOUT_UNIT_MS[match[2]!]! : undefined;
}

/** A deadline as grpc-timeout: milliseconds, or seconds when the number would need more than 8 digits. */
export function formatGrpcTimeout(ms: number): string {
  const whole = Math.max(0, Math.ceil(ms));
  return whole < 1e8 ? `${whole}m` : `${Math.min(99_999_999, Math.ceil(whole / 1000))}S`;
}

/** grpc-message is percent-encoded UTF-8: everything outside printable ASCII, and "%", is escaped. */
export function encodeGrpcMessage(message: string): string {
  if (/^[\x20-\x24\x26-\x7e]*$/.test(message)) return message;
  let out = "";
  for (const b of new TextEncoder().encode(message)) {
    out += b >= 0x20 && b <= 0x7e && b !== 0x25 ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

export function decodeGrpcMessage(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value; // not valid percent-encoding: shown as sent
  }
}

/** The headers a gRPC or gRPC-Web status travels in (trailers, or the headers of a trailers-only answer). */
export function setGrpcStatus(target: Headers, error: RpcError | undefined): void {
  if (error === undefined) {
    target.set("grpc-status", "0");
    return;
  }
  const code = grpcCodeOf(error.code);
  target.set("grpc-status", String(code));
  if (error.rawMessage !== "") target.set("grpc-message", encodeGrpcMessage(error.rawMessage));
  if (error.details.length > 0) {
    target.set("grpc-status-details-bin", base64Encode(encodeRpcStatus({ code, message: error.rawMessage, details: error.details })));
  }
}

/**
 * The error a gRPC status in `headers` says, undefined for OK and for a missing status (the caller decides what a
 * missing one means). The status's details come from grpc-status-details-bin when it decodes.
 */
export function grpcStatusError(headers: Headers, metadata: Headers): RpcError | undefined | "missing" {
  const status = headers.get("grpc-status");
  if (status === null) return "missing";
  const code = /^[0-9]{1,2}$/.test(status) ? Number(status) : 2;
  if (code === 0) return undefined;
  const message = decodeGrpcMessage(headers.get("grpc-message") ?? "");
  let details: RpcError["details"] = [];
  const bin = headers.get("grpc-status-details-bin");
  if (bin !== null) {
    const bytes = base64Decode(bin);
    try {
      if (bytes !== undefined) details = decodeRpcStatus(bytes).details;
    } catch {
      // undecodable details are dropped; the status itself still counts
    }
  }
  return new RpcError(rpcCodeFromGrpc(code), message, { details, metadata });
}

/** gRPC-Web's trailer message body: "name: value" lines ending in CRLF. */
export function encodeTrailerBlock(trailers: Headers): Uint8Array {
  let text = "";
  trailers.forEach((value, name) => {
    text += `${name}: ${value}\r\n`;
  });
  return new TextEncoder().encode(text);
}

export function decodeTrailerBlock(bytes: Uint8Array): Headers {
  const trailers = new Headers();
  for (const line of new TextDecoder().decode(bytes).split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    try {
      trailers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    } catch {
      // a line that is not a valid header is ignored
    }
  }
  return trailers;
}
