/**
 * One W3C XSD test group through specforge, in this process: generate from the schema (in memory), load the
 * generated code (load-in-memory.ts), then per instance document:
 * - valid instance: decode it with the codec of its root element, run the generated validator (no issue expected),
 *   encode the value, decode the output again (the same value expected); the output must be schema-valid to libxml2
 *   (xmllint --schema), checked in one xmllint run per group over every output and original instance; for an XSD 1.1
 *   group, to python's xmlschema XSD 1.1 validator instead (judge.ts: one long-lived helper process, one request per
 *   group);
 * - invalid instance: the decoder or the generated validator must reject it (a payload error or an issue), without
 *   crashing.
 * Type-checking the generated code (strict tsc) is done for many groups at once (typecheckGroups), tsc being slow.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { assignNames } from "../../src/naming/assign-names.js";
import { decodeSpecText, nodeSpecHost } from "../../src/parsers/host.js";
import { generateSpec, type OutputFile } from "../../src/pipeline/generate-files.js";
import * as runtime from "../../src/runtime/index.js";
import { typecheckFileSets } from "../../test/helpers/typecheck.js";
import { judgeFiles } from "./judge.js";
import { loadInMemory } from "./load-in-memory.js";
import { XSDTESTS, type InstanceCase, type TestGroup } from "./suite.js";

/**
 * What became of one case. `pass` for a valid instance: decoded, no validator issue, re-encoded, schema-valid to
 * libxml2, decodes to the same value; for an invalid instance: rejected. `na`: not applicable (libxml2 itself
 * rejects the schema or the original valid instance, so it cannot judge our output; the schema needs a remote
 * document). Anything else is a failure class (FAILURE_CLASSES).
 */
export type Outcome = "pass" | "na" | FailureClass;

export const FAILURE_CLASSES = {
  "generate-refused": "generation reports an error for a schema that is valid XSD (1.0, or 1.1 for an XSD 1.1 group)",
  "generate-crash": "generation throws something other than a located spec error",
  "load-error": "the generated code does not load (transpile or module evaluation error)",
  "no-element-codec": "the instance's root element has no generated codec",
  "decode-rejects": "a valid instance is refused by the decoder",
  "decode-crash": "the decoder throws something other than a payload error",
  "validator-rejects": "the generated validator reports issues on a valid instance",
  "encode-crash": "encoding the decoded value throws",
  "roundtrip-differs": "the re-encoded XML decodes to a different value",
  "output-invalid": "the judge (libxml2; xmlschema for an XSD 1.1 group) finds the re-encoded XML not valid against the schema",
  accepted: "an invalid instance is accepted by decoder and validator",
  "tsc-errors": "the generated code has strict tsc errors",
} as const;
export type FailureClass = keyof typeof FAILURE_CLASSES;

export interface CaseResult {
  readonly id: string;
  readonly valid: boolean;
  readonly outcome: Outcome;
  readonly detail?: string;
}

export interface GroupResult {
  readonly id: string;
  readonly set: string;
  /** The XSD version the group ran under (its judge: libxml2 for 1.0, xmlschema's XSD 1.1 validator for 1.1). */
  readonly version: "1.0" | "1.1";
  readonly generated: boolean;
  readonly cases: CaseResult[];
  /** The generated files, kept only when asked (for typecheckGroups). */
  readonly files?: ReadonlyMap<string, string>;
}

const RUNTIME_SPECIFIER = "specforge/runtime";

/**
 * The runner's XML catalog (conformance/xsd/catalog/): the XLink and xml: schemas the introspection set's
 * common/xsts.xsd imports from www.w3.org, authored from the W3C specifications; for specforge and xmllint alike.
 */
export const RUNNER_CATALOG = path.join(import.meta.dirname, "catalog", "catalog.xml");

/** Payload errors, by name as src/convert does: anything else out of a decoder is a crash. */
const PAYLOAD_ERRORS = new Set(["XmlParseError", "XmlDecodeError", "ValidationError", "XmlLimitError"]);

const short = (e: unknown): string => {
  const err = e as { name?: string; message?: string };
  return `${err?.name ?? "Error"}: ${String(err?.message ?? e).split("\n")[0]!.slice(0, 300)}`;
};

export interface RunOptions {
  /** A folder for xmllint's input files (emptied per group). */
  readonly work: string;
  /** Keep the generated files in the result (for type-checking). */
  readonly keepFiles?: boolean;
}

export async function runGroup(group: TestGroup, options: RunOptions): Promise<GroupResult> {
  const schemaFile = path.join(XSDTESTS, group.schema);
  const all = (outcome: Outcome, detail: string): GroupResult => ({
    id: group.id,
    set: group.set,
    version: group.version,
    generated: false,
    cases: group.instances.map((i) => ({ id: i.id, valid: i.valid, outcome, detail })),
  });
  let output: ReturnType<typeof generateSpec>;
  try {
    const host = nodeSpecHost({ cwd: XSDTESTS, catalog: RUNNER_CATALOG });
    output = generateSpec({ file: schemaFile, display: group.schema, runtimeModule: RUNTIME_SPECIFIER, outDir: "out" }, host);
  } catch (e) {
    const located = e instanceof Error && (e.name === "SpecError" || e.name === "SpecErrors");
    // A schema that imports or includes a remote document (the introspection set's xsts.xsd imports the XLink and
    // xml.xsd schemas from www.w3.org; none is in the suite): specforge never fetches, libxml2 runs with --nonet,
    // so there is nothing local to judge. xsdata (and its validator) fetch them.
    if (located && /is remote and specforge never fetches/.test(e.message)) return all("na", `the schema needs a remote document, which is never fetched: ${short(e)}`);
    return all(located ? "generate-refused" : "generate-crash", short(e));
  }
  const files = options.keepFiles
    ? new Map(output.files.filter((f) => f.path.endsWith(".ts")).map((f) => [path.posix.relative(output.dir, f.path), f.content] as const))
    : undefined;
  let mod: Record<string, unknown>;
  try {
    mod = loadInMemory(output.files as OutputFile[], output.dir, RUNTIME_SPECIFIER, runtime);
  } catch (e) {
    return { ...all("load-error", short(e)), generated: true, ...(files ? { files } : {}) };
  }
  const doc = output.doc;
  const names = assignNames(doc);
  // Every generated function is found by the name the naming pass gave it, never by spelling one.
  const elementFns = (ns: string, local: string) => {
    const el = doc.elements.find((e) => e.name.ns === ns && e.name.local === local);
    if (el === undefined) return undefined;
    const codec = names.element(el.id);
    const validate = el.type.kind === "ref" ? names.derived(el.type.id, "validate") : undefined;
    return {
      decode: mod[codec.decode] as (text: string) => unknown,
      encode: mod[codec.encode] as (value: unknown) => string,
      validate: validate === undefined ? undefined : (mod[validate] as ((v: unknown) => { path: string; message: string }[]) | undefined),
    };
  };

  const cases: CaseResult[] = [];
  /** Valid instances wait for xmllint: their outcome so far and, when re-encoded, the output file. */
  const pending: { c: InstanceCase; outcome: Outcome; detail?: string; out?: string }[] = [];
  rmSync(options.work, { recursive: true, force: true });
  mkdirSync(options.work, { recursive: true });
  group.instances.forEach((c, i) => {
    const result = (outcome: Outcome, detail?: string): void => {
      if (c.valid && outcome !== "na") pending.push({ c, outcome, ...(detail ? { detail } : {}) });
      else cases.push({ id: c.id, valid: c.valid, outcome, ...(detail ? { detail } : {}) });
    };
    let text: string;
    let root: { ns: string; local: string };
    try {
      // UTF-8, or UTF-16 with its byte order mark (some IBM groups), as spec files are read.
      text = decodeSpecText(readFileSync(path.join(XSDTESTS, c.file)));
      // specforge's XML reader refuses DOCTYPE declarations by design (untrusted input): nothing to judge.
      if (/<!DOCTYPE/.test(text)) return result("na", "the instance has a DOCTYPE, which the runtime's reader refuses by design");
      root = rootName(text);
    } catch (e) {
      // Not well-formed (or not UTF-8 text we can name the root of): our decoder must say so too.
      return result(c.valid ? "decode-rejects" : "pass", short(e));
    }
    const fns = elementFns(root.ns, root.local);
    if (fns === undefined || typeof fns.decode !== "function") {
      // An undeclared root is invalid anyway: nothing can decode it, which is a rejection.
      return result(c.valid ? "no-element-codec" : "pass", `{${root.ns}}${root.local}`);
    }
    let value: unknown;
    try {
      value = fns.decode(text);
    } catch (e) {
      const payload = PAYLOAD_ERRORS.has((e as Error)?.name);
      if (!c.valid) return result(payload ? "pass" : "decode-crash", short(e));
      return result(payload ? "decode-rejects" : "decode-crash", short(e));
    }
    let issues: { path: string; message: string }[] = [];
    try {
      // A nilled root element decodes to null (the decoder checked it is nillable and empty): validate<T> checks
      // values of the element's type, and there is none.
      issues = fns.validate && value !== null ? fns.validate(value) : [];
    } catch (e) {
      return result(c.valid ? "validator-rejects" : "decode-crash", `validator threw ${short(e)}`);
    }
    if (!c.valid) return result(issues.length > 0 ? "pass" : "accepted");
    if (issues.length > 0) return result("validator-rejects", issues.slice(0, 3).map((x) => `${x.path || "/"}: ${x.message}`).join("; "));
    let encoded: string;
    try {
      encoded = fns.encode(value);
    } catch (e) {
      return result("encode-crash", short(e));
    }
    try {
      const again = fns.decode(encoded);
      if (!isDeepStrictEqual(again, value)) return result("roundtrip-differs", encoded.slice(0, 300));
    } catch (e) {
      return result("roundtrip-differs", `the output does not decode: ${short(e)}`);
    }
    const out = path.join(options.work, `out${i}.xml`);
    writeFileSync(out, encoded);
    pending.push({ c, outcome: "pass", out });
  });
  if (pending.length > 0) {
    // One xmllint run: every output, and every valid instance as the suite has it. Where libxml2 rejects the
    // schema or the original (the suite's metadata is disputed in places, e.g. NIST gDay-maxInclusive-3), the
    // case is not applicable, as xsdata skips it.
    const originals = pending.map((p) => path.join(XSDTESTS, p.c.file));
    const verdict = await judge(group.version, schemaFile, [...pending.flatMap((p) => (p.out ? [p.out] : [])), ...originals]);
    for (const p of pending) {
      let outcome = p.outcome;
      let detail = p.detail;
      if (verdict.schemaError !== undefined) [outcome, detail] = ["na", `${verdict.judge} cannot compile the schema: ${verdict.schemaError}`];
      else if (verdict.files.get(path.join(XSDTESTS, p.c.file)) !== true) [outcome, detail] = ["na", `${verdict.judge} rejects the original instance (ours: ${p.outcome})`];
      else if (p.out !== undefined && verdict.files.get(p.out) !== true) {
        [outcome, detail] = ["output-invalid", `${readFileSync(p.out, "utf8").slice(0, 300)} -- ${verdict.messages.get(p.out) ?? ""}`];
      }
      cases.push({ id: p.c.id, valid: true, outcome, ...(detail ? { detail } : {}) });
    }
  }
  const order = new Map(group.instances.map((c, i) => [c.id, i]));
  cases.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  return { id: group.id, set: group.set, version: group.version, generated: true, cases, ...(files ? { files } : {}) };
}

/** The group's judge: libxml2 for XSD 1.0, python's xmlschema (XSD 1.1 validator, judge.ts) for XSD 1.1. */
async function judge(version: "1.0" | "1.1", schema: string, files: readonly string[]): Promise<XmllintVerdict & { judge: string }> {
  if (version === "1.0") return { ...xmllint(schema, files), judge: "libxml2" };
  const v = await judgeFiles(schema, files, "1.1");
  const result = new Map<string, boolean>();
  const messages = new Map<string, string>();
  for (const [f, [ok, why]] of v.files) {
    result.set(f, ok);
    if (!ok) messages.set(f, why);
  }
  return { ...(v.schemaError !== undefined ? { schemaError: v.schemaError } : {}), files: result, messages, judge: "xmlschema (XSD 1.1)" };
}

/** The root element's name, from the start tag (namespace declarations on the root only, as every suite file has). */
function rootName(text: string): { ns: string; local: string } {
  const root = runtime.parseXml(text);
  return { ns: root.ns, local: root.local };
}

interface XmllintVerdict {
  readonly schemaError?: string;
  /** file -> validates. */
  readonly files: Map<string, boolean>;
  readonly messages: Map<string, string>;
}

/** One xmllint run: every file against one schema. */
export function xmllint(schema: string, files: readonly string[]): XmllintVerdict {
  const run = spawnSync("xmllint", ["--noout", "--nonet", "--schema", schema, ...files], {
    encoding: "utf8",
    timeout: 60_000,
    maxBuffer: 64 << 20,
    env: { ...process.env, XML_CATALOG_FILES: RUNNER_CATALOG },
  });
  const err = run.stderr ?? "";
  const result = new Map<string, boolean>();
  const messages = new Map<string, string>();
  if (/WXS schema .* failed to compile/.test(err) || run.status === 5) return { schemaError: err.split("\n").slice(0, 2).join(" ").slice(0, 300), files: result, messages };
  for (const f of files) {
    if (err.includes(`${f} validates`)) result.set(f, true);
    else {
      result.set(f, false);
      const line = err.split("\n").find((l) => l.startsWith(`${f}:`));
      if (line) messages.set(f, line.slice(f.length + 1, f.length + 300));
    }
  }
  return { files: result, messages };
}

/**
 * Strict tsc over many groups' generated code in one program. Returns, per group id, its diagnostics (empty when
 * clean).
 */
export function typecheckGroups(groups: readonly GroupResult[]): Map<string, string[]> {
  const sets = new Map<string, ReadonlyMap<string, string>>();
  for (const g of groups) if (g.files) sets.set(g.id, g.files);
  return typecheckFileSets(sets);
}

/** A tsc diagnostic's class: its message with the file, position and type names taken out. */
export function tscClass(diagnostic: string): string {
  const msg = diagnostic.replace(/^[^:]*:\d+:\d+: /, "").split("\n")[0]!;
  return msg.replace(/'[^']*'/g, (q) => (/^'read[A-Z]/.test(q) ? "'read<X>'" : /^'[a-z][\w$]*'$/.test(q) ? q : "'T'")).slice(0, 160);
}
