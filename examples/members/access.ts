import type { FixtureUser } from "./fixture.js";
import type { MembersStore, Source, SourceKind } from "./store.js";

/** Access levels: guest 10, reporter 20, developer 30, master 40, owner 50. */
export const LEVELS = { guest: 10, reporter: 20, developer: 30, master: 40, owner: 50 } as const;

/** Valid levels per source kind: owner applies to groups only. */
export function isValidLevel(kind: SourceKind, level: number): boolean {
  return kind === "group" ? [10, 20, 30, 40, 50].includes(level) : [10, 20, 30, 40].includes(level);
}

export type Role = "manager" | "member" | "requester" | "stranger";

/** master or owner manage members; other members are "member"; requesters are held apart from members. */
export function roleOf(source: Source, userId: number): Role {
  const membership = source.members.get(userId);
  if (membership) return membership.access_level >= LEVELS.master ? "manager" : "member";
  return source.requesters.has(userId) ? "requester" : "stranger";
}

export interface Reply<S extends number> {
  readonly status: S;
  readonly body: { message: string };
}
/** What `access` may answer instead of granting it. */
export type Failure = Reply<401> | Reply<404>;

export const unauthorized = (): Reply<401> => ({ status: 401, body: { message: "401 Unauthorized" } });
export const forbidden = (): Reply<403> => ({ status: 403, body: { message: "403 Forbidden" } });
const sourceNotFound = (kind: SourceKind): Reply<404> => ({
  status: 404,
  body: { message: `404 ${kind === "project" ? "Project" : "Group"} Not Found` },
});

export interface Access {
  readonly user: FixtureUser;
  readonly source: Source;
  readonly role: Role;
}

/**
 * Authenticate (PRIVATE-TOKEN) and find the source. A private source answers a caller who is not a member exactly
 * like a missing one: 404.
 */
export function access(store: MembersStore, kind: SourceKind, sourceId: number, request: Request): Access | Failure {
  const token = request.headers.get("private-token");
  const user = token === null ? undefined : [...store.users.values()].find((u) => u.token === token);
  if (!user) return unauthorized();
  const source = store.sources[kind].get(sourceId);
  if (!source) return sourceNotFound(kind);
  const role = roleOf(source, user.id);
  if (source.visibility === "private" && (role === "stranger" || role === "requester")) return sourceNotFound(kind);
  return { user, source, role };
}

export function isFailure<F extends { status: number }>(v: Access | F): v is F {
  return "status" in v;
}
