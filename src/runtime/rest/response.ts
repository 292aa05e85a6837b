import { knownBody, responseWithKnownBody, statusAllowsBody } from "../http/known-body.js";

/** What a generated handler returns: a status declared by the spec, its body, and optional response headers. */
export interface RestResult {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: RestHeaders;
}

export type RestHeaders = { readonly [name: string]: string };

const NON_ASCII = /[^\u0000-\u007f]/;
const encoder = new TextEncoder();

/** UTF-8 length of `text` (JSON text is nearly always ASCII, where it is the string's length). */
function utf8Length(text: string): number {
  return NON_ASCII.test(text) ? encoder.encode(text).byteLength : text.length;
}

/** A JSON response; `undefined` as the body gives an empty response. The serialized text rides along on the
 * Response (see ../http/known-body.ts), so the node adapter writes it without reading the body stream back; its
 * length is stated (unless the handler gave one), so the adapter need not work it out or fall back to chunks. */
export function restJsonResponse(status: number, body: unknown, headers?: RestHeaders): Response {
  if (body === undefined) return new Response(null, headers ? { status, headers } : { status });
  const text = JSON.stringify(body);
  const record: Record<string, string> = { "content-type": "application/json" };
  // Statuses that never carry a body (node drops it) must not announce one.
  if (statusAllowsBody(status)) record["content-length"] = String(utf8Length(text));
  if (headers !== undefined) {
    for (const name of Object.keys(headers)) {
      if (name.toLowerCase() === "content-length") delete record["content-length"];
      record[name] = headers[name]!;
    }
  }
  return responseWithKnownBody(text, { status, headers: record });
}

/** The body text of a response built by restJsonResponse whose body was not read yet; undefined otherwise. */
export function restKnownBodyText(response: Response): string | undefined {
  const body = knownBody(response)?.body;
  return typeof body === "string" ? body : undefined;
}

/** One response a handler may return; the body may be left out when the spec declares none. */
export type RestReply<S extends number, B> = undefined extends B
  ? { readonly status: S; readonly body?: B; readonly headers?: RestHeaders }
  : { readonly status: S; readonly body: B; readonly headers?: RestHeaders };
