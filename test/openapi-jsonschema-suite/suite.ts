/**
 * The official JSON Schema Test Suite (../shared/corpus/json-schema-test-suite) run through generated validators.
 *
 * Each keyword file becomes one OpenAPI document: draft2020-12 cases as components of a 3.1 document, draft4 cases
 * as components of a 3.0 document. Every case's schema is the component `C<n>`, its `$ref`s rewritten to point into
 * the component (`#/$defs/x` -> `#/components/schemas/C3/$defs/x`). The document is generated once and its
 * validate.ts imported once; every `data` goes through `isC<n>` and `validateC<n>` and is compared with `valid`.
 * ajv (Ajv2020 + ajv-formats for 2020-12; draft-07 ajv on the draft4 schema with its boolean exclusive bounds
 * rewritten) runs on the same cases. A case refused by generation fails all its tests (the refusal is kept).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { SpecError, SpecErrors } from "../../src/errors.js";
import { memorySpecHost } from "../../src/parsers/host.js";
import { generateSpec } from "../../src/pipeline/generate-files.js";
import { REPO } from "../helpers/seeds.js";
import { pointRuntimeAt } from "../helpers/source-runtime.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export const SUITE = path.resolve(REPO, "../shared/corpus/json-schema-test-suite/tests");
const RUNTIME = path.join(REPO, "src/runtime/index.ts");

export type Draft = "draft2020-12" | "draft4";

/** The generator options a part is run with (options.ts: `jsonSchema`, `formats`). */
export interface Mode {
  readonly jsonSchema: "openapi" | "exact";
  readonly formats: "assert" | "annotate";
}

/** JSON Schema exactly: what the required cases are run with. */
export const EXACT: Mode = { jsonSchema: "exact", formats: "annotate" };
/** The defaults OpenAPI users get (docs/validators.md lists where they differ from JSON Schema). */
export const DEFAULTS: Mode = { jsonSchema: "openapi", formats: "assert" };

/** A folder of the suite that is run, and how its verdicts count. */
export interface Part {
  readonly draft: Draft;
  /** Folder under tests/, e.g. "draft2020-12" or "draft2020-12/optional/format". */
  readonly folder: string;
  readonly required: boolean;
  readonly mode: Mode;
}

export const PARTS: readonly Part[] = [
  { draft: "draft2020-12", folder: "draft2020-12", required: true, mode: EXACT },
  // The optional format cases are about format assertion: run with it on (the vocabulary's assertion mode).
  { draft: "draft2020-12", folder: "draft2020-12/optional/format", required: false, mode: { jsonSchema: "exact", formats: "assert" } },
  { draft: "draft4", folder: "draft4", required: true, mode: EXACT },
];

interface SuiteTest {
  readonly description: string;
  readonly data: unknown;
  readonly valid: boolean;
}

interface SuiteGroup {
  readonly description: string;
  readonly schema: unknown;
  readonly tests: readonly SuiteTest[];
}

/** One test of the suite, named "<folder>/<file> | <group> | <test>" (see caseKey). */
export interface CaseResult {
  readonly key: string;
  readonly groupKey: string;
  readonly file: string;
  /** Why it is not run (from the not-applicable list), if so. */
  readonly notApplicable?: string;
  /** Our verdicts agree with `valid` (is<T> and validate<T> both). */
  readonly ours?: boolean;
  readonly ajv?: boolean;
  /** What went wrong for us, when `ours` is false. */
  readonly detail?: string;
}

export interface FileResult {
  readonly folder: string;
  readonly file: string;
  readonly required: boolean;
  readonly cases: readonly CaseResult[];
  /** Warnings the document produced, by group key. */
  readonly warnings: ReadonlyMap<string, readonly string[]>;
}

export function groupKeyOf(folder: string, file: string, group: string): string {
  return `${folder}/${file} | ${group}`;
}

export function caseKey(folder: string, file: string, group: string, test: string): string {
  return `${groupKeyOf(folder, file, group)} | ${test}`;
}

/** The suite's keyword files of a part, sorted. */
export function suiteFiles(part: Part): string[] {
  const dir = path.join(SUITE, part.folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith(".json")).sort();
}

export function readGroups(part: Part, file: string): SuiteGroup[] {
  return JSON.parse(readFileSync(path.join(SUITE, part.folder, file), "utf8")) as SuiteGroup[];
}

// ---------------------------------------------------------------------------------------------------------------
// Schemas as components

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Keywords whose values are data, never schemas (a `$ref` key in them is a value). */
const DATA_KEYWORDS = new Set(["enum", "const", "default", "examples", "example"]);

/** `o[key] = value` that keeps a "__proto__" key an own property (as JSON.parse made it). */
function put(o: { [key: string]: Json }, key: string, value: Json): void {
  Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
}

/** `$ref`s (and `$dynamicRef`/`$recursiveRef`) into the case's own schema, pointed at the component instead. */
function rehome(schema: Json, base: string, draft: Draft, root = true): Json {
  if (Array.isArray(schema)) return schema.map((s) => rehome(s, base, draft, false));
  if (schema === null || typeof schema !== "object") return schema;
  const out: { [key: string]: Json } = {};
  for (const [k, v] of Object.entries(schema)) {
    if (root && k === "$schema") continue;
    if (DATA_KEYWORDS.has(k)) {
      put(out, k, v);
      continue;
    }
    if ((k === "$ref" || k === "$dynamicRef" || k === "$recursiveRef") && typeof v === "string" && v.startsWith("#")) {
      put(out, k, v === "#" || v.startsWith("#/") ? `${base}${v.slice(1)}` : v);
      continue;
    }
    put(out, k, rehome(v, base, draft, false));
  }
  return out;
}

/** The OpenAPI document of one keyword file: one component per case, one case per line (errors name the line). */
function documentOf(draft: Draft, schemas: ReadonlyMap<number, unknown>): string {
  const head = draft === "draft2020-12" ? '"openapi":"3.1.0"' : '"openapi":"3.0.3"';
  const lines = [`{${head},"info":{"title":"JSON Schema Test Suite","version":"1"},"paths":{},"components":{"schemas":{`];
  const entries = [...schemas];
  entries.forEach(([i, s], n) => {
    const schema = rehome(s as Json, `#/components/schemas/C${i}`, draft);
    lines.push(`${JSON.stringify(`C${i}`)}:${JSON.stringify(schema)}${n < entries.length - 1 ? "," : ""}`);
  });
  lines.push("}}}");
  return lines.join("\n");
}

type Module = Record<string, (value: unknown) => unknown>;

interface Loaded {
  readonly module?: Module;
  /** Cases left out because generation refused them: index -> the error. */
  readonly refused: ReadonlyMap<number, string>;
  /** Warnings by case index. */
  readonly warnings: ReadonlyMap<number, string[]>;
}

const ENTRY = "/suite/api.json";

/**
 * Generate the document; a case that generation refuses (an error located on its line, or an unlocated emitter
 * error found by generating cases one by one) is left out and the rest generated again.
 */
async function generateAndLoad(draft: Draft, mode: Mode, schemas: Map<number, unknown>, dir: string, tag: string): Promise<Loaded> {
  const refused = new Map<number, string>();
  const order = [...schemas.keys()];
  const lineOf = (line: number): number | undefined => order[line - 2];
  for (let attempt = 0; attempt < 50 && schemas.size > 0; attempt++) {
    const text = documentOf(draft, schemas);
    try {
      const out = generateSpec({ file: ENTRY, display: "api.json", outDir: tag, ...mode }, memorySpecHost({ [ENTRY]: text }));
      const warnings = new Map<number, string[]>();
      for (const w of out.warnings) {
        const i = lineOf(w.line);
        if (i !== undefined) warnings.set(i, [...(warnings.get(i) ?? []), w.detail]);
      }
      const files = out.files.filter((f) => /\/(types|validate)\.ts$/.test(f.path));
      for (const f of files) {
        const file = path.join(dir, f.path);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, pointRuntimeAt(f.content, RUNTIME));
      }
      const module = (await import(pathToFileURL(path.join(dir, tag, "validate.ts")).href)) as Module;
      return { module, refused, warnings };
    } catch (e) {
      const errors = e instanceof SpecErrors ? e.errors : e instanceof SpecError ? [e] : [];
      const located = errors.map((err) => [lineOf(err.line), err.message] as const).filter(([i]) => i !== undefined);
      if (located.length > 0) {
        for (const [i, message] of located) {
          refused.set(i!, message);
          schemas.delete(i!);
        }
        order.splice(0, order.length, ...schemas.keys());
        continue;
      }
      // Unlocated (an emitter's error): find the cases that cause it one at a time.
      let found = false;
      for (const [i, s] of schemas) {
        try {
          generateSpec({ file: ENTRY, display: "api.json", outDir: `${tag}x`, ...mode }, memorySpecHost({ [ENTRY]: documentOf(draft, new Map([[i, s]])) }));
        } catch (err) {
          refused.set(i, (err as Error).message);
          schemas.delete(i);
          found = true;
        }
      }
      order.splice(0, order.length, ...schemas.keys());
      if (!found) throw e;
    }
  }
  return { refused, warnings: new Map() };
}

// ---------------------------------------------------------------------------------------------------------------
// ajv

/** draft4's boolean exclusiveMinimum/Maximum as draft-07's numeric ones (ajv 8 has no draft-04 mode built in). */
function draft4ToDraft7(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(draft4ToDraft7);
  if (schema === null || typeof schema !== "object") return schema;
  const out: { [key: string]: Json } = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === "$schema") continue;
    if ((k === "exclusiveMinimum" || k === "exclusiveMaximum") && typeof v === "boolean") continue;
    put(out, k, draft4ToDraft7(v));
  }
  const obj = schema as { [key: string]: Json };
  if (obj["exclusiveMinimum"] === true && typeof obj["minimum"] === "number") {
    out["exclusiveMinimum"] = obj["minimum"];
    delete out["minimum"];
  }
  if (obj["exclusiveMaximum"] === true && typeof obj["maximum"] === "number") {
    out["exclusiveMaximum"] = obj["maximum"];
    delete out["maximum"];
  }
  return out;
}

function ajvValidator(draft: Draft, schema: unknown): ValidateFunction | string {
  try {
    if (draft === "draft2020-12") {
      const ajv = addFormats(new Ajv2020({ strict: false, logger: false }) as unknown as Ajv);
      return ajv.compile(schema as object);
    }
    const ajv = addFormats(new Ajv({ strict: false, logger: false }));
    return ajv.compile(draft4ToDraft7(schema as Json) as object);
  } catch (e) {
    return (e as Error).message;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Running

/** Run one keyword file. `notApplicable(key, groupKey)` says why a case is not run (or undefined). */
export async function runFile(
  part: Part,
  file: string,
  notApplicable: (key: string, groupKey: string) => string | undefined,
  workDir: string,
): Promise<FileResult> {
  const groups = readGroups(part, file);
  const schemas = new Map<number, unknown>();
  groups.forEach((g, i) => {
    const gk = groupKeyOf(part.folder, file, g.description);
    const allOut = g.tests.every((t) => notApplicable(caseKey(part.folder, file, g.description, t.description), gk) !== undefined);
    if (!allOut) schemas.set(i, g.schema);
  });
  const tag = `${part.folder.replace(/[^A-Za-z0-9]+/g, "_")}__${part.mode.jsonSchema}_${part.mode.formats}__${file.replace(/\W+/g, "_")}`;
  const loaded = schemas.size > 0 ? await generateAndLoad(part.draft, part.mode, schemas, workDir, tag) : { refused: new Map<number, string>(), warnings: new Map<number, string[]>() };
  const cases: CaseResult[] = [];
  const warnings = new Map<string, string[]>();
  groups.forEach((g, i) => {
    const gk = groupKeyOf(part.folder, file, g.description);
    const w = loaded.warnings.get(i);
    if (w) warnings.set(gk, w);
    const theirs = ajvValidator(part.draft, g.schema);
    for (const t of g.tests) {
      const key = caseKey(part.folder, file, g.description, t.description);
      const na = notApplicable(key, gk);
      if (na !== undefined) {
        cases.push({ key, groupKey: gk, file, notApplicable: na });
        continue;
      }
      let ajvOk = false;
      if (typeof theirs !== "string") {
        try {
          ajvOk = theirs(t.data) === t.valid;
        } catch {
          ajvOk = false;
        }
      }
      const refusal = loaded.refused.get(i);
      if (refusal !== undefined || !loaded.module) {
        cases.push({ key, groupKey: gk, file, ours: false, ajv: ajvOk, detail: `refused: ${refusal ?? "no module"}` });
        continue;
      }
      const is = loaded.module[`isC${i}`];
      const validate = loaded.module[`validateC${i}`];
      if (!is || !validate) {
        cases.push({ key, groupKey: gk, file, ours: false, ajv: ajvOk, detail: `no isC${i}/validateC${i}` });
        continue;
      }
      try {
        const verdict = is(t.data) === true;
        const issues = validate(t.data) as readonly unknown[];
        const ok = verdict === t.valid && (issues.length === 0) === t.valid;
        cases.push({
          key, groupKey: gk, file, ours: ok, ajv: ajvOk,
          ...(ok ? {} : { detail: `is: ${verdict}, validate: ${issues.length} issue(s), expected ${t.valid ? "valid" : "invalid"}` }),
        });
      } catch (e) {
        cases.push({ key, groupKey: gk, file, ours: false, ajv: ajvOk, detail: `threw: ${(e as Error).message}` });
      }
    }
  });
  return { folder: part.folder, file, required: part.required, cases, warnings };
}

export async function runSuite(notApplicable: (key: string, groupKey: string) => string | undefined, parts: readonly Part[] = PARTS): Promise<FileResult[]> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), "specforge-jsonschema-suite-"));
  try {
    const out: FileResult[] = [];
    for (const part of parts) for (const file of suiteFiles(part)) out.push(await runFile(part, file, notApplicable, workDir));
    return out;
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The table in docs/validators.md

export const TABLE_START = "<!-- json-schema-suite:start (generated by test/openapi-jsonschema-suite; SPECFORGE_UPDATE_SUITE_DOCS=1 rewrites it) -->";
export const TABLE_END = "<!-- json-schema-suite:end -->";

/** The counts per keyword file: `results` run with the parts' modes, `defaults` the same files with the default options. */
export function countsTable(results: readonly FileResult[], defaults: readonly FileResult[]): string {
  const rows: string[] = [];
  const totals = new Map<string, { tests: number; na: number; ours: number; defaults: number; ajv: number }>();
  const passed = (cases: readonly CaseResult[]): number => cases.filter((c) => c.notApplicable === undefined && c.ours).length;
  for (const r of results) {
    const run = r.cases.filter((c) => c.notApplicable === undefined);
    const d = defaults.find((x) => x.folder === r.folder && x.file === r.file);
    const row = { tests: r.cases.length, na: r.cases.length - run.length, ours: passed(r.cases), defaults: d ? passed(d.cases) : 0, ajv: run.filter((c) => c.ajv).length };
    const t = totals.get(r.folder) ?? { tests: 0, na: 0, ours: 0, defaults: 0, ajv: 0 };
    totals.set(r.folder, { tests: t.tests + row.tests, na: t.na + row.na, ours: t.ours + row.ours, defaults: t.defaults + row.defaults, ajv: t.ajv + row.ajv });
    rows.push(`| ${r.folder} | ${r.file.replace(/\.json$/, "")} | ${row.tests} | ${row.na} | ${row.ours} | ${row.defaults} | ${row.ajv} |`);
  }
  const summary = [...totals].map(([folder, t]) => `| ${folder} | **all** | ${t.tests} | ${t.na} | **${t.ours}** of ${t.tests - t.na} | ${t.defaults} of ${t.tests - t.na} | ${t.ajv} of ${t.tests - t.na} |`);
  return [
    TABLE_START,
    "| Suite folder | Keyword file | Tests | Not applicable | specforge, JSON Schema exactly | specforge, default options | ajv |",
    "|---|---|---:|---:|---:|---:|---:|",
    ...summary,
    ...rows,
    TABLE_END,
  ].join("\n");
}

export const DOC = path.join(REPO, "docs/validators.md");
