/**
 * The API version a client addressed, from the endpoint path (/services/Soap/u/13.0, /services/Soap/u/40.0/00D...):
 * the real service serves every version at its own path, and the emulator shapes a few responses by it so that
 * clients built from that version's WSDL can read them (see userInfo in state.ts).
 */

/** The version specs/partner.wsdl describes, and the one assumed for a path that names none. */
export const SPEC_API_VERSION = "17.0";

/** The first version whose GetUserInfoResult requires chatterExternal, orgAttachmentFileSizeLimit, ... (v40 WSDL). */
export const USER_INFO_V40 = 40;

/** "13.0" from http://host/services/Soap/u/13.0/00D..., else the spec's version. */
export function apiVersionOf(url: string): string {
  const m = /^\/services\/Soap\/[a-z]\/(\d{1,3}\.\d)(?:\/|$)/.exec(new URL(url).pathname);
  return m ? m[1]! : SPEC_API_VERSION;
}

/** The version's major number (40 for "40.0"). */
export function apiMajor(version: string): number {
  return Number.parseInt(version, 10);
}
