/**
 * Every example an OpenAPI document carries, with the schema it has to satisfy.
 *
 * The document is walked by its structure (not by key name: a property may well be called "example"), following
 * `$ref`s into other files with the parser's own FileSet, so positions and ref resolution are the parser's:
 *  - OpenAPI 3.0/3.1: `example` / `examples` on schemas (3.1: an array of values), on media types, parameters and
 *    headers (a map of Example Objects, each possibly a `$ref` to `components/examples`);
 *  - Swagger 2.0: `example` on schemas and a response's `examples` (media type -> value).
 * Every schema node met on the way is reported too, so the ajv side can translate exactly those nodes.
 */
import { FileSet, type Loc } from "../../src/parsers/openapi/files.js";
import { child, entries, isObject, items, str } from "../../src/parsers/openapi/json.js";
import type { SpecHost } from "../../src/parsers/host.js";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** Where an example sits, so that its IR type can be found when its schema is not a named type. */
export type Site =
  | { readonly kind: "schema" }
  | { readonly kind: "parameter"; readonly parameter: Loc }
  /** A request (`part: "request"`) or response (`part: status`) body of the operation at `operation`. */
  | { readonly kind: "content"; readonly operation: Loc; readonly part: string; readonly mediaType: string };

export interface FoundExample {
  /** The example value's own location (for messages). */
  readonly at: Loc;
  readonly value: unknown;
  /** The schema the value must satisfy; undefined when the spec declares none there. */
  readonly schema: Loc | undefined;
  readonly site: Site;
}

/** An example that is not checked, and why. */
export interface SkippedExample {
  readonly at: Loc;
  readonly reason: string;
}

export interface CollectedExamples {
  readonly version: "2.0" | "3.0" | "3.1";
  readonly files: FileSet;
  readonly examples: readonly FoundExample[];
  readonly skipped: readonly SkippedExample[];
  /** Every schema node reached (file path + pointer keys), for the dialect translation on the ajv side. */
  readonly schemaNodes: ReadonlyMap<string, Loc>;
}

export function locKey(loc: Pick<Loc, "file" | "pointer">): string {
  return `${loc.file.path}${loc.pointer}`;
}

/** Follow `$ref`s from `loc` until a node without one. */
export function deref(files: FileSet, loc: Loc): Loc {
  const seen = new Set<string>();
  let at = loc;
  for (;;) {
    const ref = str(at, "$ref");
    if (ref === undefined || seen.has(locKey(at))) return at;
    seen.add(locKey(at));
    at = files.resolve(ref, child(at, "$ref")!);
  }
}

export function collectExamples(entryFile: string, host: SpecHost): CollectedExamples {
  const files = new FileSet(host);
  const file = files.load(entryFile);
  const root: Loc = { file, pointer: "#", value: file.value };
  const swagger = str(root, "swagger");
  const version = swagger !== undefined ? "2.0" : (str(root, "openapi") ?? "").startsWith("3.1") ? "3.1" : "3.0";
  const found: FoundExample[] = [];
  const skipped: SkippedExample[] = [];
  const seenExamples = new Set<string>();
  const schemaNodes = new Map<string, Loc>();
  const visited = new Set<string>();

  /** Each example location is reported once, at the first (most specific) site that reaches it. */
  const add = (at: Loc, value: unknown, schema: Loc | undefined, site: Site): void => {
    if (seenExamples.has(locKey(at))) return;
    seenExamples.add(locKey(at));
    found.push({ at, value, schema, site });
  };
  const skip = (at: Loc, reason: string): void => {
    if (seenExamples.has(locKey(at))) return;
    seenExamples.add(locKey(at));
    skipped.push({ at, reason });
  };
  const once = (kind: string, loc: Loc): boolean => {
    const key = `${kind} ${locKey(loc)}`;
    if (visited.has(key)) return false;
    visited.add(key);
    return true;
  };

  /**
   * `site` is where this schema is used when it is a parameter's or a body's own schema; nested ones are just schemas.
   * `owner` is the schema an example here describes: the schema itself, except in an allOf/anyOf/oneOf part, which
   * validates the same instance as the schema combining it (DigitalOcean puts examples in `allOf: [$ref, {example}]`).
   */
  const schema = (at: Loc | undefined, site: Site = { kind: "schema" }, owner?: Loc): void => {
    if (!at || !isObject(at.value) || !once("schema", at)) return;
    const target = owner ?? at;
    schemaNodes.set(locKey(at), at);
    const ref = str(at, "$ref");
    if (ref !== undefined) schema(files.resolve(ref, child(at, "$ref")!));
    const example = child(at, "example");
    if (example) add(example, example.value, target, site);
    // 3.1 (JSON Schema 2020-12): `examples` is an array of values. In 3.0 the keyword does not exist on schemas.
    const list = child(at, "examples");
    if (list && version === "3.1" && Array.isArray(list.value)) for (const e of items(list)) add(e, e.value, target, site);
    const properties = child(at, "properties");
    // DigitalOcean writes `properties: {$ref: ...}` for a shared set of properties.
    for (const [, p] of entries(properties && deref(files, properties))) schema(p);
    for (const [, p] of entries(child(at, "patternProperties"))) schema(p);
    for (const key of ["$defs", "definitions", "dependentSchemas"]) for (const [, d] of entries(child(at, key))) schema(d);
    for (const key of ["additionalProperties", "items", "not", "contains", "if", "then", "else", "propertyNames", "unevaluatedItems", "unevaluatedProperties"]) {
      const sub = child(at, key);
      if (sub && Array.isArray(sub.value)) for (const s of items(sub)) schema(s);
      else schema(sub);
    }
    for (const key of ["allOf", "anyOf", "oneOf"]) for (const s of items(child(at, key))) schema(s, site, target);
    for (const s of items(child(at, "prefixItems"))) schema(s);
  };

  /** 3.x `examples` maps (name -> Example Object or $ref) and single `example`s of media types, parameters, headers. */
  const examplesOf = (holder: Loc, target: Loc | undefined, site: Site, mediaType?: string): void => {
    const single = child(holder, "example");
    const named = entries(child(holder, "examples")).map(([, e]) => e);
    if (mediaType !== undefined && !isJsonLike(mediaType)) {
      if (single) skip(single, `${mediaType} examples are not JSON values`);
      for (const e of named) skip(e, `${mediaType} examples are not JSON values`);
      return;
    }
    if (single) add(single, single.value, target, site);
    for (const ref of named) {
      const e = deref(files, ref);
      const value = child(e, "value");
      if (value) add(value, value.value, target, site);
      else skip(e, child(e, "externalValue") ? "externalValue (not read)" : "an Example Object without a value");
    }
  };

  const mediaTypes = (content: Loc | undefined, site: (mediaType: string) => Site): void => {
    for (const [mediaType, m] of entries(content)) {
      const s = child(m, "schema");
      schema(s, site(mediaType));
      examplesOf(m, s, site(mediaType), mediaType);
    }
  };

  /** A 3.x parameter or header (after `$ref`), or a 2.0 parameter. */
  const parameter = (ref: Loc): void => {
    const p = deref(files, ref);
    if (!once("parameter", p)) return;
    const s = child(p, "schema");
    schema(s, { kind: "parameter", parameter: p });
    if (version === "2.0") return; // 2.0 parameters carry no examples; a body parameter's are in its schema
    examplesOf(p, s, { kind: "parameter", parameter: p });
    // A parameter given by `content` has one media type, whose examples are the parameter's.
    mediaTypes(child(p, "content"), () => ({ kind: "parameter", parameter: p }));
  };

  const response = (ref: Loc, operation: Loc | undefined, status: string): void => {
    const r = deref(files, ref);
    const s = child(r, "schema"); // 2.0
    schema(s);
    for (const [name, h] of entries(child(r, "headers"))) {
      // OpenAPI: a response header named Content-Type is ignored (the media type says it); so is its example.
      if (name.toLowerCase() !== "content-type") parameter(h);
    }
    if (version === "2.0") {
      for (const [mediaType, e] of entries(child(r, "examples"))) {
        if (!isJsonLike(mediaType)) skip(e, `${mediaType} examples are not JSON values`);
        else add(e, e.value, s, operation ? { kind: "content", operation, part: status, mediaType } : { kind: "schema" });
      }
      return;
    }
    mediaTypes(child(r, "content"), (mediaType) => (operation ? { kind: "content", operation, part: status, mediaType } : { kind: "schema" }));
  };

  const requestBody = (ref: Loc, operation: Loc | undefined): void => {
    const b = deref(files, ref);
    mediaTypes(child(b, "content"), (mediaType) => (operation ? { kind: "content", operation, part: "request", mediaType } : { kind: "schema" }));
  };

  const pathItem = (ref: Loc): void => {
    const item = deref(files, ref);
    if (!once("path item", item)) return;
    for (const p of items(child(item, "parameters"))) parameter(p);
    for (const method of METHODS) {
      const opRef = child(item, method);
      if (opRef) operation(deref(files, opRef));
    }
  };

  const operation = (op: Loc): void => {
    if (!once("operation", op)) return;
    for (const p of items(child(op, "parameters"))) parameter(p);
    const body = child(op, "requestBody");
    if (body) requestBody(body, op);
    for (const [status, r] of entries(child(op, "responses"))) if (!status.startsWith("x-")) response(r, op, status);
    for (const [, cb] of entries(child(op, "callbacks"))) for (const [, item] of entries(deref(files, cb))) pathItem(item);
  };

  // Operations first, so an example shared through components is reported where an operation uses it.
  for (const [p, item] of entries(child(root, "paths"))) if (!p.startsWith("x-")) pathItem(item);
  for (const [, item] of entries(child(root, "webhooks"))) pathItem(item);
  if (version === "2.0") {
    for (const [, s] of entries(child(root, "definitions"))) schema(s);
    for (const [, p] of entries(child(root, "parameters"))) parameter(p);
    for (const [status, r] of entries(child(root, "responses"))) response(r, undefined, status);
  } else {
    const components = child(root, "components");
    for (const [, s] of entries(components && child(components, "schemas"))) schema(s);
    for (const [, p] of entries(components && child(components, "parameters"))) parameter(p);
    for (const [, h] of entries(components && child(components, "headers"))) parameter(h);
    for (const [, b] of entries(components && child(components, "requestBodies"))) requestBody(b, undefined);
    for (const [status, r] of entries(components && child(components, "responses"))) response(r, undefined, status);
    for (const [, item] of entries(components && child(components, "pathItems"))) pathItem(item);
    // Examples only declared in components and never used have no schema to be checked against.
    for (const [, e] of entries(components && child(components, "examples"))) {
      const value = child(deref(files, e), "value");
      if (value && !seenExamples.has(locKey(value))) skip(value, "declared in components.examples but used nowhere");
    }
  }
  return { version, files, examples: found, skipped, schemaNodes };
}

/** Media types whose examples are JSON values (JSON itself, forms, and text, which is a JSON string). */
function isJsonLike(mediaType: string): boolean {
  const m = mediaType.toLowerCase();
  return /json/.test(m) || m.startsWith("text/") || m === "application/x-www-form-urlencoded" || m.startsWith("multipart/") || m === "*/*";
}
