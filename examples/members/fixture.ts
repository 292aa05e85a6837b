import { readFileSync } from "node:fs";

/** The members emulator's starting state (see README.md for its JSON Schema). */
export interface MembersFixture {
  readonly users: readonly FixtureUser[];
  readonly projects: readonly FixtureSource[];
  readonly groups: readonly FixtureSource[];
}

export interface FixtureUser {
  readonly id: number;
  readonly username: string;
  readonly name: string;
  readonly state: string;
  /** The PRIVATE-TOKEN that authenticates this user. */
  readonly token: string;
}

export interface FixtureSource {
  readonly id: number;
  readonly name: string;
  readonly visibility: "public" | "private";
  readonly members: readonly FixtureMembership[];
  /** Users who asked for access (not members). */
  readonly requesters: readonly number[];
  /** Pending invitations without a user: never listed. */
  readonly invitees: readonly { readonly email: string; readonly access_level: number }[];
}

export interface FixtureMembership {
  readonly user_id: number;
  readonly access_level: number;
  readonly expires_at?: string | null;
}

export const DEFAULT_FIXTURE_FILE = new URL("./default-fixture.json", import.meta.url);

export function loadMembersFixture(file: string | URL = DEFAULT_FIXTURE_FILE): MembersFixture {
  return checkMembersFixture(JSON.parse(readFileSync(file, "utf8")));
}

function fail(message: string): never {
  throw new Error(`invalid members fixture: ${message}`);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function checkMembersFixture(data: unknown): MembersFixture {
  if (!isObject(data)) fail("not an object");
  if (!Array.isArray(data.users)) fail("users must be an array");
  data.users.forEach((u: unknown, i) => {
    if (!isObject(u) || !Number.isInteger(u.id)) fail(`users/${i}/id must be an integer`);
    for (const k of ["username", "name", "state", "token"]) if (typeof u[k] !== "string") fail(`users/${i}/${k} must be a string`);
  });
  for (const kind of ["projects", "groups"] as const) {
    const list = data[kind];
    if (!Array.isArray(list)) fail(`${kind} must be an array`);
    list.forEach((s: unknown, i) => {
      const at = `${kind}/${i}`;
      if (!isObject(s) || !Number.isInteger(s.id)) fail(`${at}/id must be an integer`);
      if (typeof s.name !== "string") fail(`${at}/name must be a string`);
      if (s.visibility !== "public" && s.visibility !== "private") fail(`${at}/visibility must be public or private`);
      if (!Array.isArray(s.members)) fail(`${at}/members must be an array`);
      s.members.forEach((m: unknown, j) => {
        if (!isObject(m) || !Number.isInteger(m.user_id) || !Number.isInteger(m.access_level)) {
          fail(`${at}/members/${j} needs integer user_id and access_level`);
        }
      });
      if (!Array.isArray(s.requesters) || s.requesters.some((r) => !Number.isInteger(r))) fail(`${at}/requesters must be user ids`);
      if (!Array.isArray(s.invitees)) fail(`${at}/invitees must be an array`);
    });
  }
  return data as unknown as MembersFixture;
}
