import type { Member, MembersAPIHandlers } from "../../generated/members/index.js";
import { access, forbidden, isFailure, isValidLevel, type Access } from "./access.js";
import type { MembersStore, Source, SourceKind } from "./store.js";

const message = <S extends number>(status: S, text: string) => ({ status, body: { message: text } }) as const;

function present(source: Source, userId: number, store: MembersStore, request: Request): Member {
  const user = store.users.get(userId)!;
  const membership = source.members.get(userId)!;
  const origin = new URL(request.url).origin;
  const member: Member = {
    id: user.id,
    name: user.name,
    username: user.username,
    state: user.state,
    avatar_url: `${origin}/uploads/user/avatar/${user.id}/avatar.png`,
    web_url: `${origin}/${encodeURIComponent(user.username)}`,
    access_level: membership.access_level as Member["access_level"],
  };
  if (membership.expires_at !== null) member.expires_at = membership.expires_at;
  return member;
}

/** The permission check that comes before any check of the parameters (seed: permission first). */
export function writeAccess(store: MembersStore, kind: SourceKind, sourceId: number, request: Request) {
  const a = access(store, kind, sourceId, request);
  if (isFailure(a)) return a;
  return a.role === "manager" ? a : forbidden();
}

/** One source kind's five operations; projects and groups differ only where the seed says. */
function sourceHandlers(store: MembersStore, kind: SourceKind) {
  return {
    list(id: number, query: string | undefined, request: Request) {
      const a = access(store, kind, id, request);
      if (isFailure(a)) return a;
      const needle = query?.toLowerCase() ?? "";
      const members = [...a.source.members.keys()]
        .filter((userId) => store.users.get(userId)?.username.toLowerCase().includes(needle))
        .sort((x, y) => x - y)
        .map((userId) => present(a.source, userId, store, request));
      return { status: 200 as const, body: members };
    },

    get(id: number, userId: number, request: Request) {
      const a = access(store, kind, id, request);
      if (isFailure(a)) return a;
      if (!a.source.members.has(userId)) return message(404, "404 Member Not Found");
      return { status: 200 as const, body: present(a.source, userId, store, request) };
    },

    add(id: number, body: { user_id: number; access_level: number; expires_at?: string }, request: Request) {
      const a = writeAccess(store, kind, id, request);
      if (isFailure(a)) return a;
      if (!isValidLevel(kind, body.access_level)) return message(422, "422 Access level is not valid");
      if (!store.users.has(body.user_id)) return message(404, "404 User Not Found");
      const source = (a as Access).source;
      if (source.members.has(body.user_id)) {
        // Adding an existing member: a project answers 201 with the member as it is, a group 409.
        if (kind === "group") return message(409, "Member already exists");
        return { status: 201 as const, body: present(source, body.user_id, store, request) };
      }
      source.requesters.delete(body.user_id); // an access requester is promoted
      source.members.set(body.user_id, { access_level: body.access_level, expires_at: body.expires_at ?? null });
      return { status: 201 as const, body: present(source, body.user_id, store, request) };
    },

    update(id: number, userId: number, body: { access_level: number; expires_at?: string }, request: Request) {
      const a = writeAccess(store, kind, id, request);
      if (isFailure(a)) return a;
      if (!isValidLevel(kind, body.access_level)) return message(422, "422 Access level is not valid");
      const membership = (a as Access).source.members.get(userId);
      if (!membership) return message(404, "404 Member Not Found");
      membership.access_level = body.access_level;
      if (body.expires_at !== undefined) membership.expires_at = body.expires_at;
      return { status: 200 as const, body: present((a as Access).source, userId, store, request) };
    },

    remove(id: number, userId: number, request: Request) {
      const a = access(store, kind, id, request);
      if (isFailure(a)) return a;
      const self = a.user.id === userId;
      if (a.role === "requester" || a.role === "stranger") return forbidden();
      if (a.role === "member" && !self) return forbidden();
      if (a.source.members.delete(userId)) return { status: 200 as const };
      // Not a member (an access requester, who stays, or an unknown id): a project says 200, a group 404.
      return kind === "project" ? { status: 200 as const } : message(404, "404 Member Not Found");
    },
  };
}

export function membersHandlers(store: MembersStore): MembersAPIHandlers {
  const projects = sourceHandlers(store, "project");
  const groups = sourceHandlers(store, "group");
  return {
    listProjectMembers: ({ path, query, request }) => projects.list(path.id, query.query, request),
    getProjectMember: ({ path, request }) => projects.get(path.id, path.user_id, request),
    // The project's add never answers 409 (only groups do), which the shared implementation's type cannot show.
    addProjectMember: ({ path, body, request }) => projects.add(path.id, body, request) as ReturnType<MembersAPIHandlers["addProjectMember"]>,
    updateProjectMember: ({ path, body, request }) => projects.update(path.id, path.user_id, body, request),
    removeProjectMember: ({ path, request }) => projects.remove(path.id, path.user_id, request),
    listGroupMembers: ({ path, query, request }) => groups.list(path.id, query.query, request),
    getGroupMember: ({ path, request }) => groups.get(path.id, path.user_id, request),
    addGroupMember: ({ path, body, request }) => groups.add(path.id, body, request),
    updateGroupMember: ({ path, body, request }) => groups.update(path.id, path.user_id, body, request),
    removeGroupMember: ({ path, request }) => groups.remove(path.id, path.user_id, request),
  };
}
