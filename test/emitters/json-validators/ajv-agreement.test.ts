import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { REPO } from "../../helpers/seeds.js";
import { fn, generateInline, generateRepoSpec, type Generated } from "./helpers.js";
import { KITCHEN, KITCHEN_OK } from "./kitchen-spec.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** ajv (JSON Schema 2020-12 + ajv-formats, the reference) compiled from the same spec text. */
function ajvFor(yaml: string): (type: string) => (v: unknown) => boolean {
  const doc = parseYaml(yaml) as { components: object };
  const ajv = addFormats(new Ajv2020({ strict: false }));
  ajv.addSchema({ $id: "spec", components: doc.components });
  return (type) => ajv.compile({ $ref: `spec#/components/schemas/${type}` });
}

/**
 * Candidate values per property: valid and invalid ones. Edge cases where our formats are deliberately stricter than
 * ajv-formats (a space instead of "T", offsets without a colon, int64 beyond 2^53, "urn:uuid:" prefixes, e-mail hosts
 * without a dot) are left out here and pinned down in validators.test.ts.
 */
const CANDIDATES: Record<string, readonly unknown[]> = {
  id: [0, -7, 42, 1.5, "1", null],
  small: [-5, -6, 0, 99, 100, 2 ** 31, 2.5, "3"],
  name: ["ab", "abcde", "a", "abcdef", "aB", "😀😀", "é😀é", "", 7],
  count: [0, 3, 9, 4, -3, 1.5, "9"],
  ratio: [1.5, 0, 0.1, 1.6, -1, "1"],
  tags: [["a"], [], ["a", "b", "c"], ["a", "b", "c", "d"], ["a", "a"], ["a", 1], "a", [{}]],
  when: ["2024-01-01T10:00:00Z", "2024-01-01T10:00:00.123+05:30", "2024-02-30T10:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01", "x", 5],
  day: ["2024-02-29", "2023-02-29", "2024-04-31", "2024-1-01", "2024-12-31", 20240101],
  site: ["https://example.com/a?b=c#d", "urn:isbn:0451450523", "/relative", "no scheme", "http://exa mple.com", 1],
  mail: ["a@b.co", "first.last+tag@example.org", "no-at-sign", "a@", "@b.co", 3],
  uid: ["123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000", "123e4567e89b12d3a456426614174000", 1],
  note: ["x", null, 1],
  color: ["red", "green", "blue", null],
  kind: ["kitchen", "bathroom", null],
  labels: [{}, { a: 1 }, { a: "1" }, { __proto__: 1 }, [], "x"],
  mixed: ["s", 3, 3.5, true, null],
  extra: [1],
};

const REQUIRED = ["id", "name", "count", "ratio", "tags", "when", "day"];

/** KITCHEN_OK with a few properties replaced by candidates (or dropped), so both verdicts occur often. */
function kitchenArbitrary(): fc.Arbitrary<Record<string, unknown>> {
  const entries = Object.entries(CANDIDATES).map(
    ([key, values]) => [key, fc.oneof({ arbitrary: fc.constant(undefined), weight: 8 }, { arbitrary: fc.constantFrom(...values), weight: 1 })] as const,
  );
  const drop = fc.oneof({ arbitrary: fc.constant([] as string[]), weight: 6 }, { arbitrary: fc.subarray(REQUIRED, { maxLength: 2 }), weight: 1 });
  return fc.tuple(fc.record(Object.fromEntries(entries)), drop).map(([patch, dropped]) => {
    const value: Record<string, unknown> = { ...KITCHEN_OK };
    for (const [k, v] of Object.entries(patch)) if (v !== undefined) value[k] = v;
    for (const k of dropped) delete value[k];
    return value;
  });
}

describe("is<T> agrees with ajv", () => {
  let g: Generated;
  let ajv: (type: string) => (v: unknown) => boolean;
  beforeAll(async () => {
    g = await generateInline(KITCHEN);
    ajv = ajvFor(KITCHEN);
  });

  it("on generated Kitchen samples", () => {
    const ours = fn<(v: unknown) => boolean>(g.validate, "isKitchen");
    const theirs = ajv("Kitchen");
    let valid = 0;
    fc.assert(
      fc.property(kitchenArbitrary(), (value) => {
        const verdict = theirs(value);
        if (verdict) valid++;
        expect(ours(value), JSON.stringify(value)).toBe(verdict);
      }),
      { numRuns: 2000, seed: 7 },
    );
    // The samples must exercise both verdicts, or the agreement says little.
    expect(valid).toBeGreaterThan(20);
  });

  it("on union, allOf, recursion and additionalProperties samples", () => {
    const samples: Record<string, unknown[]> = {
      // Hostile values with a "__proto__" key are left out: the YAML reader hands ajv a schema whose "__proto__"
      // property became a prototype, so ajv never checks it (validators.test.ts pins our behaviour down).
      // Pet is left out: ajv only honours `discriminator` with its own option and then demands the tag be declared
      // in every variant; without it, oneOf semantics differ by design.
      Shape: [{ side: 1 }, { radius: 1 }, { side: 1, radius: 2 }, {}, [], { side: "1" }],
      EitherShape: [{ side: 1 }, { side: 1, radius: 2 }, {}, { radius: "x" }],
      Derived: [{ id: "x", extra: true }, { extra: true }, { id: "x" }, { id: 1, extra: true }, null],
      Tree: [{ value: 1 }, { value: 1, children: [] }, { value: 1, children: [{ value: 2 }] }, { value: 1, children: [{ value: "2" }] }, { children: [] }],
      Open: [{}, { a: "x" }, { a: 1 }, { b: 2 }, { b: "2" }, { a: "x", b: 1, c: null }],
      Hostile: [JSON.parse('{"constructor": "c"}'), JSON.parse('{"constructor": 1}'), {}],
      Code: ["ABC", "AB", "abc", "ABCD", 1],
      Color: ["red", "green", "RED", null],
    };
    for (const [type, values] of Object.entries(samples)) {
      const ours = fn<(v: unknown) => boolean>(g.validate, `is${type}`);
      const theirs = ajv(type);
      for (const v of values) expect(ours(v), `${type} ${JSON.stringify(v)}`).toBe(theirs(v));
    }
  });
});

describe("seed specs: ours and ajv agree, with exact issue lists", () => {
  const WEBHOOK = { id: 1, name: "n", status: "active", topic: "order.created", hooks: [1, "x"], delivery_url: "https://h.example/x", created_at: "x" };
  const MEMBER = { id: 7, name: "Ada", username: "ada", state: "active", avatar_url: "a", web_url: "https://e.x/ada", access_level: 30, expires_at: null };

  it("webhooks", async () => {
    const g = await generateRepoSpec("specs/webhooks.openapi.yaml");
    const ajv = ajvFor(readFileSync(path.join(REPO, "specs/webhooks.openapi.yaml"), "utf8"));
    const cases: [string, unknown, string[]][] = [
      ["Webhook", WEBHOOK, []],
      ["Webhook", { ...WEBHOOK, delivery_url: "ftp://h.example/x" }, ["/delivery_url pattern"]],
      ["Webhook", { ...WEBHOOK, delivery_url: "h.example/x", status: "on" }, ["/status enum", "/delivery_url format", "/delivery_url pattern"]],
      ["WebhookCreateRequest", { webhook: { topic: "t", delivery_url: "http://x.example" } }, []],
      ["WebhookCreateRequest", { webhook: { topic: 1 } }, ["/webhook/topic type", "/webhook/delivery_url required"]],
      ["WebhookList", { webhooks: [WEBHOOK, { id: "2" }] }, ["/webhooks/1/id type"]],
      ["WebhookDelivery", { created_at: "x", anything: { goes: true } }, []],
      ["WebhookCount", { count: -1 }, ["/count minimum"]],
      ["Error", { errors: [] }, ["/errors minItems"]],
      ["Error", { errors: [{ code: "shop_api_no_webhook_found", message: "m" }, { code: "nope" }] }, ["/errors/1/code enum", "/errors/1/message required"]],
    ];
    for (const [type, value, want] of cases) {
      // The schema's name; its functions are spelled without the type's `$` (type Error$, validateError).
      const found = fn<(v: unknown) => { path: string; rule: string }[]>(g.validate, `validate${type}`)(value).map((i) => `${i.path} ${i.rule}`);
      expect(found, `${type} ${JSON.stringify(value)}`).toEqual(want);
      expect(fn<(v: unknown) => boolean>(g.validate, `is${type}`)(value)).toBe(ajv(type)(value));
    }
  });

  it("members", async () => {
    const g = await generateRepoSpec("specs/members.openapi.yaml");
    const ajv = ajvFor(readFileSync(path.join(REPO, "specs/members.openapi.yaml"), "utf8"));
    const cases: [string, unknown, string[]][] = [
      ["Member", MEMBER, []],
      ["Member", { ...MEMBER, expires_at: "2025-12-31" }, []],
      ["Member", { ...MEMBER, expires_at: "2025-02-30", access_level: 35 }, ["/access_level enum", "/expires_at format"]],
      ["Member", { ...MEMBER, id: undefined, web_url: "ada" }, ["/id required", "/web_url format"]],
      ["MemberList", [MEMBER, { ...MEMBER, name: null }], ["/1/name type"]],
      ["MemberCreate", { user_id: 1, access_level: 10 }, []],
      ["MemberCreate", { access_level: "10" }, ["/user_id required", "/access_level enum"]],
      ["MemberUpdate", { access_level: 50, expires_at: null }, ["/expires_at type"]],
    ];
    for (const [type, value, want] of cases) {
      const found = fn<(v: unknown) => { path: string; rule: string }[]>(g.validate, `validate${type}`)(value).map((i) => `${i.path} ${i.rule}`);
      expect(found, `${type} ${JSON.stringify(value)}`).toEqual(want);
      const clean = JSON.parse(JSON.stringify(value)) as unknown;
      expect(fn<(v: unknown) => boolean>(g.validate, `is${type}`)(clean)).toBe(ajv(type)(clean));
    }
  });
});
