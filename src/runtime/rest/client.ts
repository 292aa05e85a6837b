/**
 * What generated REST clients call: one function that sends a request with the standard `fetch` (injectable) and
 * reads the response. Generated methods build the path and query, pick the declared statuses and type the result.
 */
import { interceptedFetch, type HttpAuth, type Interceptor } from "../http/interceptor.js";

export interface RestClientOptions {
  /** The API root including its base path, e.g. "http://127.0.0.1:8080/api/v2". */
  readonly baseUrl: string;
  readonly fetch?: typeof fetch;
  /** Adds credentials to each request (e.g. an Authorization header or query parameters); may return a new Request. */
  readonly auth?: HttpAuth;
  /** Functions that see (and may change) every request and response, first one outermost (see Interceptor). */
  readonly interceptors?: readonly Interceptor[];
  /** Headers sent with every request. */
  readonly headers?: { readonly [name: string]: string };
  /** Abort each request after this many milliseconds (a DOMException named "TimeoutError" is thrown). */
  readonly timeoutMs?: number;
}

export interface RestCallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  readonly headers?: { readonly [name: string]: string };
}

/** One declared response: its status, its typed body, and every response header (e.g. pagination headers). */
export interface RestResponse<S extends number, B> {
  readonly status: S;
  readonly body: B;
  readonly headers: Headers;
}

/** A request body as generated code describes it. */
export type RestBody =
  /**
   * `text`: the body already written by the generated JSON encoder (`encode<T>Json`), for types whose JSON differs
   * from JSON.stringify's (bytes as base64, 64-bit integers as bigint); without it the value goes through JSON.stringify.
   */
  | { readonly kind: "json"; readonly value: unknown; readonly text?: string }
  /** Encoded `key=value` pieces (restFormPieces), or a URLSearchParams (older generated code). */
  | { readonly kind: "form"; readonly value: URLSearchParams | readonly string[] }
  /** fetch writes the multipart Content-Type itself, with its boundary. */
  | { readonly kind: "multipart"; readonly value: FormData };

/** Thrown when the server answers with a status the spec does not declare for the operation. */
export class RestUnexpectedStatusError extends Error {
  constructor(
    readonly operation: string,
    readonly status: number,
    readonly body: unknown,
    readonly headers: Headers,
  ) {
    super(`${operation}: unexpected HTTP status ${status}`);
    this.name = "RestUnexpectedStatusError";
  }
}

/** Thrown when a response body cannot be read as its declared media type (e.g. malformed JSON). */
export class RestResponseFormatError extends Error {
  constructor(
    readonly operation: string,
    readonly status: number,
    message: string,
  ) {
    super(`${operation}: ${message}`);
    this.name = "RestResponseFormatError";
  }
}

/**
 * Percent-encode one path parameter value (a "/" in a value never becomes a path separator). A null value (a
 * `nullable` path parameter schema) is the empty string, as RFC 6570 expands an undefined variable.
 */
export function restPathParam(value: string | number | boolean | null): string {
  return value === null ? "" : encodeURIComponent(String(value));
}

/** Append a style=form parameter: scalars as `name=value`, arrays exploded or comma-joined. Undefined is skipped. */
export function restAppendForm(
  query: URLSearchParams,
  name: string,
  value: string | number | boolean | readonly (string | number | boolean)[] | null | undefined,
  explode: boolean,
): void {
  if (value === undefined || value === null) return;
  if (!Array.isArray(value)) query.append(name, String(value));
  else if (explode) for (const item of value) query.append(name, String(item));
  else query.append(name, value.map(String).join(","));
}

/** Append a style=deepObject parameter: `name[key]=value` per own property. */
export function restAppendDeepObject(
  query: URLSearchParams,
  name: string,
  value: { readonly [key: string]: string | number | boolean } | undefined,
): void {
  if (value === undefined) return;
  for (const key of Object.keys(value)) query.append(`${name}[${key}]`, String(value[key]));
}

/** Form body of a flat object: every defined property as one field. */
export function restFormBody(value: object): URLSearchParams {
  const form = new URLSearchParams();
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || item === null) continue;
    if (Array.isArray(item)) for (const v of item) form.append(key, String(v));
    else form.append(key, String(item));
  }
  return form;
}

export interface RestRawResponse {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Headers;
}

export async function restSend(
  client: RestClientOptions,
  operation: string,
  method: string,
  path: string,
  query: URLSearchParams | readonly string[] | undefined,
  headers: { readonly [name: string]: string | undefined },
  body: RestBody | undefined,
  call: RestCallOptions = {},
  /**
   * How a JSON response body is parsed: JSON.parse unless generated code passes restParseJsonBigints (types with
   * 64-bit integers as bigint or string, whose revivers need big integers exact). Passed in, so a client that does not
   * need the strict parser does not bundle it.
   */
  parse: (text: string) => unknown = JSON.parse,
): Promise<RestRawResponse> {
  // Generated code passes encoded `key=value` pieces (see restAppendQuery); older generated code a URLSearchParams.
  const text = query === undefined ? "" : Array.isArray(query) ? query.join("&") : query.toString();
  const search = text === "" ? "" : `?${text}`;
  const url = client.baseUrl.replace(/\/+$/, "") + path + search;
  const requestHeaders = new Headers(client.headers);
  for (const [name, value] of Object.entries(call.headers ?? {})) requestHeaders.set(name, value);
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) requestHeaders.set(name, value);
  let payload: string | FormData | undefined;
  if (body?.kind === "json") {
    requestHeaders.set("content-type", "application/json");
    payload = body.text ?? JSON.stringify(body.value);
  } else if (body?.kind === "form") {
    requestHeaders.set("content-type", "application/x-www-form-urlencoded");
    payload = body.value instanceof URLSearchParams ? body.value.toString() : body.value.join("&");
  } else if (body?.kind === "multipart") {
    requestHeaders.delete("content-type");
    payload = body.value;
  }
  if ((method === "GET" || method === "HEAD") && payload !== undefined) {
    // A spec may declare a body on GET (Stripe's GET operations declare an empty form): fetch cannot send one, so an
    // empty form is left out and anything else is refused with a clear message rather than fetch's TypeError.
    if (payload === "") {
      payload = undefined;
      requestHeaders.delete("content-type");
    } else throw new TypeError(`${operation}: a ${method} request cannot carry a body with fetch; the spec declares one, send its fields another way`);
  }
  const signals = [call.signal, timeoutSignal(call.timeoutMs ?? client.timeoutMs)].filter((s) => s !== undefined);
  const signal = signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
  const request = new Request(url, { method, headers: requestHeaders, body: payload ?? null, signal: signal ?? null });
  const response = await interceptedFetch(client.fetch ?? ((r) => fetch(r)), client.interceptors, client.auth)(request);
  return { status: response.status, body: await readResponseBody(operation, response, parse), headers: response.headers };
}

function timeoutSignal(ms: number | undefined): AbortSignal | undefined {
  return ms === undefined ? undefined : AbortSignal.timeout(ms);
}

async function readResponseBody(operation: string, response: Response, parse: (text: string) => unknown): Promise<unknown> {
  const text = await response.text();
  if (text === "") return undefined;
  const type = (response.headers.get("content-type") ?? "").toLowerCase();
  if (!type.includes("json")) return text;
  try {
    return parse(text);
  } catch {
    throw new RestResponseFormatError(operation, response.status, "response body is not valid JSON");
  }
}
