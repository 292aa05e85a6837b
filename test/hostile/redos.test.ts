/**
 * ReDoS through the spec: the classic catastrophic patterns as an OpenAPI schema `pattern`, an OpenAPI query
 * parameter's `pattern` (the generated REST server) and an XSD `xs:pattern`, fed 100,000-character adversarial
 * inputs. A backtracking RegExp takes exponential (or, for `(.*a){12}`, degree-12 polynomial) time on them: today's
 * code never finishes. The generated code now matches them with the linear-time matcher (src/runtime/linear-pattern.ts).
 *
 * No wall-clock limit: each check's CPU time on the 100,000-character input is compared with its time on a
 * 10,000-character input of the same shape, measured in the same test (the linear baseline, ×10). Linear time gives a
 * ratio near 10, quadratic time near 100; the test allows 40. The verdicts on ordinary inputs equal JavaScript's
 * RegExp (fast-check).
 */
import fc from "fast-check";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { translateXsdPattern } from "../../src/emitters/xml-validators/xsd-regex.js";
import { memorySpecHost } from "../../src/parsers/host.js";
import { generateSpec, type OutputFile } from "../../src/pipeline/generate-files.js";
import { typecheckFiles } from "../helpers/typecheck.js";

/** The classic patterns (JSON Schema / OpenAPI spelling), the XSD spelling (implicitly anchored), an adversarial input. */
const CASES = [
  // `(a|a)*$` is not anchored at the start: it matches the empty string at the end, after trying 2^n ways before it.
  { name: "Nested", json: "(a+)+$", xsd: "(a+)+", attack: (n: number) => "a".repeat(n) + "!", matches: false },
  { name: "Overlap", json: "(a|a)*$", xsd: "(a|a)*", attack: (n: number) => "a".repeat(n) + "!", matches: true },
  { name: "Split", json: "(a|aa)+$", xsd: "(a|aa)+", attack: (n: number) => "a".repeat(n) + "!", matches: false },
  { name: "Twelve", json: "(.*a){12}", xsd: "(.*a){12}", attack: (n: number) => "a".repeat(11) + "b".repeat(n - 11), matches: false },
] as const;

const N = 100_000;
const BASE = 10_000;
const MAX_RATIO = 40;

const dir = mkdtempSync(path.join(os.tmpdir(), "specforge-redos-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function load(files: readonly OutputFile[], entry: string): Promise<Record<string, unknown>> {
  for (const f of files) {
    mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
    writeFileSync(path.join(dir, f.path), f.content);
  }
  expect(typecheckFiles(new Map(files.filter((f) => f.path.endsWith(".ts")).map((f) => [f.path, f.content])))).toEqual([]);
  return (await import(pathToFileURL(path.join(dir, entry)).href)) as Record<string, unknown>;
}

const yamlString = (s: string) => JSON.stringify(s);

const OPENAPI = `openapi: 3.0.3
info: { title: Redos, version: "1" }
paths:
  /items:
    get:
      operationId: listItems
      parameters:
${CASES.map((c) => `        - { name: ${c.name.toLowerCase()}, in: query, schema: { type: string, pattern: ${yamlString(c.json)} } }`).join("\n")}
      responses:
        "204": { description: none }
components:
  schemas:
${CASES.map((c) => `    ${c.name}: { type: string, pattern: ${yamlString(c.json)} }`).join("\n")}
    Safe: { type: string, pattern: "^[a-z0-9_-]+$" }
`;

const XSD = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:redos" xmlns:r="urn:redos">
${CASES.map((c) => `  <xs:simpleType name="${c.name}"><xs:restriction base="xs:string"><xs:pattern value="${c.xsd}"/></xs:restriction></xs:simpleType>`).join("\n")}
  <xs:simpleType name="Safe"><xs:restriction base="xs:string"><xs:pattern value="[a-z]+"/></xs:restriction></xs:simpleType>
  <xs:element name="safe" type="r:Safe"/>
</xs:schema>`;

let api: readonly OutputFile[];
let validate: Record<string, unknown>;
let handler: (r: Request) => Promise<Response>;
let xsd: readonly OutputFile[];
let xsdValidate: Record<string, unknown>;

beforeAll(async () => {
  api = generateSpec({ file: "/spec/redos.yaml", display: "redos.yaml", outDir: "api" }, memorySpecHost({ "/spec/redos.yaml": OPENAPI })).files;
  const mod = await load(api, "api/index.ts");
  validate = await import(pathToFileURL(path.join(dir, "api/validate.ts")).href);
  const create = mod.createRedosServer as (h: object, o: object) => (r: Request) => Promise<Response>;
  handler = create({ listItems: () => ({ status: 204, body: undefined }) }, { development: true });
  xsd = generateSpec({ file: "/spec/redos.xsd", display: "redos.xsd", outDir: "xsd" }, memorySpecHost({ "/spec/redos.xsd": XSD })).files;
  xsdValidate = await load(xsd, "xsd/validate.ts");
}, 120_000);

const content = (files: readonly OutputFile[], suffix: string) => files.find((f) => f.path.endsWith(suffix))!.content;

describe("catastrophic spec patterns match in linear time", () => {
  it("the generated code uses the linear-time matcher for them and keeps RegExp for a safe pattern", () => {
    for (const c of CASES) {
      expect(content(api, "/validate.ts")).toContain(`linearPattern(${JSON.stringify(c.json)}`);
      expect(content(api, "/server.ts")).toContain(`linearPattern(${JSON.stringify(c.json)}`);
      expect(content(xsd, "/validate.ts")).toContain(`linearPattern(${JSON.stringify(xsdSource(c.xsd))}, "u")`);
    }
    expect(content(api, "/validate.ts")).toContain(`new RegExp("^[a-z0-9_-]+$")`);
    expect(content(xsd, "/validate.ts")).toContain(`new RegExp("^(?:[a-z]+)$", "u")`);
  });

  for (const c of CASES) {
    it(`${c.json}: OpenAPI validator, REST server and XSD validator scale linearly on ${N} characters`, async () => {
      const is = validate[`is${c.name}`] as (v: unknown) => boolean;
      const xsdCheck = xsdValidate[`validate${c.name}`] as (v: unknown) => unknown[];
      const param = c.name.toLowerCase();
      const serve = async (s: string) => (await handler(new Request(`http://h/items?${param}=${encodeURIComponent(s)}`))).status;
      const attack = c.attack(N);
      // The verdicts on the adversarial input (XSD patterns are anchored: refused).
      expect([is(attack), xsdCheck(attack).length, await serve(attack)]).toEqual([c.matches, 1, c.matches ? 204 : 400]);
      const ratios = {
        openapi: await ratioOf((s) => is(s), c),
        xsd: await ratioOf((s) => xsdCheck(s), c),
        server: await ratioOf(serve, c),
      };
      for (const [where, r] of Object.entries(ratios)) expect([where, r <= MAX_RATIO ? "linear" : `ratio ${r.toFixed(1)}`]).toEqual([where, "linear"]);
    }, 120_000);
  }

  it("verdicts on ordinary inputs equal JavaScript's RegExp, in all three", async () => {
    const text = fc.array(fc.constantFrom("a", "aa", "b", "!", "", "é"), { maxLength: 14 }).map((p) => p.join(""));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CASES), text, async (c, s) => {
        const expected = new RegExp(c.json, "u").test(s);
        expect((validate[`is${c.name}`] as (v: unknown) => boolean)(s)).toBe(expected);
        expect((xsdValidate[`validate${c.name}`] as (v: unknown) => unknown[])(s).length === 0).toBe(new RegExp(xsdSource(c.xsd), "u").test(s));
        expect((await handler(new Request(`http://h/items?${c.name.toLowerCase()}=${encodeURIComponent(s)}`))).status).toBe(expected ? 204 : 400);
      }),
      { seed: 32, numRuns: 400 },
    );
  });
});

/**
 * time(N) / time(BASE) of `check` on the case's adversarial inputs: the fastest of five interleaved runs of each,
 * after a warm-up run of each.
 */
async function ratioOf(check: (s: string) => unknown, c: (typeof CASES)[number]): Promise<number> {
  const small = c.attack(BASE);
  const big = c.attack(N);
  // CPU time of this process, not wall-clock time: on a loaded machine a long run is preempted more often than a
  // short one, which would bias the ratio upwards.
  const time = async (s: string) => {
    const t0 = process.cpuUsage();
    await check(s);
    const t = process.cpuUsage(t0);
    return (t.user + t.system) / 1000;
  };
  await time(small);
  await time(big);
  let base = Infinity;
  let large = Infinity;
  for (let k = 0; k < 5; k++) {
    base = Math.min(base, await time(small));
    large = Math.min(large, await time(big));
  }
  return large / Math.max(base, 0.05);
}


/** The XSD pattern as JavaScript reads it (anchored; `.` is [^\n\r]). */
function xsdSource(p: string): string {
  const t = translateXsdPattern(p);
  if (!("source" in t)) throw new Error(t.unsupported);
  return t.source;
}
