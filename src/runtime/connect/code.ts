/** The Connect (and gRPC) status codes, as Connect writes them on the wire. */
export type ConnectCode =
  | "canceled"
  | "unknown"
  | "invalid_argument"
  | "deadline_exceeded"
  | "not_found"
  | "already_exists"
  | "permission_denied"
  | "resource_exhausted"
  | "failed_precondition"
  | "aborted"
  | "out_of_range"
  | "unimplemented"
  | "internal"
  | "unavailable"
  | "data_loss"
  | "unauthenticated";

/** The HTTP status a Connect server answers with for each code (Connect protocol, "Error Codes"). */
const HTTP_STATUS_OF: Readonly<Record<ConnectCode, number>> = {
  canceled: 499,
  unknown: 500,
  invalid_argument: 400,
  deadline_exceeded: 504,
  not_found: 404,
  already_exists: 409,
  permission_denied: 403,
  resource_exhausted: 429,
  failed_precondition: 400,
  aborted: 409,
  out_of_range: 400,
  unimplemented: 501,
  internal: 500,
  unavailable: 503,
  data_loss: 500,
  unauthenticated: 401,
};

export function isConnectCode(value: unknown): value is ConnectCode {
  return typeof value === "string" && Object.hasOwn(HTTP_STATUS_OF, value);
}

export function connectCodeToHttpStatus(code: ConnectCode): number {
  return HTTP_STATUS_OF[code];
}

/**
 * The code a client reports for an error response that carries no Connect error body (a proxy's 502, say): the
 * mapping the Connect protocol borrows from gRPC's HTTP-to-status table.
 */
export function connectCodeFromHttpStatus(status: number): ConnectCode {
  switch (status) {
    case 400:
      return "internal";
    case 401:
      return "unauthenticated";
    case 403:
      return "permission_denied";
    case 404:
      return "unimplemented";
    case 429:
    case 502:
    case 503:
    case 504:
      return "unavailable";
    default:
      return "unknown";
  }
}
