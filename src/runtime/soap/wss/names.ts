/** The URIs of WS-Security 1.0/1.1 (OASIS) that the signer writes and the verifier reads. */
const OASIS = "http://docs.oasis-open.org/wss/2004/01";

export const WSSE_NS = `${OASIS}/oasis-200401-wss-wssecurity-secext-1.0.xsd`;
export const WSU_NS = `${OASIS}/oasis-200401-wss-wssecurity-utility-1.0.xsd`;
export const PASSWORD_TEXT = `${OASIS}/oasis-200401-wss-username-token-profile-1.0#PasswordText`;
export const PASSWORD_DIGEST = `${OASIS}/oasis-200401-wss-username-token-profile-1.0#PasswordDigest`;
export const BASE64_BINARY = `${OASIS}/oasis-200401-wss-soap-message-security-1.0#Base64Binary`;
export const X509V3 = `${OASIS}/oasis-200401-wss-x509-token-profile-1.0#X509v3`;

/**
 * The fault codes WS-Security 1.0 defines (section 12), in the wsse namespace; MessageExpired is 1.1's. A server
 * answers a refused message with one of these as the fault code (SOAP 1.2: a Subcode of env:Sender).
 */
export type WsSecurityFaultCode =
  | "UnsupportedSecurityToken"
  | "UnsupportedAlgorithm"
  | "InvalidSecurity"
  | "InvalidSecurityToken"
  | "FailedAuthentication"
  | "FailedCheck"
  | "SecurityTokenUnavailable"
  | "MessageExpired";

/** Why a message's security was refused: `code` becomes the fault code, the message its faultstring. */
export class WsSecurityError extends Error {
  constructor(
    readonly code: WsSecurityFaultCode,
    message: string,
  ) {
    super(message);
    this.name = "WsSecurityError";
  }
}

/** xsd:dateTime in UTC with milliseconds, as WS-Security's Created and Expires are usually written. */
export function utcTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** Parse a Created/Expires value (xsd:dateTime); a value without a zone is read as UTC, as the profile says. */
export function parseUtcTime(text: string): number | undefined {
  const t = text.trim();
  const m = /^(-?\d{4,})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)?$/.exec(t);
  if (m === null) return undefined;
  const ms = Date.parse(m[8] === undefined ? `${t}Z` : t);
  return Number.isNaN(ms) ? undefined : ms;
}
