/** Connect protocol constants for unary calls (https://connectrpc.com/docs/protocol). */
export const CONNECT_PROTO_MEDIA_TYPE = "application/proto";
export const CONNECT_JSON_MEDIA_TYPE = "application/json";
export const CONNECT_PROTOCOL_VERSION_HEADER = "connect-protocol-version";
export const CONNECT_PROTOCOL_VERSION = "1";
export const CONNECT_TIMEOUT_HEADER = "connect-timeout-ms";

export type ConnectFormat = "proto" | "json";

/** Connect-Timeout-Ms is at most 10 ASCII digits; anything else is ignored rather than trusted. */
export function parseTimeoutHeader(value: string | null): number | undefined {
  return value !== null && /^[0-9]{1,10}$/.test(value) ? Number(value) : undefined;
}
