import type { FixtureSource, FixtureUser, MembersFixture } from "./fixture.js";

/** In-memory state of the members emulator, copied from the fixture. Maps keyed by number: no prototype keys. */
export type SourceKind = "project" | "group";

export interface Membership {
  access_level: number;
  expires_at: string | null;
}

export interface Source {
  readonly kind: SourceKind;
  readonly id: number;
  readonly name: string;
  readonly visibility: "public" | "private";
  readonly members: Map<number, Membership>;
  readonly requesters: Set<number>;
  readonly invitees: readonly { readonly email: string; readonly access_level: number }[];
}

export interface MembersStore {
  readonly users: Map<number, FixtureUser>;
  readonly sources: { readonly [K in SourceKind]: Map<number, Source> };
}

function toSource(kind: SourceKind, s: FixtureSource): Source {
  return {
    kind,
    id: s.id,
    name: s.name,
    visibility: s.visibility,
    members: new Map(s.members.map((m) => [m.user_id, { access_level: m.access_level, expires_at: m.expires_at ?? null }])),
    requesters: new Set(s.requesters),
    invitees: s.invitees,
  };
}

export function createMembersStore(fixture: MembersFixture): MembersStore {
  return {
    users: new Map(fixture.users.map((u) => [u.id, u])),
    sources: {
      project: new Map(fixture.projects.map((s) => [s.id, toSource("project", s)])),
      group: new Map(fixture.groups.map((s) => [s.id, toSource("group", s)])),
    },
  };
}
