/** What a generated handler returns: a status declared by the spec, its body, and optional response headers. */
export interface RestResult {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: RestHeaders;
}

export type RestHeaders = { readonly [name: string]: string };

const JSON_HEADERS = { "content-type": "application/json" } as const;

/**
 * The text of every response this runtime built, so a server adapter can write it without reading the Response's
 * body stream back (which costs more than the rest of a small request). Weak: it never keeps a Response alive.
 */
const BODY_TEXT = new WeakMap<Response, string>();

/** A JSON response; `undefined` as the body gives an empty response. */
export function restJsonResponse(status: number, body: unknown, headers?: RestHeaders): Response {
  if (body === undefined) return new Response(null, headers ? { status, headers } : { status });
  const text = JSON.stringify(body);
  const response = new Response(text, { status, headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS });
  BODY_TEXT.set(response, text);
  return response;
}

/** The body text of a response built by restJsonResponse whose body was not read yet; undefined otherwise. */
export function restKnownBodyText(response: Response): string | undefined {
  return response.bodyUsed ? undefined : BODY_TEXT.get(response);
}

/** One response a handler may return; the body may be left out when the spec declares none. */
export type RestReply<S extends number, B> = undefined extends B
  ? { readonly status: S; readonly body?: B; readonly headers?: RestHeaders }
  : { readonly status: S; readonly body: B; readonly headers?: RestHeaders };
