/**
 * OpenAPI JSON validation: our generated validators (is<T> and validate<T>) against ajv (compiled from the same
 * schemas, JSON Schema 2020-12 + ajv-formats) and zod (hand-written equivalent schemas), on valid and invalid
 * Webhook and Member objects. Generated code goes to bench/.cache/ (gitignored), rebuilt on every run from specs/.
 *
 * Fair pairs: is<T> stops at the first failure like ajv's default mode; validate<T> lists every issue like ajv with
 * allErrors and like zod (which always collects every issue). Measured with the harness's `compare`, each case (type
 * and input) in a process of its own.
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

/** One type on one input: is<T> against the first-error validators, validate<T> against the all-errors ones. */
async function runCase(c: Case): Promise<BenchResult[]> {
  const spec = c.type === "Webhook" ? "specs/webhooks.openapi.yaml" : "specs/members.openapi.yaml";
  const ours = await generated(spec);
  const ajv = ajvFor(spec, false)(c.type);
  const ajvAll = ajvFor(spec, true)(c.type);
  const zod = c.type === "Webhook" ? zodWebhook : zodMember;
  const value = c.type === "Webhook" ? (c.label === "valid" ? WEBHOOK_VALID : WEBHOOK_INVALID) : c.label === "valid" ? MEMBER_VALID : MEMBER_INVALID;
  const is = ours[`is${c.type}`]!;
  const validate = ours[`validate${c.type}`]!;
  // Each side must agree on the verdict, or the comparison means nothing.
  const verdicts = [Boolean(is(value)), ajv(value), zod.safeParse(value).success];
  if (new Set(verdicts).size !== 1) throw new Error(`${caseName(c)}: verdicts differ (ours, ajv, zod): ${verdicts.join(", ")}`);
  if (verdicts[0] !== (c.label === "valid")) throw new Error(`${caseName(c)}: every validator says ${verdicts[0]}`);
  return [
    compare(`${caseName(c)}: is${c.type} vs first-error`, () => is(value), { ajv: () => ajv(value), zod: () => zod.safeParse(value) }),
    compare(`${caseName(c)}: validate${c.type} vs all-errors`, () => validate(value), { "ajv allErrors": () => ajvAll(value), zod: () => zod.safeParse(value) }),
  ];
}

/** Every case (type and input) in a child process of its own (see runCasesIsolated). */
export const suite: BenchSuite = {
  name: "rest-validators",
  run: () => runCasesIsolated(import.meta.url, CASES.map(caseName)),
};

await runIsolatedCaseIfChild(import.meta.url, async (name) => {
  const c = CASES.find((x) => caseName(x) === name);
  if (!c) throw new Error(`no rest-validators bench case ${name}`);
  return runCase(c);
});
