/**
 * Writing parameter values the way OpenAPI's `style` and `explode` define (the "Style Examples" table of OAS 3.1.1,
 * which follows RFC 6570): what generated clients call for path, query, header and cookie parameters.
 *
 * Values are checked at run time (primitive, array or object), because one parameter may be several of them (a
 * union such as Stripe's `created: integer | { gt, lt }`). Query pieces and path segments are percent-encoded
 * here, delimiters left as the table shows them; header values are not (headers are not URIs).
 */

/** The styles OpenAPI 3.x defines, plus `tabDelimited` (Swagger 2.0's `collectionFormat: tsv`). */
export type RestStyle = "matrix" | "label" | "simple" | "form" | "spaceDelimited" | "pipeDelimited" | "tabDelimited" | "deepObject";

/** RFC 3986 percent-encoding: everything but the unreserved characters (encodeURIComponent keeps `!'()*` too). */
export function restEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The text of one primitive: numbers, booleans and bigints as written by String, a Date as ISO 8601, null as "". */
export function restScalarText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

type Encode = (text: string) => string;
const plain: Encode = (text) => text;

/** The defined properties of an object value, in insertion order. */
function entriesOf(value: object): [string, unknown][] {
  return Object.keys(value).flatMap((key) => {
    const item = (value as { [key: string]: unknown })[key];
    return item === undefined ? [] : [[key, item] as [string, unknown]];
  });
}

const isObjectValue = (value: unknown): value is object =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);

/**
 * The value of a path parameter as it replaces `{name}` in the path: simple `blue,black`, label `.blue.black` or
 * matrix `;color=blue;color=black`.
 */
export function restPathValue(name: string, value: unknown, style: RestStyle, explode: boolean): string {
  return uriTemplateValue(name, value, style, explode, restEncode);
}

/** A header parameter (style simple), not percent-encoded; undefined when there is nothing to send. */
export function restHeaderValue(value: unknown, explode: boolean): string | undefined {
  if (value === undefined) return undefined;
  return uriTemplateValue("", value, "simple", explode, plain);
}

function uriTemplateValue(name: string, value: unknown, style: RestStyle, explode: boolean, encode: Encode): string {
  const prefix = style === "label" ? "." : style === "matrix" ? ";" : "";
  const named = (text: string, key = name) => (style === "matrix" ? (text === "" ? encode(key) : `${encode(key)}=${text}`) : text);
  // explode joins items with the prefix itself (`.a.b`, `;c=a;c=b`); simple always joins with commas.
  const itemJoin = explode && prefix !== "" ? prefix : ",";
  if (Array.isArray(value)) {
    const items = value.map((item) => encode(restScalarText(item)));
    if (explode && style === "matrix") return items.length === 0 ? prefix + encode(name) : prefix + items.map((i) => named(i)).join(";");
    return prefix + named(items.join(itemJoin));
  }
  if (isObjectValue(value)) {
    const pairs = entriesOf(value).map(([key, item]) => [encode(key), encode(restScalarText(item))] as const);
    if (explode) return prefix + pairs.map(([key, item]) => `${key}=${item}`).join(itemJoin);
    return prefix + named(pairs.map(([key, item]) => `${key},${item}`).join(","));
  }
  return prefix + named(encode(restScalarText(value)));
}

const DELIMITERS: { readonly [style: string]: string } = {
  form: ",",
  spaceDelimited: "%20",
  pipeDelimited: "%7C",
  tabDelimited: "%09",
};

/**
 * Append a query parameter to `pieces` (each an encoded `key=value`; restSend joins them with `&`). Undefined is
 * skipped. form: `color=blue,black` or exploded `color=blue&color=black` (an exploded object: `R=100&G=200`);
 * space-, pipe- and tab-delimited: one `color=` with the items (or an object's keys and values) joined by the
 * encoded delimiter, repeated when exploded; deepObject: the bracket convention, see restAppendDeepQuery.
 */
export function restAppendQuery(pieces: string[], name: string, value: unknown, style: RestStyle, explode: boolean): void {
  if (value === undefined) return;
  if (style === "deepObject") {
    restAppendDeepQuery(pieces, restEncode(name), value);
    return;
  }
  const key = restEncode(name);
  const delimiter = DELIMITERS[style] ?? ",";
  if (Array.isArray(value)) {
    const items = value.map((item) => restEncode(restScalarText(item)));
    if (explode) for (const item of items) pieces.push(`${key}=${item}`);
    else pieces.push(`${key}=${items.join(delimiter)}`);
  } else if (isObjectValue(value)) {
    const pairs = entriesOf(value).map(([k, item]) => [restEncode(k), restEncode(restScalarText(item))] as const);
    if (explode) for (const [k, item] of pairs) pieces.push(`${k}=${item}`);
    else pieces.push(`${key}=${pairs.map(([k, item]) => `${k}${delimiter}${item}`).join(delimiter)}`);
  } else pieces.push(`${key}=${restEncode(restScalarText(value))}`);
}

/**
 * deepObject, generalised to the bracket convention (qs, Rails, Stripe) for what OpenAPI leaves undefined: an
 * object's properties as `name[key]=value`, nested objects as `name[a][b]=value`, array items by index
 * (`name[0]=a`, `name[0][price]=p`), and a primitive as plain `name=value`. For an object of primitives this is
 * exactly OpenAPI's deepObject (`color%5BR%5D=100`). `key` is already encoded.
 */
export function restAppendDeepQuery(pieces: string[], key: string, value: unknown): void {
  if (value === undefined) return;
  if (Array.isArray(value)) value.forEach((item, i) => restAppendDeepQuery(pieces, `${key}%5B${i}%5D`, item));
  else if (isObjectValue(value)) {
    for (const [k, item] of entriesOf(value)) restAppendDeepQuery(pieces, `${key}%5B${restEncode(k)}%5D`, item);
  } else pieces.push(`${key}=${restEncode(restScalarText(value))}`);
}

/**
 * Append a cookie parameter (style form) to `pairs`: `name=value`, an array `name=a,b` (exploded: `name=a` per
 * item), an object `name=k,v,k2,v2` (exploded: `k=v` per property). Values are percent-encoded, so a `;` or a
 * space in a value cannot end the cookie. restCookieHeader joins the pairs.
 */
export function restAppendCookie(pairs: string[], name: string, value: unknown, explode: boolean): void {
  if (value === undefined) return;
  const pieces: string[] = [];
  restAppendQuery(pieces, name, value, "form", explode);
  pairs.push(...pieces);
}

/** The Cookie header of a request's cookie parameters, or undefined when there are none. */
export function restCookieHeader(pairs: readonly string[]): string | undefined {
  return pairs.length === 0 ? undefined : pairs.join("; ");
}

/**
 * A parameter described by `content` with a JSON media type: its value as JSON text, then written like a string
 * (percent-encoded in a query, path or cookie). Undefined stays undefined.
 */
export function restJsonText(value: unknown): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value);
}
