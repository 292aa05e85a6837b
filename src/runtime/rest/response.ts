import { responseOf, type HttpAnswerParts } from "../http/direct.js";
import { knownBody, statusAllowsBody } from "../http/known-body.js";

/** What a generated handler returns: a status declared by the spec, its body, and optional response headers. */
export interface RestResult {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: RestHeaders;
}

export type RestHeaders = { readonly [name: string]: string };

const NON_ASCII = /[^\u0000-\u007f]/;
const encoder = /* @__PURE__ */ new TextEncoder();

/** UTF-8 length of `text` (JSON text is nearly always ASCII, where it is the string's length). */
function utf8Length(text: string): number {
  return NON_ASCII.test(text) ? encoder.encode(text).byteLength : text.length;
}

/** A JSON response; `undefined` as the body gives an empty response. The serialized text rides along on the
 * Response (see ../http/known-body.ts), so the node adapter writes it without reading the body stream back. */
export function restJsonResponse(status: number, body: unknown, headers?: RestHeaders): Response {
  return responseOf(restJsonParts(status, body, headers));
}

/** The parts of a JSON answer: the serialized body and its content type; the handler's headers win. No length: the
 * node adapter counts the bytes natively when it writes them (as every web runtime does for a text body). `text`:
 * the body already written as JSON (by the generated encoder of its type), else JSON.stringify(body). */
export function restJsonParts(status: number, body: unknown, headers?: RestHeaders, text?: string): HttpAnswerParts {
  if (body === undefined) return { status, headers: headers ?? NO_HEADERS, body: undefined };
  if (text === undefined) text = JSON.stringify(body);
  const record: Record<string, string> = { "content-type": "application/json" };
  if (headers !== undefined) for (const name of Object.keys(headers)) record[name] = headers[name]!;
  return { status, headers: record, body: text };
}

/** The answer to a HEAD request: the GET answer's headers, its length stated (unless given), and no body. */
export function restHeadParts(get: HttpAnswerParts): HttpAnswerParts {
  const headers: Record<string, string> = {};
  let length = false;
  for (const name of Object.keys(get.headers)) {
    headers[name] = get.headers[name]!;
    if (name.toLowerCase() === "content-length") length = true;
  }
  if (!length && get.body !== undefined && statusAllowsBody(get.status)) headers["content-length"] = String(utf8Length(get.body));
  return { status: get.status, headers, body: undefined };
}

const NO_HEADERS: RestHeaders = /* @__PURE__ */ Object.freeze({});

/** The body text of a response built by restJsonResponse whose body was not read yet; undefined otherwise. */
export function restKnownBodyText(response: Response): string | undefined {
  const body = knownBody(response)?.body;
  return typeof body === "string" ? body : undefined;
}

/** One response a handler may return; the body may be left out when the spec declares none. */
export type RestReply<S extends number, B> = undefined extends B
  ? { readonly status: S; readonly body?: B; readonly headers?: RestHeaders }
  : { readonly status: S; readonly body: B; readonly headers?: RestHeaders };
