import { knownBody, responseWithKnownBody } from "../http/known-body.js";

/** What a generated handler returns: a status declared by the spec, its body, and optional response headers. */
export interface RestResult {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: RestHeaders;
}

export type RestHeaders = { readonly [name: string]: string };

const JSON_HEADERS = { "content-type": "application/json" } as const;

/** A JSON response; `undefined` as the body gives an empty response. The serialized text rides along on the
 * Response (see ../http/known-body.ts), so the node adapter writes it without reading the body stream back. */
export function restJsonResponse(status: number, body: unknown, headers?: RestHeaders): Response {
  if (body === undefined) return new Response(null, headers ? { status, headers } : { status });
  return responseWithKnownBody(JSON.stringify(body), { status, headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS });
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
