import { pointerJoin, type ValidationIssue } from "../validation.js";
import { jsonParse } from "../json/parse.js";
import { restParamIssue } from "./params.js";
import type { RestQuery } from "./query.js";
import type { RestStyle } from "./style-write.js";

/**
 * Reading parameter text the way OpenAPI's `style` and `explode` define (the inverse of ./style-write.ts): what
 * generated servers call before coercing the text to the schema's types. Values arrive percent-decoded (the router
 * decodes path segments, RestQuery decodes the query), so a delimiter inside a value cannot be told from a real
 * one: OAS Appendix E leaves that ambiguous, and a value that may contain one needs `explode: true` or JSON.
 *
 * Objects are maps without a prototype, so keys such as `__proto__` are plain entries.
 */
export interface RestTextObject {
  [key: string]: RestText;
}
/** The text of a parameter before coercion: a primitive's text, an array's items, or an object's properties. */
export type RestText = string | RestText[] | RestTextObject;

function textObject(): RestTextObject {
  return Object.create(null) as RestTextObject;
}

/** Pairs `k,v,k2,v2` (explode false) or `k=v` items (explode true) as an object. */
function objectOf(items: readonly string[], explode: boolean): RestTextObject {
  const out = textObject();
  if (explode) {
    for (const item of items) {
      const eq = item.indexOf("=");
      if (eq < 0) out[item] = "";
      else out[item.slice(0, eq)] = item.slice(eq + 1);
    }
  } else for (let i = 0; i + 1 < items.length; i += 2) out[items[i]!] = items[i + 1]!;
  return out;
}

const split = (text: string, delimiter: string): string[] => (text === "" ? [] : text.split(delimiter));

/**
 * A path or header value in style simple, label or matrix (`text` is the decoded path segment or header value).
 * `shape` is what the schema expects. A value without the style's prefix (`.` for label, `;name` for matrix) is an
 * issue at `pointer`, and undefined is returned.
 */
export function restReadTemplate(
  text: string,
  name: string,
  style: RestStyle,
  explode: boolean,
  shape: "primitive" | "array" | "object",
  pointer: string,
  issues: ValidationIssue[],
): RestText | undefined {
  let body = text;
  if (style === "label" || style === "matrix") {
    const prefix = style === "label" ? "." : ";";
    if (!text.startsWith(prefix)) {
      restParamIssue(issues, pointer, "style", `expected a ${style}-style value starting with "${prefix}"`);
      return undefined;
    }
    body = text.slice(1);
  }
  if (style === "matrix") {
    // A primitive is everything after `;name=`: a `;` inside it (sent as %3B, decoded by the router) stays.
    if (shape === "primitive" && (body === name || body.startsWith(`${name}=`))) return body.slice(name.length + 1);
    if (explode && shape === "object") return objectOf(split(body, ";"), true);
    const parts = split(body, ";");
    const values: string[] = [];
    for (const part of parts) {
      if (part === name) values.push("");
      else if (part.startsWith(`${name}=`)) values.push(part.slice(name.length + 1));
      else {
        restParamIssue(issues, pointer, "style", `expected ;${name}=... in a matrix-style value`);
        return undefined;
      }
    }
    if (shape === "array") return explode ? values : split(values[0] ?? "", ",");
    if (shape === "object") return objectOf(split(values[0] ?? "", ","), false);
    return values[0] ?? "";
  }
  const delimiter = style === "label" && explode ? "." : ",";
  if (shape === "array") return split(body, delimiter);
  if (shape === "object") return objectOf(split(body, delimiter), explode);
  return body;
}

/** A primitive path or header value in style label or matrix (simple needs no call); absent text -> undefined. */
export function restTemplateScalar(
  text: string | null | undefined,
  name: string,
  style: RestStyle,
  pointer: string,
  issues: ValidationIssue[],
): string | undefined {
  if (text == null) return undefined;
  return restReadTemplate(text, name, style, false, "primitive", pointer, issues) as string | undefined;
}

/** An array path or header value in style simple, label or matrix; absent text -> undefined. */
export function restTemplateArray(
  text: string | null | undefined,
  name: string,
  style: RestStyle,
  explode: boolean,
  pointer: string,
  issues: ValidationIssue[],
): string[] | undefined {
  if (text == null) return undefined;
  return restReadTemplate(text, name, style, explode, "array", pointer, issues) as string[] | undefined;
}

const QUERY_DELIMITERS: { readonly [style: string]: string } = { spaceDelimited: " ", pipeDelimited: "|", tabDelimited: "\t" };

/**
 * An array in a query string: form (`tag=a&tag=b`, or `tag=a,b` when not exploded), space-, pipe- or
 * tab-delimited (`tag=a|b`; exploded, the name repeats), or the bracket convention of deepObject
 * (`tag[]=a&tag[]=b` or `tag[0]=a&tag[1]=b`). Absent -> undefined; an empty delimited value is the empty array.
 */
export function restQueryArray(query: RestQuery, name: string, style: RestStyle, explode: boolean): string[] | undefined {
  if (style === "deepObject") {
    const deep = restQueryDeep(query, name);
    if (deep === undefined) return undefined;
    if (typeof deep === "string") return [deep];
    return Array.isArray(deep) ? deep.map((item) => (typeof item === "string" ? item : "")) : undefined;
  }
  if (explode) {
    const all = query.getAll(name);
    return all.length > 0 ? all : undefined;
  }
  const raw = query.get(name);
  if (raw === null) return undefined;
  return split(raw, QUERY_DELIMITERS[style] ?? ",");
}

/**
 * An object in a query string. deepObject: `color[R]=100` (nested brackets kept, see restQueryDeep); form exploded:
 * the object's own properties as parameters (`R=100&G=200`): `keys` lists them, or, for a free-form object, every
 * parameter not in `exclude` (the operation's other parameters) is one; not exploded: `color=R,100,G,200` with the
 * style's delimiter.
 */
export function restQueryObject(
  query: RestQuery,
  name: string,
  style: RestStyle,
  explode: boolean,
  fields: { readonly keys?: readonly string[]; readonly exclude?: readonly string[] },
): RestText | undefined {
  if (style === "deepObject") return restQueryDeep(query, name);
  if (explode) {
    const out = textObject();
    let found = false;
    query.forEach((value, key) => {
      const wanted = fields.keys ? fields.keys.includes(key) : !(fields.exclude ?? []).includes(key);
      if (!wanted || key in out) return;
      out[key] = value;
      found = true;
    });
    return found ? out : undefined;
  }
  const raw = query.get(name);
  if (raw === null) return undefined;
  return objectOf(split(raw, QUERY_DELIMITERS[style] ?? ","), false);
}

/**
 * The text of an object, union or nested parameter in a query string (or the cookies), before restCoerce.
 * `shapes` lists what the schema allows: "p" primitive, "a" array, "o" object. deepObject reads the bracket
 * convention; otherwise an array is preferred to a primitive when the value could be either (exploded: one value
 * is a primitive when the schema allows one), and an object to a primitive unless the text has no delimiter.
 */
export function restQueryText(
  query: RestQuery,
  name: string,
  style: RestStyle,
  explode: boolean,
  shapes: string,
  fields: { readonly keys?: readonly string[]; readonly exclude?: readonly string[] } = {},
): RestText | undefined {
  if (style === "deepObject") return restQueryDeep(query, name);
  const primitive = shapes.includes("p");
  if (shapes.includes("a")) {
    const items = restQueryArray(query, name, style, explode);
    if (items !== undefined) return explode && primitive && items.length === 1 ? items[0]! : items;
  }
  const raw = query.get(name);
  if (shapes.includes("o")) {
    const delimiter = QUERY_DELIMITERS[style] ?? ",";
    const plainPrimitive = primitive && raw !== null && (explode || !raw.includes(delimiter));
    if (!plainPrimitive) {
      const object = restQueryObject(query, name, style, explode, fields);
      if (object !== undefined) return object;
    }
  }
  return primitive && raw !== null ? raw : undefined;
}

/** The text of an object, union or nested path or header value (see restQueryText for `shapes`). */
export function restTemplateText(
  text: string | null | undefined,
  name: string,
  style: RestStyle,
  explode: boolean,
  shapes: string,
  pointer: string,
  issues: ValidationIssue[],
): RestText | undefined {
  if (text == null) return undefined;
  const shape = shapes.includes("a") ? "array" : shapes.includes("o") ? "object" : "primitive";
  if (shape !== "primitive" && shapes.includes("p")) {
    const body = style === "simple" ? text : text.slice(1);
    const delimiter = style === "label" && explode ? "." : style === "matrix" ? ";" : ",";
    const bare = style === "matrix" ? body.slice(name.length + 1) : body;
    if (!bare.includes(delimiter) && !(shape === "object" && bare.includes("="))) {
      return restReadTemplate(text, name, style, explode, "primitive", pointer, issues);
    }
  }
  return restReadTemplate(text, name, style, explode, shape, pointer, issues);
}

/**
 * Check a coerced parameter with the validator of its schema's named type, the issues' paths under `pointer`
 * ("/query/filter" + "/status"). Skipped when coercion already reported the parameter (its value is then partial).
 */
export function restValidateParam(
  value: unknown,
  pointer: string,
  issues: ValidationIssue[],
  validate: (value: unknown) => readonly ValidationIssue[],
): void {
  if (value === undefined) return;
  if (issues.some((i) => i.path === pointer || i.path.startsWith(`${pointer}/`))) return;
  for (const issue of validate(value)) issues.push({ ...issue, path: pointer + issue.path });
}

/**
 * The bracket convention (qs, Rails, Stripe) behind deepObject: `name=v` is a primitive, `name[a][b]=v` nested
 * objects, `name[]=v` and `name[0]=v` array items (an object whose keys are all indices becomes an array, in index
 * order). Undefined when no parameter has this name. At most 8 levels of brackets are read; deeper keys are kept
 * whole as one property, so a hostile query cannot build deep structures.
 */
export function restQueryDeep(query: RestQuery, name: string): RestText | undefined {
  let plain: string | undefined;
  let root: RestTextObject | undefined;
  const appended = new Map<RestTextObject, number>();
  query.forEach((value, key) => {
    if (key === name) {
      plain ??= value;
      return;
    }
    if (!key.startsWith(`${name}[`)) return;
    const path = bracketPath(key.slice(name.length));
    if (path === undefined) return;
    root ??= textObject();
    let node = root;
    for (let i = 0; i < path.length; i++) {
      let segment = path[i]!;
      if (segment === "") {
        // `name[]=a&name[]=b`: each empty bracket appends at the next free index.
        const next = appended.get(node) ?? 0;
        appended.set(node, next + 1);
        segment = `\u0000${String(next).padStart(10, "0")}`;
      }
      if (i === path.length - 1) {
        if (!(segment in node)) node[segment] = value;
        return;
      }
      const existing = node[segment];
      if (existing === undefined || typeof existing === "string") node = node[segment] = textObject();
      else if (Array.isArray(existing)) return;
      else node = existing;
    }
  });
  if (root !== undefined) return arrays(root);
  return plain;
}

const MAX_DEPTH = 8;

/** `[a][b][]` -> ["a", "b", ""]; undefined when the key is not made of brackets only. */
function bracketPath(rest: string): string[] | undefined {
  const path: string[] = [];
  let at = 0;
  while (at < rest.length) {
    if (rest[at] !== "[" || path.length === MAX_DEPTH) {
      if (path.length === 0) return undefined;
      path[path.length - 1] += rest.slice(at);
      return path;
    }
    const close = rest.indexOf("]", at);
    if (close < 0) return undefined;
    path.push(rest.slice(at + 1, close));
    at = close + 1;
  }
  return path;
}

const INDEX = /^(?:0|[1-9]\d{0,5})$/;
const APPENDED = /^\u0000\d{10}$/;

/** Objects whose keys are all indices (or `[]` appends) become arrays, ordered by index. */
function arrays(node: RestTextObject): RestText {
  const keys = Object.keys(node);
  for (const key of keys) {
    const child = node[key]!;
    if (typeof child !== "string" && !Array.isArray(child)) node[key] = arrays(child);
  }
  if (keys.length === 0) return node;
  if (keys.every((k) => APPENDED.test(k))) return keys.sort().map((k) => node[k]!);
  if (keys.every((k) => INDEX.test(k))) return keys.sort((a, b) => Number(a) - Number(b)).map((k) => node[k]!);
  for (const key of keys) {
    if (APPENDED.test(key)) {
      node[String(Number(key.slice(1)))] = node[key]!;
      delete node[key];
    }
  }
  return node;
}

/** The cookies of a request (the Cookie header) as a query: `name=value` pairs separated by `;`, percent-decoded. */
export function restCookies(header: string | null): RestQuery {
  const cookies = new URLSearchParams();
  if (header === null) return cookies;
  for (const piece of header.split(";")) {
    const pair = piece.trim();
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const name = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? "" : pair.slice(eq + 1);
    cookies.append(decodeLenient(name), decodeLenient(value));
  }
  return cookies;
}

function decodeLenient(text: string): string {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The coercion of a parameter's text to its schema's type, as generated servers describe it. */
export type RestPlan =
  | "string"
  | "integer"
  | "number"
  | "boolean"
  | "any"
  | { readonly list: RestPlan }
  | { readonly fields: readonly (readonly [string, RestPlan])[]; readonly rest?: RestPlan }
  | { readonly anyOf: readonly RestPlan[] };

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/**
 * Coerce a parameter's text to the value its plan describes, pushing an issue at `path` (a JSON pointer) for
 * each part that does not fit; undefined when the whole value does not. Used for objects, unions and nested
 * values (primitives and arrays of primitives get straight-line code).
 */
export function restCoerce(text: RestText, plan: RestPlan, path: string, issues: ValidationIssue[]): unknown {
  if (typeof plan === "string") {
    if (plan === "any") return text;
    if (typeof text !== "string") {
      restParamIssue(issues, path, "type", `expected a ${plan}, got a structured value`);
      return undefined;
    }
    return scalar(text, plan, path, issues);
  }
  if ("list" in plan) {
    if (!Array.isArray(text)) {
      restParamIssue(issues, path, "type", "expected an array");
      return undefined;
    }
    return text.map((item, i) => restCoerce(item, plan.list, pointerJoin(path, i), issues));
  }
  if ("fields" in plan) {
    if (typeof text === "string" || Array.isArray(text)) {
      restParamIssue(issues, path, "type", "expected an object");
      return undefined;
    }
    const out = Object.create(null) as { [key: string]: unknown };
    for (const key of Object.keys(text)) {
      const field = plan.fields.find(([k]) => k === key);
      const fieldPlan = field ? field[1] : plan.rest ?? "any";
      out[key] = restCoerce(text[key]!, fieldPlan, pointerJoin(path, key), issues);
    }
    return out;
  }
  // A union: the first alternative the text fits without an issue.
  for (const alternative of plan.anyOf) {
    if (!fits(text, alternative)) continue;
    const trial: ValidationIssue[] = [];
    const value = restCoerce(text, alternative, path, trial);
    if (trial.length === 0) return value;
  }
  restParamIssue(issues, path, "type", "matches none of the alternatives of its schema");
  return undefined;
}

function fits(text: RestText, plan: RestPlan): boolean {
  if (typeof plan === "string") return plan === "any" || typeof text === "string";
  if ("list" in plan) return Array.isArray(text);
  if ("fields" in plan) return typeof text !== "string" && !Array.isArray(text);
  return true;
}

function scalar(text: string, plan: "string" | "integer" | "number" | "boolean", path: string, issues: ValidationIssue[]): unknown {
  switch (plan) {
    case "string":
      return text;
    case "integer":
      if (INTEGER.test(text) && Number.isSafeInteger(Number(text))) return Number(text);
      restParamIssue(issues, path, "type", `expected an integer, got ${JSON.stringify(text)}`);
      return undefined;
    case "number":
      if (NUMBER.test(text)) return Number(text);
      restParamIssue(issues, path, "type", `expected a number, got ${JSON.stringify(text)}`);
      return undefined;
    case "boolean":
      if (text === "true" || text === "false") return text === "true";
      restParamIssue(issues, path, "type", `expected true or false, got ${JSON.stringify(text)}`);
      return undefined;
  }
}

/**
 * The lenient coercion of form bodies: like restCoerce, but what does not fit its plan is kept as it is (the text,
 * or a value a JSON field already typed), so the body validator reports it with its real value.
 */
export function restCoerceForm(value: unknown, plan: RestPlan): unknown {
  if (typeof plan === "string") {
    if (plan === "any" || typeof value !== "string") return value;
    const issues: ValidationIssue[] = [];
    const out = scalar(value, plan, "", issues);
    return issues.length === 0 ? out : value;
  }
  if ("list" in plan) return Array.isArray(value) ? value.map((item) => restCoerceForm(item, plan.list)) : value;
  if ("fields" in plan) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
    const out = Object.create(null) as { [key: string]: unknown };
    for (const key of Object.keys(value)) {
      const field = plan.fields.find(([k]) => k === key);
      out[key] = restCoerceForm((value as { [key: string]: unknown })[key], field ? field[1] : plan.rest ?? "any");
    }
    return out;
  }
  for (const alternative of plan.anyOf) {
    if (!fits(value as RestText, alternative)) continue;
    const trial: ValidationIssue[] = [];
    const coerced = restCoerce(value as RestText, alternative, "", trial);
    if (trial.length === 0) return coerced;
  }
  return value;
}

/** A parameter described by `content` with a JSON media type: its text parsed (strictly), or an issue. */
export function restJsonParam(text: string | null | undefined, pointer: string, issues: ValidationIssue[]): unknown {
  if (text == null) return undefined;
  try {
    return jsonParse(text);
  } catch {
    restParamIssue(issues, pointer, "type", "expected JSON text");
    return undefined;
  }
}
