/**
 * The reference side of the example agreement test: ajv 8 + ajv-formats on the same schema locations.
 *
 * OpenAPI 3.1 schemas are JSON Schema 2020-12 and go to ajv as they are. OpenAPI 3.0 and Swagger 2.0 schemas are a
 * dialect of older drafts; every schema node the walk met is translated to draft-07 first (only that node's own
 * keywords; its subschemas are nodes of their own):
 *  - `nullable: true` (3.0) and `x-nullable: true` (2.0) admit null: `type` becomes a type array with "null" (and an
 *    `enum` without null gets null, as the 3.0.3 clarification and docs/validators.md say); a schema without `type`
 *    becomes `anyOf: [{type: "null"}, <the schema>]`;
 *  - boolean `exclusiveMinimum`/`exclusiveMaximum` (draft-04 style) become the numeric draft-06+ keywords;
 *  - OpenAPI-only annotations (`example`, `discriminator`, `xml`, `externalDocs`) are dropped. ajv would ignore them
 *    in non-strict mode anyway; `discriminator` is dropped explicitly because ajv's own discriminator option demands
 *    things OpenAPI does not (the tag declared in every variant), which would be a difference of ajv, not ours.
 * Each file is registered under its file URL, so `$ref`s between files resolve as the parser resolves them.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { Loc } from "../../src/parsers/openapi/files.js";
import { segmentsOf } from "../../src/parsers/openapi/pointer.js";
import type { CollectedExamples } from "./collect-examples.js";

type AnyAjv = Ajv | Ajv2020;
const addFormats = addFormatsModule as unknown as (ajv: AnyAjv) => AnyAjv;

export interface Verdict {
  readonly valid: boolean;
  readonly errors: readonly ErrorObject[];
}

export type ReferenceCheck = (value: unknown) => Verdict;

/** A checker factory: the ajv validator of the schema at a location of the collected document. */
export function ajvReference(collected: CollectedExamples): (schema: Loc) => ReferenceCheck {
  // inlineRefs: false, because ajv resolves the relative `$ref`s of an inlined schema from the wrong file.
  const options = { strict: false, allErrors: true, validateSchema: false, logger: false, inlineRefs: false } as const;
  const ajv: AnyAjv = collected.version === "3.1" ? new Ajv2020(options) : new Ajv(options);
  addFormats(ajv);
  const translate = collected.version !== "3.1";
  // One combined schema, `{$defs: {f0: <entry file>, f1: ...}}`, with every `$ref` rewritten to point into it: a
  // file added to ajv on its own would be compiled as a schema from its root, and a file of parameters can have a
  // top-level key named `type` or `required` that is not a keyword at all.
  const index = new Map(collected.files.files.map((f, i) => [f.path, `f${i}`]));
  const where = (loc: Pick<Loc, "file" | "pointer">): string => `/$defs/${index.get(loc.file.path)!}${schemaFragment(loc.pointer)}`;
  const copies = new Map<string, unknown>();
  for (const f of collected.files.files) copies.set(f.path, structuredCopy(f.value));
  for (const f of collected.files.files) {
    const rewrite = (v: unknown): void => {
      if (Array.isArray(v)) return v.forEach(rewrite);
      if (!isPlainObject(v)) return;
      for (const [k, x] of Object.entries(v)) {
        if (k === "$ref" && typeof x === "string") v[k] = `${COMBINED}#${where(collected.files.resolve(x, { file: f, pointer: "#", value: f.value }))}`;
        else rewrite(x);
      }
    };
    rewrite(copies.get(f.path));
  }
  // Every node is found before any is rewritten: wrapping a nullable node in anyOf moves its subschemas.
  const nodes = [...collected.schemaNodes.values()].map((node) => at(copies.get(node.file.path), segmentsOf(node.pointer)));
  const byName = new Map(collected.files.files.map((f) => [index.get(f.path)!, copies.get(f.path)]));
  const resolve = (ref: string): unknown => {
    const [name, ...rest] = segmentsOf(`#${ref.slice(ref.indexOf("#") + 1)}`).slice(1).map(decodeURIComponent);
    return at(byName.get(name!), rest);
  };
  for (const node of nodes) if (isPlainObject(node)) translateNode(node, translate, resolve);
  ajv.addSchema({ $defs: Object.fromEntries(collected.files.files.map((f) => [index.get(f.path)!, copies.get(f.path)])) }, COMBINED);
  const compiled = new Map<string, ValidateFunction>();
  return (schema) => {
    const ref = `${COMBINED}#${where(schema)}`;
    let validate = compiled.get(ref);
    if (!validate) compiled.set(ref, (validate = ajv.compile({ $ref: ref })));
    const check = validate;
    return (value) => ({ valid: check(value), errors: check.errors ?? [] });
  };
}

const COMBINED = "urn:specforge:examples";

/** "#/paths/~1a~1{id}" -> "/paths/~1a~1%7Bid%7D": a JSON pointer as a URI fragment. */
function schemaFragment(pointer: string): string {
  return segmentsOf(pointer)
    .map((s) => `/${encodeURIComponent(s.replace(/~/g, "~0").replace(/\//g, "~1"))}`)
    .join("");
}

function translateNode(s: Record<string, unknown>, dialect: boolean, resolve: (ref: string) => unknown): void {
  // DigitalOcean writes `properties: {$ref: ...}` for a shared set of properties; ajv would read a property "$ref".
  const props = s["properties"];
  if (isPlainObject(props) && typeof props["$ref"] === "string") s["properties"] = resolve(props["$ref"]);
  if (!dialect) return;
  for (const key of ["example", "discriminator", "xml", "externalDocs"]) delete s[key];
  for (const [flag, bound] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const) {
    if (typeof s[flag] !== "boolean") continue;
    if (s[flag] === true && s[bound] !== undefined) {
      s[flag] = s[bound];
      delete s[bound];
    } else delete s[flag];
  }
  const nullable = s["nullable"] === true || s["x-nullable"] === true;
  delete s["nullable"];
  delete s["x-nullable"];
  if (!nullable) return;
  if (typeof s["type"] === "string" || Array.isArray(s["type"])) {
    const types = Array.isArray(s["type"]) ? (s["type"] as unknown[]) : [s["type"]];
    if (!types.includes("null")) s["type"] = [...types, "null"];
    if (Array.isArray(s["enum"]) && !s["enum"].includes(null)) s["enum"] = [...(s["enum"] as unknown[]), null];
    return;
  }
  const rest = { ...s };
  for (const key of Object.keys(s)) delete s[key];
  s["anyOf"] = [{ type: "null" }, rest];
}

function at(value: unknown, segments: readonly string[]): unknown {
  let v = value;
  for (const s of segments) {
    if (Array.isArray(v)) v = v[Number(s)];
    else if (isPlainObject(v)) v = Object.hasOwn(v, s) ? v[s] : undefined;
    else return undefined;
  }
  return v;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A deep copy with ordinary objects (the reader's are null-prototype; ajv expects plain JSON data). */
function structuredCopy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(structuredCopy);
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) Object.defineProperty(out, k, { value: structuredCopy(v[k]), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v;
}
