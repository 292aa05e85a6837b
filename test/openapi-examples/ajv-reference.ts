/**
 * The reference side of the example agreement test: ajv 8 + ajv-formats on the same schema locations.
 *
 * OpenAPI 3.1 schemas are JSON Schema 2020-12 and go to ajv (2020) as they are. OpenAPI 3.0 and Swagger 2.0
 * schemas are a dialect of older drafts; every schema node the walk met is translated to draft-07 first (only that
 * node's own keywords; its subschemas are nodes of their own):
 *  - `nullable: true` (3.0) and `x-nullable: true` (2.0) admit null: `type` becomes a type array with "null" (and an
 *    `enum` without null gets null, as docs/validators.md says); a schema without `type` becomes
 *    `anyOf: [{type: "null"}, <the schema>]`;
 *  - boolean `exclusiveMinimum`/`exclusiveMaximum` (draft-04 style) become the numeric draft-06+ keywords;
 *  - OpenAPI-only annotations (`example`, `discriminator`, `xml`, `externalDocs`) are dropped (ajv's own
 *    discriminator option demands things OpenAPI does not, such as the tag declared in every variant).
 * Every file goes into one combined schema `{$defs: {f0: <entry>, f1: ...}}` with each `$ref` rewritten to point
 * into it, resolved by the parser's FileSet: a file added to ajv on its own is compiled from its root as a schema,
 * and a file of parameters may well have a top-level key named `type` or `required`.
 *
 * An `Adjustment` changes the reference in one named way, towards what the generated code deliberately does
 * (docs/validators.md lists them). The test explains each disagreement by the adjustment that makes ajv agree.
 */
import path from "node:path";
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { Loc } from "../../src/parsers/openapi/files.js";
import { jsonIsEmail } from "../../src/runtime/json/formats.js";
import { pascalCase } from "../../src/parsers/openapi/names.js";
import { segmentsOf } from "../../src/parsers/openapi/pointer.js";
import type { CollectedExamples } from "./collect-examples.js";

type AnyAjv = Ajv | Ajv2020;
const addFormats = addFormatsModule as unknown as (ajv: AnyAjv) => AnyAjv;

export type Adjustment =
  /** The discriminator's tag picks the one variant to check (untagged variants when no tag matches). */
  | "discriminator"
  /** A schema with `properties` or `additionalProperties` but no `type` only accepts objects. */
  | "untyped-object"
  /** A schema with `items` but no `type` only accepts arrays. */
  | "untyped-array"
  /** Formats other than those in CHECKED_FORMATS are annotations. */
  | "unchecked-formats"
  /** `format: int64` must be a safe integer (the default int64 "number" mode). */
  | "int64-safe-integer"
  /** `format: email` follows the HTML forms rule (the runtime's jsonIsEmail). */
  | "email-format";

/** Formats the generated validators check (src/emitters/json-validators/leaf-checks.ts, STRING_FORMATS). */
const CHECKED_FORMATS = new Set([
  "date", "date-time", "time", "uri", "email", "uuid", "duration", "hostname", "ipv4", "ipv6", "uri-reference", "json-pointer", "regex",
]);
/** ajv-formats' number formats; int64 has its own adjustment. */
const NUMBER_FORMATS = new Set(["int32", "int64", "float", "double"]);

export interface Verdict {
  readonly valid: boolean;
  readonly errors: readonly ErrorObject[];
}

export type ReferenceCheck = (value: unknown) => Verdict;

/** The ajv check of the schema at a location of the collected document, with the given adjustments. */
export function ajvReference(collected: CollectedExamples, adjustments: ReadonlySet<Adjustment> = new Set()): (schema: Loc) => ReferenceCheck {
  const combined = combinedSchema(collected, adjustments);
  // inlineRefs: false, because ajv resolves the relative `$ref`s of an inlined schema from the wrong file.
  const options: Options = { strict: false, allErrors: true, validateSchema: false, logger: false, inlineRefs: false };
  const make = (unicodeRegExp: boolean): AnyAjv => {
    const o = { ...options, unicodeRegExp };
    const ajv: AnyAjv = collected.version === "3.1" ? new Ajv2020(o) : new Ajv(o);
    addFormats(ajv);
    if (adjustments.has("unchecked-formats")) {
      for (const name of Object.keys(FORMAT_NAMES)) {
        if (!CHECKED_FORMATS.has(name) && !NUMBER_FORMATS.has(name)) ajv.addFormat(name, true);
      }
    }
    if (adjustments.has("int64-safe-integer")) ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isSafeInteger(n) });
    if (adjustments.has("email-format")) ajv.addFormat("email", jsonIsEmail);
    ajv.addSchema({ $defs: combined.$defs }, COMBINED);
    return ajv;
  };
  const ajv = make(true);
  // A pattern that is not valid with the `u` flag (DigitalOcean's `^[a-zA-Z0-9_\-\:]+$`) is read without it, as a
  // JavaScript regular expression; ajv's unicodeRegExp option is per instance, so such schemas get their own.
  let lenient: AnyAjv | undefined;
  const compiled = new Map<string, ValidateFunction>();
  return (schema) => {
    const ref = `${COMBINED}#${combined.where(schema)}`;
    let validate = compiled.get(ref);
    if (!validate) {
      try {
        validate = ajv.compile({ $ref: ref });
      } catch (e) {
        if (!/Invalid regular expression/.test((e as Error).message)) throw e;
        validate = (lenient ??= make(false)).compile({ $ref: ref });
      }
      compiled.set(ref, validate);
    }
    const check = validate;
    return (value) => ({ valid: check(value), errors: check.errors ?? [] });
  };
}

const COMBINED = "urn:specforge:examples";
/** ajv-formats' format names (the full set it registers). */
const FORMAT_NAMES: Record<string, true> = Object.fromEntries(
  ["date", "time", "date-time", "iso-time", "iso-date-time", "duration", "uri", "uri-reference", "uri-template", "url", "email", "hostname", "ipv4", "ipv6", "regex", "uuid", "json-pointer", "json-pointer-uri-fragment", "relative-json-pointer", "byte", "int32", "int64", "float", "double", "password", "binary"].map((n) => [n, true]),
);

interface Combined {
  readonly $defs: Record<string, unknown>;
  where(loc: Pick<Loc, "file" | "pointer">): string;
}

function combinedSchema(collected: CollectedExamples, adjustments: ReadonlySet<Adjustment>): Combined {
  const files = collected.files.files;
  const names = new Map(files.map((f, i) => [f.path, `f${i}`]));
  const where = (loc: Pick<Loc, "file" | "pointer">): string => `/$defs/${names.get(loc.file.path)!}${schemaFragment(loc.pointer)}`;
  const copies = new Map(files.map((f) => [names.get(f.path)!, structuredCopy(f.value)]));
  const refTo = (ref: string, from: (typeof files)[number]): string => `${COMBINED}#${where(collected.files.resolve(ref, { file: from, pointer: "#", value: from.value }))}`;
  for (const f of files) {
    const rewrite = (v: unknown): void => {
      if (Array.isArray(v)) return v.forEach(rewrite);
      if (!isPlainObject(v)) return;
      for (const [k, x] of Object.entries(v)) {
        if (k === "$ref" && typeof x === "string") v[k] = refTo(x, f);
        else rewrite(x);
      }
    };
    rewrite(copies.get(names.get(f.path)!));
  }
  /** The name the parser tags a variant with when no mapping names it: a schema's key, or a whole file's title/base name. */
  const nameOf = (ref: string): string | undefined => {
    const [name, ...rest] = segmentsOf(`#${ref.slice(ref.indexOf("#") + 1)}`).slice(1).map(decodeURIComponent);
    if (rest.length > 0) return rest.at(-1);
    const file = files.find((f) => names.get(f.path) === name);
    const root = copies.get(name!);
    const title = isPlainObject(root) && typeof root["title"] === "string" ? root["title"] : undefined;
    return title ?? (file ? pascalCase(path.basename(file.path).replace(/\.[^.]*$/, "")) : undefined);
  };
  const resolve = (ref: string): unknown => {
    const [name, ...rest] = segmentsOf(`#${ref.slice(ref.indexOf("#") + 1)}`).slice(1).map(decodeURIComponent);
    return at(copies.get(name!), rest);
  };
  // Every node is found before any is rewritten: wrapping a nullable node in anyOf moves its subschemas.
  const nodes = [...collected.schemaNodes.values()].flatMap((node) => {
    const value = at(copies.get(names.get(node.file.path)!), segmentsOf(node.pointer));
    return isPlainObject(value) ? [{ node, value }] : [];
  });
  for (const { node, value } of nodes) {
    // DigitalOcean writes `properties: {$ref: ...}` for a shared set of properties; ajv would read a property "$ref".
    const props = value["properties"];
    if (isPlainObject(props) && typeof props["$ref"] === "string") value["properties"] = resolve(props["$ref"]);
    if (adjustments.has("discriminator")) tagPicksVariant(value, node, refTo, nameOf);
    if (adjustments.has("untyped-object") && value["type"] === undefined && value["$ref"] === undefined && (value["properties"] !== undefined || value["additionalProperties"] !== undefined)) {
      value["type"] = "object";
    }
    if (adjustments.has("untyped-array") && value["type"] === undefined && value["$ref"] === undefined && value["items"] !== undefined) value["type"] = "array";
    if (collected.version !== "3.1") translateNode(value);
  }
  return { $defs: Object.fromEntries(copies), where };
}

/**
 * `oneOf`/`anyOf` + `discriminator` as the generated code reads it: an object whose tag property picks the variant
 * (from `mapping`, else the variant's schema name), and the untagged variants when no tag matches.
 */
function tagPicksVariant(s: Record<string, unknown>, node: Loc, refTo: (ref: string, from: Loc["file"]) => string, nameOf: (ref: string) => string | undefined): void {
  const d = s["discriminator"];
  const key = Array.isArray(s["oneOf"]) ? "oneOf" : Array.isArray(s["anyOf"]) ? "anyOf" : undefined;
  if (!isPlainObject(d) || typeof d["propertyName"] !== "string" || key === undefined) return;
  const property = d["propertyName"];
  const variants = s[key] as unknown[];
  const tags = new Map<string, string>(); // target ref -> tag
  if (isPlainObject(d["mapping"])) {
    for (const [tag, target] of Object.entries(d["mapping"])) {
      if (typeof target !== "string") continue;
      const ref = /^[A-Za-z0-9_.-]+$/.test(target) && !/\.(ya?ml|json)$/i.test(target) ? `#/components/schemas/${target}` : target;
      const resolved = refTo(ref, node.file);
      if (!tags.has(resolved)) tags.set(resolved, tag);
    }
  }
  const cases: [string, unknown][] = [];
  const untagged: unknown[] = [];
  for (const v of variants) {
    const ref = isPlainObject(v) && typeof v["$ref"] === "string" ? v["$ref"] : undefined;
    const tag = ref === undefined ? undefined : (tags.get(ref) ?? nameOf(ref));
    if (tag === undefined) untagged.push(v);
    else if (!cases.some(([t]) => t === tag)) cases.push([tag, v]);
  }
  const chain = cases.reduceRight<unknown>(
    (otherwise, [tag, variant]) => ({ if: { properties: { [property]: { const: tag } }, required: [property] }, then: variant, else: otherwise }),
    untagged.length > 0 ? { anyOf: untagged } : false,
  );
  delete s[key];
  s["type"] = "object";
  s["allOf"] = [...(Array.isArray(s["allOf"]) ? s["allOf"] : []), chain];
}


/** "#/paths/~1a~1{id}" -> "/paths/~1a~1%7Bid%7D": a JSON pointer as a URI fragment. */
function schemaFragment(pointer: string): string {
  return segmentsOf(pointer)
    .map((s) => `/${encodeURIComponent(s.replace(/~/g, "~0").replace(/\//g, "~1"))}`)
    .join("");
}

function translateNode(s: Record<string, unknown>): void {
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
