/**
 * The generated side of the example agreement test: for a schema location, the generated validator that checks it.
 *
 * The validator is found through the IR and the naming pass, never by spelling names from the spec:
 *  - a schema the parser made a named type (components, named inline schemas): that type's `is<T>`/`validate<T>`,
 *    the type found by its `origin` and its name asked of `assignNames`;
 *  - an inline schema (a property, a parameter, a body that is not a named type): the IR already holds what the
 *    generated code checks there (the field's, parameter's or content's type, nullability and facets). The test
 *    declares one extra anonymous record per such place, with that one field, so the emitter writes the same field
 *    check it writes inside the real record; the value is checked as `{ v: example }`.
 * Extra records are appended after the document's own types, and the test asserts that every original type keeps
 * its name, so the validators of the document's own types are the ones its users get.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ARTIFACTS, type EmitContext } from "../../src/emitters/index.js";
import type { Field, Facets, HttpOperation, IrDocument, Member, NamedType, Origin, RecordType, TypeExpr } from "../../src/ir/model.js";
import { assignNames, type Names } from "../../src/naming/assign-names.js";
import { originPath } from "../../src/parsers/host.js";
import type { Loc } from "../../src/parsers/openapi/files.js";
import { JsonSyntaxError, ValidationError } from "../../src/runtime/index.js";
import { REPO } from "../helpers/seeds.js";
import { deref, type FoundExample } from "./collect-examples.js";
import type { FileSet } from "../../src/parsers/openapi/files.js";

export interface Issue {
  readonly path: string;
  readonly rule: string;
  readonly message: string;
}

/** What the generated code says about one example. */
export interface GeneratedVerdict {
  readonly valid: boolean;
  /** The decoder's ValidationError issues (paths relative to the example), or its JsonSyntaxError as one issue. */
  readonly issues: readonly Issue[];
  /** `is<T>` and `validate<T>` on the raw parsed value agree with each other (they must, whatever the value). */
  readonly consistent: boolean;
}

export interface GeneratedCheck {
  /** What is checked, for messages: "Pet" or "property Pet.name". */
  readonly label: string;
  check(value: unknown): GeneratedVerdict;
}

/** An inline place's type as the generated code checks it. */
interface InlineType {
  readonly type: TypeExpr;
  readonly nullable: boolean;
  readonly facets?: Facets;
  readonly label: string;
}

const RUNTIME = path.join(REPO, "src/runtime/index.ts");
const PROBE_KEY = "v";

export interface Validators {
  /** The check for an example, or undefined when no generated validator covers its place. */
  checkFor(example: FoundExample): GeneratedCheck | undefined;
  /** Original type names that the extra records changed (must be empty). */
  readonly renamed: readonly string[];
  /** Remove the generated files. */
  dispose(): void;
}

/**
 * Generate validate.ts (and types.ts) for `doc` plus one probe record per inline example place, import it, and
 * return the lookup. `files` is the collector's FileSet, to follow `$ref`s the way the walk did.
 */
export async function generatedValidators(doc: IrDocument, entryFile: string, files: FileSet, examples: readonly FoundExample[], label: string): Promise<Validators> {
  const scope = (loc: Pick<Loc, "file">): string => originPath(entryFile, loc.file.path);
  const key = (file: string, pointer: string): string => `${file}${pointer}`;
  const locKeyOf = (loc: Loc): string => key(scope(loc), loc.pointer);

  const named = new Map<string, NamedType>();
  for (const t of doc.types) named.set(key(t.origin.file, t.origin.pointer), t);
  const fields = new Map<string, InlineType>();
  for (const t of doc.types) {
    if (t.kind === "record") indexFields(t.members, t.name, fields, key);
    // A named array or map: its items or values are inline places.
    if (t.kind === "alias") indexPlace(key(t.origin.file, t.origin.pointer), { type: t.target, nullable: false, label: t.name }, fields);
  }
  const parameters = new Map<string, InlineType>();
  const operations = new Map<string, HttpOperation>();
  for (const s of doc.services) {
    if (s.kind !== "http") continue;
    for (const op of s.operations) {
      operations.set(key(op.origin.file, op.origin.pointer), op);
      const headers = op.responses.flatMap((r) => r.headers);
      for (const p of [...op.parameters, ...headers]) {
        parameters.set(key(p.origin.file, p.origin.pointer), { type: p.type, nullable: p.nullable ?? false, ...(p.facets ? { facets: p.facets } : {}), label: `parameter ${p.in} ${p.name} of ${op.name}` });
      }
    }
  }

  const contentOf = (example: FoundExample): InlineType | undefined => {
    const site = example.site;
    if (site.kind !== "content") return undefined;
    const op = operations.get(locKeyOf(site.operation));
    const contents = site.part === "request" ? op?.requestBody?.contents : op?.responses.find((r) => r.status === site.part)?.contents;
    const c = contents?.find((x) => x.mediaType === site.mediaType);
    return c && op ? { type: c.type, nullable: c.nullable ?? false, label: `${site.part} body ${site.mediaType} of ${op.name}` } : undefined;
  };

  // Where each example is checked: a named type, or an inline type that gets a probe record.
  type Plan = { readonly named: NamedType } | { readonly inline: InlineType; readonly probe: string };
  const plans = new Map<FoundExample, Plan>();
  const probes = new Map<string, { readonly id: string; readonly inline: InlineType }>();
  for (const e of examples) {
    if (!e.schema) continue;
    const plan = ((): Plan | undefined => {
      // The schema's own place first, then (for a `$ref`) the place it points to.
      for (const loc of [e.schema, deref(files, e.schema)]) {
        const t = named.get(locKeyOf(loc));
        if (t) return { named: t };
      }
      const site = e.site;
      const inline =
        (site.kind === "parameter" ? parameters.get(locKeyOf(site.parameter)) : undefined) ??
        contentOf(e) ??
        fields.get(locKeyOf(e.schema));
      if (!inline) return undefined;
      const probeKey = `${inline.label} ${locKeyOf(e.schema)}`;
      let probe = probes.get(probeKey);
      if (!probe) probes.set(probeKey, (probe = { id: `example-probe:${probes.size + 1}`, inline }));
      return { inline, probe: probe.id };
    })();
    if (plan) plans.set(e, plan);
  }

  const extra = [...probes.values()].map(({ id, inline }) => probeRecord(id, inline));
  const augmented: IrDocument = { ...doc, types: [...doc.types, ...extra] };
  const names = assignNames(augmented);
  const original = assignNames(doc);
  const renamed = doc.types.filter((t) => names.type(t.id) !== original.type(t.id)).map((t) => t.name);

  const emitted = await emitAndImport(augmented, names, label);
  const checks = new Map<string, GeneratedCheck>();
  const checkOf = (id: string, probe: boolean, what: string): GeneratedCheck => {
    const known = checks.get(id);
    if (known) return known;
    const fns = functionsOf(id, names, emitted);
    // A probe holds the example under one key; its issue paths are made relative to the example, as ajv's are.
    const wrap = (v: unknown): unknown => (probe ? { [PROBE_KEY]: v } : v);
    const unwrapPath = (p: string): string => (probe ? p.replace(/^\/v(?=\/|$)/, "") : p);
    const check: GeneratedCheck = {
      label: probe ? what : names.type(id),
      check(value) {
        const raw = wrap(value);
        const consistent = fns.is(raw) === (fns.validate(raw).length === 0);
        // Examples are wire JSON: the decoder revives them (base64 -> bytes, per the int64/dates modes) and then
        // runs the validator, as generated code does with a request or response body.
        try {
          fns.decode(JSON.stringify(raw));
          return { valid: true, issues: [], consistent };
        } catch (e) {
          if (e instanceof ValidationError) return { valid: false, issues: e.issues.map((i) => ({ ...i, path: unwrapPath(i.path) })), consistent };
          if (e instanceof JsonSyntaxError) return { valid: false, issues: [{ path: "", rule: "json", message: e.message }], consistent };
          throw e;
        }
      },
    };
    checks.set(id, check);
    return check;
  };
  return {
    renamed,
    dispose: () => rmSync(emitted.dir, { recursive: true, force: true }),
    checkFor(example) {
      const plan = plans.get(example);
      if (!plan) return undefined;
      return "named" in plan ? checkOf(plan.named.id, false, "") : checkOf(plan.probe, true, plan.inline.label);
    },
  };
}

interface Emitted {
  readonly dir: string;
  readonly validate: Record<string, unknown>;
  readonly json: Record<string, unknown>;
}

/** The generated functions of a named type, by the names the naming pass gives them (src/naming/derived.ts). */
function functionsOf(id: string, names: ReturnType<typeof assignNames>, emitted: Emitted) {
  const fn = <T>(module: Record<string, unknown>, name: string): T => {
    const f = module[name];
    if (typeof f !== "function") throw new Error(`the generated module has no ${name}`);
    return f as T;
  };
  return {
    is: fn<(v: unknown) => boolean>(emitted.validate, names.derived(id, "is")),
    validate: fn<(v: unknown) => Issue[]>(emitted.validate, names.derived(id, "validate")),
    decode: fn<(text: string) => unknown>(emitted.json, names.derived(id, "decodeJson")),
  };
}

function indexFields(members: readonly Member[], owner: string, out: Map<string, InlineType>, key: (file: string, pointer: string) => string): void {
  for (const m of members) {
    if (m.kind === "group") indexFields(m.members, owner, out, key);
    if (m.kind !== "field") continue;
    const place = { type: m.type, nullable: m.nullable, ...(m.facets ? { facets: m.facets } : {}), label: `property ${owner}.${m.name}` };
    indexPlace(key(m.origin.file, m.origin.pointer), place, out);
  }
}

/** A place and the inline places inside it: the items of an array (`/items`), the values of a map. */
function indexPlace(at: string, place: InlineType, out: Map<string, InlineType>): void {
  if (out.has(at)) return;
  out.set(at, place);
  const t = place.type;
  // The IR keeps null of an item or value as a union member (see SchemaLowerer.typeOnly).
  if (t.kind === "list") indexPlace(`${at}/items`, { type: t.of, nullable: false, label: `items of ${place.label}` }, out);
  if (t.kind === "map") indexPlace(`${at}/additionalProperties`, { type: t.value, nullable: false, label: `values of ${place.label}` }, out);
}

function probeRecord(id: string, inline: InlineType): RecordType {
  const origin: Origin = { file: "example-probe", line: 1, column: 1, pointer: "#", construct: `example probe for ${inline.label}` };
  const field: Field = {
    kind: "field",
    name: PROBE_KEY,
    type: inline.type,
    occurs: { min: 1, max: 1 },
    nullable: inline.nullable,
    ...(inline.facets ? { facets: inline.facets } : {}),
    origin,
    wire: { json: { key: PROBE_KEY } },
  };
  return { kind: "record", id, name: `ExampleProbe${id.split(":")[1]}`, scope: "example-probe", anonymous: true, members: [field], origin };
}

/** Emit types.ts, validate.ts and json.ts as generateSpec would (same artifacts and defaults), write and import them. */
async function emitAndImport(doc: IrDocument, names: Names, label: string): Promise<Emitted> {
  const ctx: EmitContext = { doc, names, dir: "api", source: label, int64: "number", dates: "string", runtimeModule: RUNTIME };
  const wanted = new Set(["types", "json-validators", "json-serializers"]);
  const generated = ARTIFACTS.filter((a) => wanted.has(a.name) && a.applies(doc)).flatMap((a) => a.emit(ctx));
  // The runtime is imported by absolute path (runtimeModule above), so the files can live outside the repo.
  const dir = mkdtempSync(path.join(os.tmpdir(), `specforge-examples-${label.replace(/[^A-Za-z0-9.-]+/g, "_")}-`));
  for (const g of generated) {
    if (g.shell) throw new Error(`${g.path} needs a template shell; the test renders plain files only`);
    const file = path.join(dir, g.path);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, g.render());
  }
  const load = async (name: string) => (await import(pathToFileURL(path.join(dir, "api", name)).href)) as Record<string, unknown>;
  return { dir, validate: await load("validate.ts"), json: await load("json.ts") };
}
