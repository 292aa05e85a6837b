/**
 * OpenAPI JSON validation: our generated validators (is<T> and validate<T>) against typia (validators its generator
 * writes ahead of time from the TypeScript types we generate), ajv (compiled from the same schemas, JSON Schema
 * 2020-12 + ajv-formats) and zod (hand-written equivalent schemas), on valid and invalid Webhook and Member objects.
 * Generated code (ours and typia's) goes to bench/.cache/ (gitignored), rebuilt on every run.
 *
 * Fair pairs: is<T> stops at the first failure like typia.is and ajv's default mode; validate<T> lists every issue
 * like typia.validate, ajv with allErrors and zod (which always collects every issue). Measured with the harness's
 * `compare`, each case (type and input) in a process of its own; one row per peer, from the same measurement.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { nodeSpecHost } from "../src/parsers/host.js";
import { generateSpec } from "../src/pipeline/generate-files.js";
import { generatedImport, generateTypia } from "./typia-generate.js";
import { compare, runCasesIsolated, runIsolatedCaseIfChild, type BenchResult, type BenchSuite } from "./harness.js";

const REPO = path.resolve(import.meta.dirname, "..");
const CACHE = path.join(import.meta.dirname, ".cache", "rest-validators");
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Validators = Record<string, (value: unknown) => unknown>;

/** Generate validate.ts (and what it imports) for a spec into the cache and import it. */
async function generated(spec: string): Promise<Validators> {
  const dir = path.basename(spec).replace(/\..*$/, "");
  const runtime = path.relative(path.join(CACHE, dir), path.join(REPO, "src/runtime/index.ts")).split(path.sep).join("/");
  const out = generateSpec({ file: path.join(REPO, spec), display: spec, outDir: dir, runtimeModule: runtime }, nodeSpecHost({ cwd: REPO }));
  for (const f of out.files) {
    const file = path.join(CACHE, f.path);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, f.content);
  }
  return (await import(pathToFileURL(path.join(CACHE, dir, "validate.ts")).href)) as Validators;
}

const TYPIA = path.join(CACHE, "typia");

/**
 * typia's input: one `typia.createIs` and one `typia.createValidate` per type, on the types in generated/. typia
 * reads `@format uri`, `@format date` and `@pattern` from their JSDoc but not `@format int64`, so the integer check
 * every other side makes on `id` is added as typia's own tag (its int64 range check is wider than our safe-integer
 * one; the inputs are far from either bound).
 */
const typesOf = (dir: string) => generatedImport(REPO, TYPIA, `${dir}/types.js`);
const TYPIA_INPUT = `import typia, { type tags } from "typia";
import type { Webhook as WebhookType } from "${typesOf("webhooks")}";
import type { Member as MemberType } from "${typesOf("members")}";

type Webhook = Omit<WebhookType, "id"> & { id?: number & tags.Type<"int64"> };
type Member = Omit<MemberType, "id"> & { id: number & tags.Type<"int64"> };

export const isWebhook = typia.createIs<Webhook>();
export const validateWebhook = typia.createValidate<Webhook>();
export const isMember = typia.createIs<Member>();
export const validateMember = typia.createValidate<Member>();
`;

/** typia's generated validators (generateTypia ran in the parent process). */
async function typia(): Promise<Validators> {
  return (await import(pathToFileURL(path.join(TYPIA, "out", "validators.ts")).href)) as Validators;
}

/** ajv validators for the spec's component schemas, compiled once (default mode and allErrors). */
function ajvFor(spec: string, allErrors: boolean): (name: string) => (value: unknown) => boolean {
  const doc = parseYaml(readFileSync(path.join(REPO, spec), "utf8")) as { components: { schemas: object } };
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors }));
  ajv.addSchema({ $id: "spec", components: doc.components });
  return (name) => ajv.compile({ $ref: `spec#/components/schemas/${name}` });
}

const zodWebhook = z.object({
  id: z.number().int().optional(),
  name: z.string().optional(),
  status: z.enum(["active", "paused", "disabled"]).optional(),
  topic: z.string().optional(),
  resource: z.string().optional(),
  event: z.string().optional(),
  hooks: z.array(z.unknown()).optional(),
  delivery_url: z.url().regex(/^https?:\/\//u).optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});

const zodMember = z.object({
  id: z.number().int(),
  name: z.string(),
  username: z.string(),
  state: z.string(),
  avatar_url: z.string(),
  web_url: z.url(),
  access_level: z.union([z.literal(10), z.literal(20), z.literal(30), z.literal(40), z.literal(50)]),
  expires_at: z.iso.date().nullable().optional(),
});

const WEBHOOK_VALID = {
  id: 142,
  name: "Order created",
  status: "active",
  topic: "order.created",
  resource: "order",
  event: "created",
  hooks: ["shop_api_order_created"],
  delivery_url: "https://hooks.example.com/orders?token=abc",
  created_at: "2024-05-01T10:11:12",
  updated_at: "2024-05-02T08:00:00",
};
const WEBHOOK_INVALID = { ...WEBHOOK_VALID, status: "archived", delivery_url: "ftp://hooks.example.com", id: 1.5 };

const MEMBER_VALID = {
  id: 7,
  name: "Ada Lovelace",
  username: "ada",
  state: "active",
  avatar_url: "https://example.com/ada.png",
  web_url: "https://example.com/ada",
  access_level: 30,
  expires_at: "2025-12-31",
};
const MEMBER_INVALID = { ...MEMBER_VALID, access_level: 35, expires_at: "2025-02-30", web_url: "not a url" };

interface Case {
  readonly type: "Webhook" | "Member";
  readonly label: "valid" | "invalid";
}
const CASES: readonly Case[] = [
  { type: "Webhook", label: "valid" }, { type: "Webhook", label: "invalid" },
  { type: "Member", label: "valid" }, { type: "Member", label: "invalid" },
];
const caseName = (c: Case) => `${c.type} ${c.label}`;

/** How many equal input objects a side cycles through (a power of two). */
const INPUTS = 16;

/** One row per peer from one comparison: the harness reports the fastest peer, the goals name each one. */
function perPeer(r: BenchResult): BenchResult[] {
  return Object.entries(r.peers ?? {}).map(([peerName, peer]) => ({
    ...r,
    name: `${r.name} vs ${peerName}`,
    peer,
    peerName,
    ratio: Number((r.ours / peer).toFixed(2)),
    peers: undefined,
  }));
}

/** One type on one input: is<T> against the first-error validators, validate<T> against the all-errors ones. */
async function runCase(c: Case): Promise<BenchResult[]> {
  const spec = c.type === "Webhook" ? "specs/webhooks.openapi.yaml" : "specs/members.openapi.yaml";
  const ours = await generated(spec);
  const theirs = await typia();
  const ajv = ajvFor(spec, false)(c.type);
  const ajvAll = ajvFor(spec, true)(c.type);
  const zod = c.type === "Webhook" ? zodWebhook : zodMember;
  const value = c.type === "Webhook" ? (c.label === "valid" ? WEBHOOK_VALID : WEBHOOK_INVALID) : c.label === "valid" ? MEMBER_VALID : MEMBER_INVALID;
  const is = ours[`is${c.type}`]!;
  const validate = ours[`validate${c.type}`]!;
  const typiaIs = theirs[`is${c.type}`]!;
  const typiaValidate = theirs[`validate${c.type}`]!;
  // Each side must agree on the verdict, or the comparison means nothing.
  const verdicts = [
    Boolean(is(value)),
    (validate(value) as unknown[]).length === 0,
    Boolean(typiaIs(value)),
    (typiaValidate(value) as { success: boolean }).success,
    ajv(value),
    ajvAll(value),
    zod.safeParse(value).success,
  ];
  if (new Set(verdicts).size !== 1) throw new Error(`${caseName(c)}: verdicts differ (ours is/validate, typia is/validate, ajv, ajv allErrors, zod): ${verdicts.join(", ")}`);
  if (verdicts[0] !== (c.label === "valid")) throw new Error(`${caseName(c)}: every validator says ${verdicts[0]}`);
  // Every call gets one of several equal objects, each parsed from the JSON text as a server would: called on one
  // object over and over, the optimizer hoisted typia's whole check of the invalid Webhook out of the loop (2 ns a
  // call, an empty loop's iteration), and whether it did changed from run to run (145-505 M calls/s), so that row
  // measured the loop. A side's objects are its own, and so is its place in them.
  const text = JSON.stringify(value);
  const on = (check: (value: unknown) => unknown): (() => unknown) => {
    const inputs = Array.from({ length: INPUTS }, () => JSON.parse(text) as unknown);
    let i = 0;
    return () => check(inputs[i++ & (INPUTS - 1)]);
  };
  return [
    ...perPeer(compare(`${caseName(c)}: is${c.type}`, on(is), { typia: on(typiaIs), ajv: on(ajv), zod: on((v) => zod.safeParse(v)) })),
    ...perPeer(compare(`${caseName(c)}: validate${c.type}`, on(validate), { typia: on(typiaValidate), "ajv allErrors": on(ajvAll), zod: on((v) => zod.safeParse(v)) })),
  ];
}

/** Every case (type and input) in a child process of its own (see runCasesIsolated). */
export const suite: BenchSuite = {
  name: "rest-validators",
  run: () => {
    // typia's generator runs a TypeScript program (seconds): once here, before the cases that import its output.
    generateTypia(REPO, TYPIA, TYPIA_INPUT);
    return runCasesIsolated(import.meta.url, CASES.map(caseName));
  },
};

await runIsolatedCaseIfChild(import.meta.url, async (name) => {
  const c = CASES.find((x) => caseName(x) === name);
  if (!c) throw new Error(`no rest-validators bench case ${name}`);
  return runCase(c);
});
