import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createMembersEmulator } from "../../../examples/members/app.js";
import { loadMembersFixture } from "../../../examples/members/fixture.js";
import { createMembersAPIClient, type MembersAPIClient } from "../../../generated/members/index.js";
import { serveNode, type NodeServerHandle } from "../../../src/runtime/http/node.js";

/**
 * The members emulator over real HTTP on 127.0.0.1 through the generated client. Default fixture: projects and
 * groups 1 (public) and 2 (private); on projects martin (2) is master, on groups olivia (1) is owner; dana (3) is a
 * developer everywhere, rory (4) an access requester everywhere, sam (5) and nina (6) strangers.
 */
type Kind = "project" | "group";
const USERS = { owner: 1, master: 2, developer: 3, requester: 4, stranger: 5, newcomer: 6 } as const;
const TOKENS: Record<string, string> = {
  owner: "token-owner", master: "token-master", developer: "token-developer",
  requester: "token-requester", stranger: "token-stranger", newcomer: "token-newcomer",
};

let server: NodeServerHandle;
const clients = new Map<string, MembersAPIClient>();
const as = (who: keyof typeof TOKENS | "nobody" | "bad") => clients.get(who)!;

beforeEach(async () => {
  await server?.close();
  server = await serveNode(createMembersEmulator(loadMembersFixture(), { development: true }));
  const baseUrl = `${server.url}/api/v3`;
  for (const [who, token] of Object.entries(TOKENS)) clients.set(who, createMembersAPIClient({ baseUrl, headers: { "PRIVATE-TOKEN": token } }));
  clients.set("nobody", createMembersAPIClient({ baseUrl }));
  clients.set("bad", createMembersAPIClient({ baseUrl, headers: { "PRIVATE-TOKEN": "nope" } }));
});
afterAll(() => server?.close());

/** The manager of each kind in the fixture: master on projects, owner on groups. */
const manager = (kind: Kind) => (kind === "project" ? "master" : "owner");

/** The five operations of one kind with one calling convention. */
function ops(client: MembersAPIClient, kind: Kind) {
  return kind === "project"
    ? {
        list: (id: number, query?: string) => client.listProjectMembers({ path: { id }, query: query === undefined ? {} : { query } }),
        get: (id: number, user_id: number) => client.getProjectMember({ path: { id, user_id } }),
        add: (id: number, body: object) => client.addProjectMember({ path: { id }, body: body as never }),
        update: (id: number, user_id: number, body: object) => client.updateProjectMember({ path: { id, user_id }, body: body as never }),
        remove: (id: number, user_id: number) => client.removeProjectMember({ path: { id, user_id } }),
      }
    : {
        list: (id: number, query?: string) => client.listGroupMembers({ path: { id }, query: query === undefined ? {} : { query } }),
        get: (id: number, user_id: number) => client.getGroupMember({ path: { id, user_id } }),
        add: (id: number, body: object) => client.addGroupMember({ path: { id }, body: body as never }),
        update: (id: number, user_id: number, body: object) => client.updateGroupMember({ path: { id, user_id }, body: body as never }),
        remove: (id: number, user_id: number) => client.removeGroupMember({ path: { id, user_id } }),
      };
}
const memberIds = async (kind: Kind, id: number) => {
  const r = await ops(as(manager(kind)), kind).list(id);
  return r.status === 200 ? r.body.map((m) => m.id) : [];
};

describe("authentication", () => {
  it("answers 401 without a token or with an unknown one", async () => {
    for (const who of ["nobody", "bad"] as const) {
      const r = await as(who).listProjectMembers({ path: { id: 1 } });
      expect([who, r.status, r.body]).toEqual([who, 401, { message: "401 Unauthorized" }]);
    }
  });
});

for (const kind of ["project", "group"] as const) {
  describe(`${kind} members`, () => {
    it("lists members only (no requesters, no invitees) to anyone on a public source", async () => {
      for (const who of [manager(kind), "developer", "requester", "stranger"]) {
        const r = await ops(as(who), kind).list(1);
        expect([who, r.status]).toEqual([who, 200]);
        if (r.status !== 200) continue;
        expect(r.body.map((m) => m.id)).toEqual(kind === "project" ? [2, 3] : [1, 3]);
        expect(r.body.some((m) => m.id === USERS.requester)).toBe(false);
      }
      const one = await ops(as("stranger"), kind).get(1, USERS.developer);
      expect(one.status === 200 && one.body).toMatchObject({ id: 3, username: "dana", name: "Dana Developer", state: "active", access_level: 30 });
    });

    it("filters the list by username with query", async () => {
      const r = await ops(as("stranger"), kind).list(1, "DAN");
      expect(r.status === 200 && r.body.map((m) => m.username)).toEqual(["dana"]);
      const none = await ops(as("stranger"), kind).list(1, "zzz");
      expect(none.status === 200 && none.body).toEqual([]);
    });

    it("answers 404 to strangers (and requesters) on a private source, for every endpoint", async () => {
      for (const who of ["stranger", "requester"]) {
        const o = ops(as(who), kind);
        const statuses = [
          (await o.list(2)).status,
          (await o.get(2, USERS.developer)).status,
          (await o.add(2, { user_id: USERS.newcomer, access_level: 30 })).status,
          (await o.update(2, USERS.developer, { access_level: 20 })).status,
          (await o.remove(2, USERS.developer)).status,
        ];
        expect([who, statuses]).toEqual([who, [404, 404, 404, 404, 404]]);
      }
      const member = await ops(as("developer"), kind).list(2);
      expect(member.status).toBe(200);
    });

    it("POST/PUT/DELETE by a requester or stranger -> 403; POST/PUT by a developer -> 403", async () => {
      for (const who of ["requester", "stranger"]) {
        const o = ops(as(who), kind);
        expect((await o.add(1, { user_id: USERS.newcomer, access_level: 30 })).status).toBe(403);
        expect((await o.update(1, USERS.developer, { access_level: 20 })).status).toBe(403);
        expect((await o.remove(1, USERS.developer)).status).toBe(403);
        expect((await o.remove(1, who === "requester" ? USERS.requester : USERS.stranger)).status).toBe(403);
      }
      const dev = ops(as("developer"), kind);
      expect((await dev.add(1, { user_id: USERS.newcomer, access_level: 30 })).body).toEqual({ message: "403 Forbidden" });
      expect((await dev.update(1, USERS.developer, { access_level: 40 })).status).toBe(403);
      expect((await dev.remove(1, kind === "project" ? USERS.master : USERS.owner)).status).toBe(403);
    });

    it("checks permission before missing parameters", async () => {
      const r = await ops(as("developer"), kind).add(1, {});
      expect(r.status).toBe(403);
      const u = await ops(as("stranger"), kind).update(1, USERS.developer, {});
      expect(u.status).toBe(403);
    });

    it("a developer may remove himself or herself", async () => {
      const before = (await memberIds(kind, 1)).length;
      expect((await ops(as("developer"), kind).remove(1, USERS.developer)).status).toBe(200);
      expect((await memberIds(kind, 1)).length).toBe(before - 1);
    });

    it("POST without user_id or access_level -> 400; invalid access_level -> 422", async () => {
      const o = ops(as(manager(kind)), kind);
      const noUser = await o.add(1, { access_level: 30 });
      expect([noUser.status, noUser.body]).toEqual([400, { message: "400 Bad request - user_id is missing" }]);
      const noLevel = await o.add(1, { user_id: USERS.newcomer });
      expect([noLevel.status, noLevel.body]).toEqual([400, { message: "400 Bad request - access_level is missing" }]);
      expect((await o.add(1, { user_id: USERS.newcomer, access_level: 35 })).status).toBe(422);
      expect((await o.add(1, { user_id: USERS.newcomer, access_level: "master" })).status).toBe(422);
      expect((await o.update(1, USERS.developer, { access_level: 99 })).status).toBe(422);
      expect((await o.update(1, USERS.developer, {})).status).toBe(400);
      expect(await memberIds(kind, 1)).not.toContain(USERS.newcomer);
    });

    it("adds a non-member with expires_at, and promotes an access requester", async () => {
      const o = ops(as(manager(kind)), kind);
      const added = await o.add(1, { user_id: USERS.newcomer, access_level: 20, expires_at: "2031-12-31" });
      expect(added.status === 201 && added.body).toMatchObject({ id: 6, access_level: 20, expires_at: "2031-12-31" });
      const promoted = await o.add(1, { user_id: USERS.requester, access_level: 30 });
      expect(promoted.status === 201 && promoted.body).toMatchObject({ id: 4, access_level: 30 });
      expect(promoted.status === 201 && "expires_at" in promoted.body).toBe(false);
      // No longer a requester: the former requester now manages nothing but reads as a member of private sources too.
      expect(await memberIds(kind, 1)).toContain(USERS.requester);
      // A second add: project 201, group 409.
      const again = await o.add(1, { user_id: USERS.requester, access_level: 30 });
      expect(again.status).toBe(kind === "project" ? 201 : 409);
    });

    it("accepts a form body for POST", async () => {
      const path = kind === "project" ? "projects" : "groups";
      const r = await fetch(`${server.url}/api/v3/${path}/1/members`, {
        method: "POST",
        headers: { "PRIVATE-TOKEN": TOKENS[manager(kind)]!, "content-type": "application/x-www-form-urlencoded" },
        body: "user_id=6&access_level=10&__proto__=x",
      });
      expect(r.status).toBe(201);
      expect(await r.json()).toMatchObject({ id: 6, access_level: 10 });
    });

    it("PUT changes access_level and expires_at; PUT for a non-member -> 404", async () => {
      const o = ops(as(manager(kind)), kind);
      const r = await o.update(1, USERS.developer, { access_level: 20, expires_at: "2032-02-29" });
      expect(r.status === 200 && r.body).toMatchObject({ id: 3, access_level: 20, expires_at: "2032-02-29" });
      const got = await o.get(1, USERS.developer);
      expect(got.status === 200 && got.body.expires_at).toBe("2032-02-29");
      expect((await o.update(1, USERS.newcomer, { access_level: 20 })).status).toBe(404);
      expect((await o.update(1, USERS.requester, { access_level: 20 })).status).toBe(404);
      expect((await o.update(1, USERS.developer, { access_level: 20, expires_at: "31/12/2030" })).status).toBe(400);
    });

    it("DELETE of a requester or an unknown user: 200 on a project, 404 on a group; the requester stays", async () => {
      const o = ops(as(manager(kind)), kind);
      const want = kind === "project" ? 200 : 404;
      expect((await o.remove(1, USERS.requester)).status).toBe(want);
      expect((await o.remove(1, 999)).status).toBe(want);
      // The requester stays: adding promotes (201) rather than 409/201-as-existing-member.
      const promoted = await o.add(1, { user_id: USERS.requester, access_level: 30 });
      expect(promoted.status).toBe(201);
      expect((await o.remove(1, USERS.requester)).status).toBe(200);
    });
  });
}

describe("project and group differences", () => {
  it("a project rejects the owner level with 422 and adds no member; a group accepts it", async () => {
    const p = await ops(as("master"), "project").add(1, { user_id: USERS.newcomer, access_level: 50 });
    expect(p.status).toBe(422);
    expect(await memberIds("project", 1)).not.toContain(USERS.newcomer);
    const g = await ops(as("owner"), "group").add(1, { user_id: USERS.newcomer, access_level: 50 });
    expect(g.status === 201 && g.body.access_level).toBe(50);
  });

  it("adding an existing member: 201 on a project (unchanged), 409 on a group", async () => {
    const p = await ops(as("master"), "project").add(1, { user_id: USERS.developer, access_level: 40 });
    expect(p.status === 201 && p.body.access_level).toBe(30);
    const g = await ops(as("owner"), "group").add(1, { user_id: USERS.developer, access_level: 40 });
    expect([g.status, g.body]).toEqual([409, { message: "Member already exists" }]);
  });
});
