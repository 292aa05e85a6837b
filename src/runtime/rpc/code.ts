import type { ConnectCode } from "../connect/code.js";

/** A canonical RPC status code by its Connect name ("not_found"); gRPC sends the same codes as numbers. */
export type RpcCode = ConnectCode;

/** The codes in gRPC's numeric order: index + 1 is the gRPC number (0 is OK, which is not an error). */
const GRPC_ORDER: readonly RpcCode[] = [
  "canceled", "unknown", "invalid_argument", "deadline_exceeded", "not_found", "already_exists", "permission_denied",
  "resource_exhausted", "failed_precondition", "aborted", "out_of_range", "unimplemented", "internal", "unavailable",
  "data_loss", "unauthenticated",
];
const GRPC_NUMBER = /* @__PURE__ */ (() => new Map(GRPC_ORDER.map((code, i) => [code, i + 1])))();

/** The gRPC status number of a code (1..16). */
export function grpcCodeOf(code: RpcCode): number {
  return GRPC_NUMBER.get(code) ?? 2;
}

/** The code of a gRPC status number 1..16; any other number is `unknown`, as gRPC clients treat it. */
export function rpcCodeFromGrpc(n: number): RpcCode {
  return GRPC_ORDER[n - 1] ?? "unknown";
}
