import type {
  GetServerTimestampResult, GetUserInfoResult, InvalidateSessionsResult, LoginResult, ResetPasswordResult, SessionHeader,
} from "../../generated/partner/index.js";
import { apiVersionOf, SPEC_API_VERSION } from "./api-version.js";
import { apiFault, invalidIdFault, invalidNewPasswordFault, loginFault } from "./faults.js";
import { isWellFormedId } from "./ids.js";
import type { PartnerState, Session, UserState } from "./state.js";

/** Where the emulator answers: the same path as the WSDL's soap:address, on whatever host the client used. */
export const SERVICE_PATH = `/services/Soap/u/${SPEC_API_VERSION}`;

/**
 * The session a call runs in. Every operation except login needs a SessionHeader naming a live session:
 * INVALID_SESSION_ID otherwise. A user whose password expired may only call setPassword (and logout).
 */
export function requireSession(state: PartnerState, header: SessionHeader | undefined, operation: string): { session: Session; user: UserState } {
  const session = header ? state.sessions.get(header.sessionId) : undefined;
  if (!session || session.expiresAt <= state.nowMs()) {
    if (session) state.sessions.delete(session.id);
    throw apiFault("INVALID_SESSION_ID", "Invalid Session ID found in SessionHeader: Illegal Session");
  }
  const user = state.user(session.userId)!;
  if (user.passwordExpired && operation !== "setPassword" && operation !== "logout") {
    throw apiFault("INVALID_OPERATION_WITH_EXPIRED_PASSWORD", "The users password has expired, you must call SetPassword before attempting any other API operations");
  }
  return { session, user };
}

/** Wrong username or password: INVALID_LOGIN (LoginFault), with no hint which one was wrong. */
export function login(state: PartnerState, username: string, password: string, url: string): LoginResult {
  const user = state.users.find((u) => u.fixture.username.toLowerCase() === username.trim().toLowerCase());
  if (!user || user.password !== password) {
    throw loginFault("INVALID_LOGIN", "Invalid username, password, security token; or user locked out.");
  }
  const id = state.newSessionId();
  state.sessions.set(id, { id, userId: user.id, expiresAt: state.nowMs() + state.sessionSeconds * 1000 });
  // The URLs keep the version the client logged in with, as the real service's do.
  const origin = new URL(url).origin;
  const version = apiVersionOf(url);
  return {
    metadataServerUrl: `${origin}/services/Soap/m/${version}/${state.organizationId.slice(0, 15)}`,
    passwordExpired: user.passwordExpired,
    sandbox: false,
    serverUrl: `${origin}/services/Soap/u/${version}/${state.organizationId.slice(0, 15)}`,
    sessionId: id,
    userId: user.id,
    userInfo: state.userInfo(user, version),
  };
}

export function logout(state: PartnerState, session: Session): void {
  state.sessions.delete(session.id);
}

/** Ends the listed sessions; an id that names no live session is a per-id INVALID_SESSION_ID error. */
export function invalidateSessions(state: PartnerState, ids: readonly string[]): InvalidateSessionsResult[] {
  return ids.map((id) => {
    if (state.sessions.delete(id)) return { success: true };
    return { success: false, errors: [{ statusCode: "INVALID_SESSION_ID", message: `invalid session id: ${id}`, fields: [] }] };
  });
}

export function getUserInfo(state: PartnerState, user: UserState, url: string): GetUserInfoResult {
  return state.userInfo(user, apiVersionOf(url));
}

export function getServerTimestamp(state: PartnerState): GetServerTimestampResult {
  return { timestamp: state.now() };
}

function targetUser(state: PartnerState, userId: string): UserState {
  if (!isWellFormedId(userId)) throw invalidIdFault("MALFORMED_ID", `invalid user id: ${userId}`);
  const user = state.user(userId);
  if (!user) throw invalidIdFault("INVALID_ID_FIELD", `no user with id ${userId}`);
  return user;
}

/** The emulator's password policy: at least 8 characters, with a letter and a digit. */
export function setPassword(state: PartnerState, userId: string, password: string): void {
  const user = targetUser(state, userId);
  if (password.length < 8 || !/[A-Za-z]/.test(password) || !/\d/.test(password)) {
    throw invalidNewPasswordFault("Your password must be at least 8 characters long and contain a letter and a digit.");
  }
  user.password = password;
  user.passwordExpired = false;
}

export function resetPassword(state: PartnerState, userId: string): ResetPasswordResult {
  const user = targetUser(state, userId);
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  const password = `Rst${Array.from(bytes, (b) => (b % 10).toString()).join("")}x`;
  user.password = password;
  return { password };
}
