import { base64Decode, base64Encode } from "./base64.js";
import { isConnectCode } from "./code.js";
import { ConnectError, type ConnectErrorDetail } from "./error.js";

/** The JSON body of a Connect error response. */
export function connectErrorToJson(error: ConnectError): Record<string, unknown> {
  const json: Record<string, unknown> = { code: error.code };
  if (error.rawMessage !== "") json.message = error.rawMessage;
  if (error.details.length > 0) {
    json.details = error.details.map((d) => ({
      type: d.type,
      value: base64Encode(d.value),
      ...(d.debug === undefined ? {} : { debug: d.debug }),
    }));
  }
  return json;
}

function parseDetails(value: unknown): ConnectErrorDetail[] {
  if (!Array.isArray(value)) return [];
  const details: ConnectErrorDetail[] = [];
  for (const item of value) {
    if (typeof item !== "object" || item === null) continue;
    const { type, value: encoded, debug } = item as Record<string, unknown>;
    const bytes = typeof encoded === "string" ? base64Decode(encoded) : undefined;
    if (typeof type !== "string" || bytes === undefined) continue; // a malformed detail is dropped, not fatal
    details.push(debug === undefined ? { type, value: bytes } : { type, value: bytes, debug });
  }
  return details;
}

/**
 * Read a Connect error from a response body's text; undefined when it is not one (not JSON, or no valid code), so
 * the caller falls back to the HTTP status.
 */
export function connectErrorFromJson(text: string, metadata?: HeadersInit): ConnectError | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
  const { code, message, details } = json as Record<string, unknown>;
  if (!isConnectCode(code)) return undefined;
  return new ConnectError(code, typeof message === "string" ? message : "", {
    details: parseDetails(details),
    ...(metadata === undefined ? {} : { metadata }),
  });
}
