/**
 * Load on the members REST emulator through the generated client: 16 writers, each owning one (source, user)
 * membership and cycling it through add / update / update / remove (or updating an existing member), plus 4 readers
 * listing members the whole time — 20 concurrent clients × 50 operations. Every list seen has no duplicates; at the
 * end each membership is exactly the writer's last acknowledged write; the heap has settled.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createMembersEmulator } from "../../examples/members/app.js";
import { loadMembersFixture } from "../../examples/members/fixture.js";
import { createMembersAPIClient, type MembersAPIClient } from "../../generated/members/index.js";
import { serveNode, type NodeServerHandle } from "../../src/runtime/http/node.js";
import { CLIENTS, OPERATIONS, runClients, SETTLED_BOUND_BYTES, settledHeap } from "./helpers.js";

type Kind = "project" | "group";
interface Pair {
  readonly kind: Kind;
  readonly id: number;
  readonly user: number;
  readonly existing: boolean;
}

// Projects are managed by martin (maintainer, user 2), groups by olivia (owner, user 1); dana (3) is a member of all.
const TOKEN: Record<Kind, string> = { project: "token-master", group: "token-owner" };
const PAIRS: Pair[] = [
  ...[1, 2].flatMap((id) => [1, 5, 6].map((user) => ({ kind: "project" as const, id, user, existing: false }))),
  ...[1, 2].flatMap((id) => [2, 5, 6].map((user) => ({ kind: "group" as const, id, user, existing: false }))),
  ...[1, 2].flatMap((id) => (["project", "group"] as const).map((kind) => ({ kind, id, user: 3, existing: true }))),
];

let server: NodeServerHandle;
beforeAll(async () => {
  server = await serveNode(createMembersEmulator(loadMembersFixture()));
});
afterAll(async () => server?.close());

function ops(client: MembersAPIClient, kind: Kind) {
  return kind === "project"
    ? {
        list: (id: number) => client.listProjectMembers({ path: { id } }),
        add: (id: number, user_id: number, access_level: number) => client.addProjectMember({ path: { id }, body: { user_id, access_level } as never }),
        update: (id: number, user_id: number, access_level: number) => client.updateProjectMember({ path: { id, user_id }, body: { access_level } as never }),
        remove: (id: number, user_id: number) => client.removeProjectMember({ path: { id, user_id } }),
      }
    : {
        list: (id: number) => client.listGroupMembers({ path: { id } }),
        add: (id: number, user_id: number, access_level: number) => client.addGroupMember({ path: { id }, body: { user_id, access_level } as never }),
        update: (id: number, user_id: number, access_level: number) => client.updateGroupMember({ path: { id, user_id }, body: { access_level } as never }),
        remove: (id: number, user_id: number) => client.removeGroupMember({ path: { id, user_id } }),
      };
}

it("20 clients x 50 operations: each membership ends as its last acknowledged write; no list ever has duplicates", async () => {
  expect(PAIRS.length + 4).toBe(CLIENTS);
  const before = await settledHeap();
  const baseUrl = `${server.url}/api/v3`;
  const client = (kind: Kind) => createMembersAPIClient({ baseUrl, headers: { "PRIVATE-TOKEN": TOKEN[kind] } });
  /** The last acknowledged state of each pair: an access level, or null when removed. */
  const last = new Map<Pair, number | null>();

  await runClients(CLIENTS, async (c) => {
    const pair = PAIRS[c];
    if (!pair) {
      // A reader: lists while the writers write; a list never shows a member twice.
      const kind: Kind = c % 2 === 0 ? "project" : "group";
      const o = ops(client(kind), kind);
      for (let i = 0; i < OPERATIONS; i++) {
        const r = await o.list(1 + (i % 2));
        expect(r.status).toBe(200);
        if (r.status === 200) expect(new Set(r.body.map((m) => m.id)).size).toBe(r.body.length);
      }
      return;
    }
    const o = ops(client(pair.kind), pair.kind);
    for (let i = 0; i < OPERATIONS; i++) {
      const level = [10, 20, 30][i % 3]!;
      if (pair.existing) {
        expect((await o.update(pair.id, pair.user, level)).status).toBe(200);
        last.set(pair, level);
        continue;
      }
      switch (i % 4) {
        case 0:
          expect((await o.add(pair.id, pair.user, 30)).status).toBe(201);
          last.set(pair, 30);
          break;
        case 1:
        case 2:
          expect((await o.update(pair.id, pair.user, level)).status).toBe(200);
          last.set(pair, level);
          break;
        default:
          expect((await o.remove(pair.id, pair.user)).status).toBe(200);
          last.set(pair, null);
      }
    }
  });

  for (const kind of ["project", "group"] as const) {
    for (const id of [1, 2]) {
      const r = await ops(client(kind), kind).list(id);
      expect(r.status).toBe(200);
      if (r.status !== 200) continue;
      const levels = new Map(r.body.map((m) => [m.id, m.access_level as number]));
      expect(levels.size).toBe(r.body.length);
      for (const pair of PAIRS.filter((p) => p.kind === kind && p.id === id)) {
        expect([kind, id, pair.user, levels.get(pair.user) ?? null]).toEqual([kind, id, pair.user, last.get(pair)]);
      }
    }
  }
  expect((await settledHeap()) - before).toBeLessThan(SETTLED_BOUND_BYTES);
});
