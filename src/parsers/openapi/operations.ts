/**
 * Lowering of `paths` into HttpOperations: parameters (path-level merged with operation-level), request bodies,
 * responses, headers and security requirements. `$ref`s to components (parameters, requestBodies, responses,
 * headers, path items) are followed wherever they point, including other files.
 */
import type { Example, HttpContent, HttpOperation, HttpParameter, HttpResponse, HttpService, TypeExpr } from "../../ir/model.js";
import type { LowerContext } from "./context.js";
import type { Loc } from "./files.js";
import { bool, child, entries, isObject, items, str } from "./json.js";
import { objectExamples } from "./examples.js";
import { NameTable, operationNameFor, pascalCase } from "./names.js";
import { pathItemFields, pathItemOperations } from "./path-items.js";
import { lowerEncoding } from "./encoding.js";
import { checkParameterStyle, parameterContent } from "./parameter-style.js";
import type { SchemaLowerer } from "./schema.js";

const LOCATIONS = new Set(["path", "query", "header", "cookie"]);
const IGNORED_HEADERS = new Set(["accept", "content-type", "authorization"]);
const STATUS = /^([1-5]\d\d|[1-5]XX|default)$/;
const ANY: TypeExpr = { kind: "scalar", scalar: "any" };
/** Media types whose bodies are parsed into values: JSON (also `+json` types and the any-type wildcard) and forms. */
const STRUCTURED_MEDIA = /^(application\/json|[^;]*\+json|\*\/\*|application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;

export function lowerOperations(ctx: LowerContext, schemas: SchemaLowerer, root: Loc): HttpOperation[] {
  const pathItems = entries(child(root, "paths")).filter(([p]) => !p.startsWith("x-"));
  const rootSecurity = child(root, "security");

  // operationIds are the spec's own names: they must be unique, and synthesized names must not take them.
  const opNames = new NameTable();
  const ids = new Map<string, string>();
  // A path item or operation that cannot be read is reported (once: errors are deduplicated) and skipped.
  const fieldsOf = new Map(pathItems.map(([p, item]) => [p, ctx.recover(() => pathItemFields(ctx, item)) ?? new Map<string, Loc>()]));
  const operationsOf = (p: string) => ctx.recover(() => pathItemOperations(ctx, fieldsOf.get(p)!)) ?? [];
  for (const [p] of pathItems) {
    for (const [method, op] of operationsOf(p)) {
      const idLoc = child(op, "operationId");
      if (!idLoc) continue;
      ctx.recover(() => {
        if (typeof idLoc.value !== "string") ctx.fail(idLoc, "operationId must be a string");
        const where = `${method.toUpperCase()} ${p}`;
        const other = ids.get(idLoc.value as string);
        if (other !== undefined) ctx.fail(idLoc, `duplicate operationId "${idLoc.value as string}" (also used by ${other})`);
        ids.set(idLoc.value as string, where);
        opNames.reserve("", idLoc.value as string);
      });
    }
  }

  const operations: HttpOperation[] = [];
  // Operations by method and path (template variables' names erased: OpenAPI calls `/a/{x}` and `/a/{y}` identical),
  // to find path keys that are one path once their query strings are dropped.
  const routes = new Map<string, string>();
  for (const [p, itemRef] of pathItems) {
    if (!p.startsWith("/")) ctx.recover(() => ctx.fail(itemRef, `path "${p}" must start with "/"`));
    const key = splitPathKey(p);
    if (key.query !== undefined) {
      ctx.warn(
        itemRef,
        `path "${p}" carries a query string: a path key is a path template and query parameters are declared with "in: query" (OpenAPI, Paths Object); the path is "${key.path}", the query string's variables are query parameters`,
      );
    }
    const fields = fieldsOf.get(p)!;
    for (const [method, op] of operationsOf(p)) {
      const route = `${method.toUpperCase()} ${key.path.replace(/\{[^}]*\}/g, "{}")}`;
      const other = routes.get(route);
      if (other !== undefined && (key.query !== undefined || other.includes("?"))) {
        // Only clashes that dropping a query string made: other equivalent paths are not this rule's business. The
        // document broke the rule, but refusing it all would lose every other operation: the later one is left out.
        ctx.warn(
          op,
          `${method.toUpperCase()} ${p} and ${method.toUpperCase()} ${other} are the same operation path once the query string is dropped (a path key is a path template: OpenAPI has no operations told apart by their query string): ${method.toUpperCase()} ${p} is left out`,
        );
        continue;
      }
      routes.set(route, p);
      const name = str(op, "operationId") ?? opNames.claim("", operationNameFor(method, key.path));
      // An operation in error is reported and left out; the other operations are still checked.
      const operation = ctx.recover(() =>
        lowerOperation(ctx, schemas, { path: key.path, key: p, query: key.query, method, name, itemParameters: fields.get("parameters"), op, rootSecurity }),
      );
      if (operation) operations.push(operation);
    }
  }
  return operations;
}

/** One `name={variable}` (or fixed `name=value`) pair of a path key's query string. */
interface QueryPair {
  readonly name: string;
  /** The template variable of the value, when the value is `{variable}`. */
  readonly variable?: string;
}

/**
 * A path key split at its first `?`: OpenAPI path keys are path templates and have no query string, but documents
 * converted from other formats write `/search?q={q}`. The path is the part before `?`.
 */
function splitPathKey(key: string): { path: string; query?: { readonly pairs: readonly QueryPair[]; readonly variables: readonly string[] } } {
  const at = key.indexOf("?");
  if (at < 0) return { path: key };
  const text = key.slice(at + 1);
  const pairs: QueryPair[] = [];
  for (const part of text.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    const name = eq < 0 ? part : part.slice(0, eq);
    const m = /^\{([^{}]+)\}$/.exec(eq < 0 ? "" : part.slice(eq + 1));
    pairs.push(m ? { name, variable: m[1]! } : { name });
  }
  return { path: key.slice(0, at), query: { pairs, variables: [...text.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!) } };
}

interface OperationSite {
  /** The path template: the path key without the query string it may (wrongly) carry. */
  readonly path: string;
  /** The path key as written. */
  readonly key: string;
  readonly query: ReturnType<typeof splitPathKey>["query"];
  readonly method: string;
  readonly name: string;
  /** The path item's own `parameters` (shared by its operations). */
  readonly itemParameters: Loc | undefined;
  readonly op: Loc;
  readonly rootSecurity: Loc | undefined;
}

function lowerOperation(ctx: LowerContext, schemas: SchemaLowerer, site: OperationSite): HttpOperation {
  const { op, path } = site;
  const where = `${site.method.toUpperCase()} ${path}`;
  const typeName = pascalCase(site.name);

  // Operation-level parameters override path-level ones with the same name and location.
  const params = new Map<string, HttpParameter>();
  for (const list of [site.itemParameters, child(op, "parameters")]) {
    for (const p of items(list)) {
      const param = lowerParameter(ctx, schemas, ctx.deref(p), typeName);
      // OpenAPI 3 (Parameter Object, `name`): a header parameter named Accept, Content-Type or Authorization "SHALL
      // be ignored" (media types and security schemes say those). Kept, a server would validate the Accept header
      // every HTTP client sends (`*/*`) against the parameter's schema and refuse valid calls.
      if (param.in === "header" && IGNORED_HEADERS.has(param.name.toLowerCase())) continue;
      const key = `${param.in}:${param.in === "header" ? param.name.toLowerCase() : param.name}`;
      params.set(key, param);
    }
  }
  if (site.query) queryStringParameters(ctx, site, params);
  for (const m of path.matchAll(/\{([^}]+)\}/g)) {
    if (!params.has(`path:${m[1]!}`)) ctx.fail(op, `path parameter "${m[1]!}" of ${where} is not declared`);
  }

  const summary = str(op, "summary");
  const doc = str(op, "description");
  const tags = items(child(op, "tags")).flatMap((t) => (typeof t.value === "string" ? [t.value] : []));
  const bodyRef = child(op, "requestBody");
  const security = securityNames(ctx, child(op, "security") ?? site.rootSecurity);

  const responses: HttpResponse[] = [];
  for (const [status, r] of entries(child(op, "responses"))) {
    if (status.startsWith("x-")) continue;
    if (!STATUS.test(status)) ctx.fail(r, `invalid response status "${status}" (expected 100-599, 1XX-5XX or default)`);
    responses.push(lowerResponse(ctx, schemas, status, ctx.deref(r), `${typeName}Response${pascalCase(status)}`));
  }

  return {
    name: site.name,
    method: site.method as HttpOperation["method"],
    path,
    ...(summary !== undefined ? { summary } : {}),
    ...(doc !== undefined ? { doc } : {}),
    ...(bool(op, "deprecated") ? { deprecated: true } : {}),
    tags,
    parameters: [...params.values()],
    ...(bodyRef ? { requestBody: lowerRequestBody(ctx, schemas, ctx.deref(bodyRef), `${typeName}Request`) } : {}),
    responses,
    ...(security ? { security } : {}),
    origin: ctx.origin(op, `openapi operation ${where}`),
  };
}

/**
 * The variables of a path key's query string (`/search?q={q}`, a degraded construct: see splitPathKey). A variable
 * declared `in: query` is that parameter; one declared `in: path` (as such documents do) but absent from the path
 * becomes a query parameter named by its pair (`key={APIKEY}` sends `key`); one that no parameter declares is left
 * out with a warning, as is one that names a key rather than a value (`{search}=1`).
 */
function queryStringParameters(ctx: LowerContext, site: OperationSite, params: Map<string, HttpParameter>): void {
  const where = `${site.method.toUpperCase()} ${site.key}`;
  const inPath = new Set([...site.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!));
  const pairOf = new Map(site.query!.pairs.flatMap((p) => (p.variable !== undefined ? [[p.variable, p.name] as const] : [])));
  const left: string[] = [];
  for (const variable of new Set(site.query!.variables)) {
    if (inPath.has(variable) || params.has(`query:${variable}`)) continue;
    const name = pairOf.get(variable);
    const declared = params.get(`path:${variable}`);
    if (declared === undefined || name === undefined || !/^[^{}=&]+$/.test(name)) {
      left.push(`"${variable}"${declared === undefined ? " (declared by no parameter)" : " (not the value of a name=value pair)"}`);
      if (declared) params.delete(`path:${variable}`);
      continue;
    }
    params.delete(`path:${variable}`);
    if (params.has(`query:${name}`)) continue;
    // A path style (simple, label, matrix) means nothing in a query: the query's own default (form) applies.
    const { style: _style, explode: _explode, ...rest } = declared;
    params.set(`query:${name}`, { ...rest, name, in: "query" });
  }
  if (left.length > 0) {
    ctx.warn(site.op, `the query string of ${where} has variables that are no query parameter, left out: ${left.join(", ")}`);
  }
}

function lowerParameter(ctx: LowerContext, schemas: SchemaLowerer, p: Loc, typeName: string): HttpParameter {
  const name = str(p, "name");
  if (name === undefined) ctx.fail(p, "a parameter needs a name");
  const where = str(p, "in");
  if (where === undefined || !LOCATIONS.has(where)) ctx.fail(child(p, "in") ?? p, `parameter "${name}" needs "in": path, query, header or cookie`);
  const style = str(p, "style");
  const explode = bool(p, "explode");
  const hint = `${typeName}${pascalCase(name)}Param`;
  let value = valueOf(schemas, p, hint);
  const degraded = checkParameterStyle(ctx, p, { name, in: where as HttpParameter["in"], style, explode }, value.type);
  if (degraded) {
    // A degraded parameter's value is a named type (an anonymous alias when inline), so the server checks what
    // arrives with its validator like a body's.
    const named = schemas.withoutFacets(child(p, "schema")!, hint, true);
    value = { type: named.type, ...(named.nullable ? { nullable: true } : {}) };
  }
  return {
    name,
    in: where as HttpParameter["in"],
    // Path parameters are always required (the spec demands `required: true`; a missing flag is not an option).
    required: where === "path" || bool(p, "required") === true,
    ...value,
    ...(degraded ?? {
      ...(style !== undefined ? { style } : {}),
      ...(explode !== undefined ? { explode } : {}),
      ...parameterContent(p),
    }),
    ...(bool(p, "deprecated") ? { deprecated: true } : {}),
    ...docOf(p),
    ...examplesOf(ctx, p),
    origin: ctx.origin(p, `openapi parameter ${where} ${name}`),
  };
}

/** The type of a parameter or header: its `schema`, else the schema of its single `content` entry, else any. */
function valueOf(schemas: SchemaLowerer, p: Loc, hint: string): Pick<HttpParameter, "type" | "nullable" | "facets"> {
  const schema = child(p, "schema") ?? entries(child(p, "content")).map(([, m]) => child(m, "schema"))[0];
  if (!schema) return { type: ANY };
  const l = schemas.lower(schema, hint);
  return { type: l.type, ...(l.nullable ? { nullable: true } : {}), ...(l.facets ? { facets: l.facets } : {}) };
}

function lowerRequestBody(ctx: LowerContext, schemas: SchemaLowerer, body: Loc, hint: string): NonNullable<HttpOperation["requestBody"]> {
  if (!isObject(body.value)) ctx.fail(body, "requestBody must be an object");
  return { required: bool(body, "required") === true, ...docOf(body), contents: contentsOf(schemas, child(body, "content"), hint, ctx) };
}

function lowerResponse(ctx: LowerContext, schemas: SchemaLowerer, status: string, r: Loc, hint: string): HttpResponse {
  if (!isObject(r.value)) ctx.fail(r, "a response must be an object");
  const headers: HttpParameter[] = [];
  for (const [name, h] of entries(child(r, "headers"))) {
    // The spec says a Content-Type response header is ignored: the media type key says it.
    if (name.toLowerCase() === "content-type") continue;
    const header = ctx.deref(h);
    headers.push({
      name,
      in: "header",
      required: bool(header, "required") === true,
      ...valueOf(schemas, header, `${hint}${pascalCase(name)}Header`),
      ...(bool(header, "deprecated") ? { deprecated: true } : {}),
      ...docOf(header),
      ...examplesOf(ctx, header),
      origin: ctx.origin(header, `openapi header ${name}`),
    });
  }
  return { status, ...docOf(r), contents: contentsOf(schemas, child(r, "content"), hint, ctx, false), headers };
}

/**
 * Bodies by media type. Every body that is parsed as JSON or a form gets a named type (and so a validator and codecs
 * of its own, which the server calls), whatever its shape; a text or binary body only when its schema constrains it.
 */
function contentsOf(schemas: SchemaLowerer, content: Loc | undefined, hint: string, ctx: LowerContext, encoding = true): HttpContent[] {
  return entries(content).flatMap(([mediaType, m]): HttpContent[] => {
    const schema = child(m, "schema");
    const examples = examplesOf(ctx, m);
    if (!schema) return [{ mediaType, type: ANY, ...examples }];
    // Request bodies only (`encoding`: a response is read as whatever arrives).
    const single = encoding && MULTIPART.test(mediaType) ? singleValueType(ctx, schema) : undefined;
    if (single !== undefined) {
      ctx.warn(
        schema,
        `a ${mediaType.toLowerCase()} body is named parts, the properties of an object schema (OpenAPI, "Special Considerations for multipart Content"), not one ${single}: the media type is left out (clients do not send it, servers do not read it)`,
      );
      return [];
    }
    const { type, nullable } = schemas.withoutFacets(schema, hint, STRUCTURED_MEDIA.test(mediaType));
    return [{ mediaType, type, ...(nullable ? { nullable: true } : {}), ...(encoding ? lowerEncoding(ctx, m) : {}), ...examples }];
  });
}

const MULTIPART = /^multipart\/form-data\s*(;|$)/i;

/** The `type` of a schema that can only be one primitive value (`string`, `integer`...), following `$ref`s. */
function singleValueType(ctx: LowerContext, schema: Loc): string | undefined {
  const s = ctx.recover(() => ctx.deref(schema));
  if (!s || !isObject(s.value)) return undefined;
  const t = s.value["type"];
  const types = typeof t === "string" ? [t] : Array.isArray(t) ? t.filter((x) => x !== "null") : [];
  if (types.length === 0 || types.some((x) => typeof x !== "string" || x === "object" || x === "array")) return undefined;
  for (const k of ["properties", "allOf", "anyOf", "oneOf", "additionalProperties"]) if (k in s.value) return undefined;
  return types.join(" or ");
}

/** The `examples` field of a parameter, header or body (its own examples, else its schema's); empty when none. */
function examplesOf(ctx: LowerContext, loc: Loc): { examples?: readonly Example[] } {
  const examples = objectExamples(ctx, loc, child(loc, "schema"));
  return examples ? { examples } : {};
}

/** Scheme names of a security requirement list, in order; `[]` means explicitly none. */
function securityNames(ctx: LowerContext, security: Loc | undefined): string[] | undefined {
  if (!security) return undefined;
  if (!Array.isArray(security.value)) ctx.fail(security, "security must be an array of requirement objects");
  const names: string[] = [];
  for (const req of items(security)) for (const [name] of entries(req)) if (!names.includes(name)) names.push(name);
  return names;
}

export function lowerSecuritySchemes(ctx: LowerContext, root: Loc): HttpService["securitySchemes"] {
  const components = child(root, "components");
  return entries(components && child(components, "securitySchemes")).map(([name, ref]) => {
    const s = ctx.deref(ref);
    const type = str(s, "type");
    if (type === undefined) ctx.fail(s, `security scheme "${name}" needs a type`);
    const scheme = str(s, "scheme");
    const where = str(s, "in");
    const paramName = str(s, "name");
    return {
      name,
      type,
      ...(scheme !== undefined ? { scheme } : {}),
      ...(where !== undefined ? { in: where } : {}),
      ...(paramName !== undefined ? { paramName } : {}),
    };
  });
}

function docOf(loc: Loc): { doc?: string } {
  const doc = str(loc, "description");
  return doc !== undefined ? { doc } : {};
}
