/**
 * CORS for any web-standard handler (generated REST, SOAP, Connect and feed servers alike), so that a page in a
 * browser can call it from another origin: `withCors(handler, options)` answers preflight requests itself and adds
 * the CORS response headers to the handler's answers. One wrapper rather than an option per server kind, because the
 * rules do not depend on what the handler speaks. Web APIs only.
 *
 * A request without an Origin header (any non-browser client) goes to the handler untouched. A REST server's direct
 * path (see direct.ts) is kept, so the node adapter still writes its answers without a Response in between.
 */
import { directPathOf, handlerWithDirectPath, type DirectAnswer, type DirectPath } from "./direct.js";
import type { HttpHandler } from "./handler.js";

/**
 * Which origins may call: `"*"` any origin, a list of exact origins (`"http://localhost:5173"`), or a predicate on
 * the Origin header's value.
 */
export type CorsOrigins = "*" | readonly string[] | ((origin: string) => boolean);

export interface CorsOptions {
  /** Allowed origins; default `isLoopbackOrigin`: http(s) pages on localhost, 127.0.0.1 or [::1], any port. */
  readonly origins?: CorsOrigins;
  /**
   * Request headers a page may send (the preflight's Access-Control-Allow-Headers). Default
   * `DEFAULT_CORS_ALLOW_HEADERS`, which covers what the generated clients send; add a spec's own header parameters.
   */
  readonly allowHeaders?: readonly string[];
  /**
   * Response headers a page may read beyond the CORS-safelisted ones (Content-Type, Content-Length, ...): e.g. the
   * pagination headers a REST client reads from `response.headers`. Default none.
   */
  readonly exposeHeaders?: readonly string[];
  /** Methods a preflight allows. Default `DEFAULT_CORS_ALLOW_METHODS`. */
  readonly allowMethods?: readonly string[];
  /** Let pages send cookies and HTTP authentication (Access-Control-Allow-Credentials). Default false. */
  readonly allowCredentials?: boolean;
  /** How long a browser may cache a preflight answer, in seconds. Default 600. */
  readonly maxAgeSeconds?: number;
}

/**
 * What the generated clients send beyond the CORS-safelisted headers: Content-Type (JSON, protobuf, XML bodies),
 * Authorization (REST `auth`), the Connect protocol headers, and SOAPAction (SOAP 1.1 clients).
 */
export const DEFAULT_CORS_ALLOW_HEADERS: readonly string[] = /* @__PURE__ */ Object.freeze([
  "accept",
  "authorization",
  "content-type",
  "connect-protocol-version",
  "connect-timeout-ms",
  "connect-content-encoding",
  "connect-accept-encoding",
  // What the generated gRPC-Web client sends besides content-type (a browser cannot speak plain gRPC).
  "x-grpc-web",
  "x-user-agent",
  "grpc-timeout",
  "grpc-encoding",
  "grpc-accept-encoding",
  "soapaction",
]);

export const DEFAULT_CORS_ALLOW_METHODS: readonly string[] = /* @__PURE__ */ Object.freeze(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]);

const DEFAULT_MAX_AGE_SECONDS = 600;

/** localhost (and its subdomains, which browsers also resolve to loopback), 127.0.0.1 and [::1]; http or https. */
const LOOPBACK_ORIGIN = /^https?:\/\/(?:(?:[a-z0-9-]+\.)*localhost|127\.0\.0\.1|\[::1\])(?::[0-9]{1,5})?$/;

/** Whether `origin` is a page served from this machine: the default of `CorsOptions.origins`. */
export function isLoopbackOrigin(origin: string): boolean {
  return LOOPBACK_ORIGIN.test(origin);
}

/** An HTTP token (RFC 9110): what a header name or method must be. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The CORS rules, checked once when the wrapper is made (a mistake in them is a TypeError there, not a silent 403). */
interface CorsPolicy {
  readonly allows: (origin: string) => boolean;
  readonly anyOrigin: boolean;
  readonly credentials: boolean;
  readonly preflightHeaders: Readonly<Record<string, string>>;
  readonly exposeHeaders: string | undefined;
}

/**
 * `handler` answering CORS: preflights (OPTIONS with Access-Control-Request-Method) from an allowed origin get 204
 * with the allowed methods and headers, from any other origin 403; other requests go to `handler`, and its answer
 * to an allowed origin carries Access-Control-Allow-Origin (and the exposed headers). Throws TypeError when an option
 * is not what a browser could match (an origin with a path, a header name with a space, ...).
 */
export function withCors(handler: HttpHandler, options: CorsOptions = {}): HttpHandler {
  const policy = corsPolicy(options);
  const direct = directPathOf(handler);
  if (direct !== undefined) return handlerWithDirectPath(corsDirectPath(direct, policy));
  return async (request) => {
    const origin = request.headers.get("origin");
    if (origin === null) return handler(request);
    if (isPreflight(request)) return preflightAnswer(request, origin, policy);
    return withCorsHeaders(await handler(request), origin, policy);
  };
}

function corsDirectPath(direct: DirectPath, policy: CorsPolicy): DirectPath {
  return (request) => {
    const origin = request.headers.get("origin");
    if (origin === null) return direct(request);
    if (isPreflight(request)) return preflightAnswer(request, origin, policy);
    const answer = direct(request);
    return answer instanceof Promise ? answer.then((a) => answerWithCors(a, origin, policy)) : answerWithCors(answer, origin, policy);
  };
}

function isPreflight(request: Request): boolean {
  return request.method === "OPTIONS" && request.headers.has("access-control-request-method");
}

function preflightAnswer(request: Request, origin: string, policy: CorsPolicy): Response {
  const vary = "origin, access-control-request-method, access-control-request-headers, access-control-request-private-network";
  if (!policy.allows(origin)) {
    return new Response(`CORS: origin ${origin} is not allowed\n`, {
      status: 403,
      headers: { "content-type": "text/plain; charset=utf-8", vary },
    });
  }
  const headers: Record<string, string> = { ...policy.preflightHeaders, "access-control-allow-origin": allowOriginValue(origin, policy), vary };
  // Chrome asks before a public page may reach a loopback server (Private Network Access); an allowed origin may.
  if (request.headers.get("access-control-request-private-network") === "true") headers["access-control-allow-private-network"] = "true";
  return new Response(null, { status: 204, headers });
}

function allowOriginValue(origin: string, policy: CorsPolicy): string {
  // "*" cannot be combined with credentials: then the origin itself is named.
  return policy.anyOrigin && !policy.credentials ? "*" : origin;
}

/** The CORS headers an answer to `origin` gets: none but `vary` for an origin that is not allowed. */
function corsHeaders(origin: string, policy: CorsPolicy): Record<string, string> {
  if (!policy.allows(origin)) return {};
  const headers: Record<string, string> = { "access-control-allow-origin": allowOriginValue(origin, policy) };
  if (policy.credentials) headers["access-control-allow-credentials"] = "true";
  if (policy.exposeHeaders !== undefined) headers["access-control-expose-headers"] = policy.exposeHeaders;
  return headers;
}

function answerWithCors(answer: DirectAnswer, origin: string, policy: CorsPolicy): DirectAnswer {
  if (answer instanceof Response) return withCorsHeaders(answer, origin, policy);
  const headers: Record<string, string> = { ...answer.headers, ...corsHeaders(origin, policy) };
  addVaryOrigin(headers, policy);
  return { status: answer.status, headers, body: answer.body };
}

/** Caches must keep answers to different origins apart, unless every origin gets the same "*". */
function addVaryOrigin(headers: Record<string, string>, policy: CorsPolicy): void {
  if (policy.anyOrigin && !policy.credentials) return;
  const name = Object.keys(headers).find((key) => key.toLowerCase() === "vary");
  if (name === undefined) headers["vary"] = "origin";
  else if (!/(^|,)\s*(origin|\*)\s*(,|$)/i.test(headers[name]!)) headers[name] = `${headers[name]}, origin`;
}

function withCorsHeaders(response: Response, origin: string, policy: CorsPolicy): Response {
  const added: Record<string, string> = corsHeaders(origin, policy);
  const vary = response.headers.get("vary");
  const varyRecord: Record<string, string> = vary === null ? {} : { vary };
  addVaryOrigin(varyRecord, policy);
  if (varyRecord["vary"] !== undefined && varyRecord["vary"] !== vary) added["vary"] = varyRecord["vary"];
  if (Object.keys(added).length === 0) return response;
  try {
    for (const [name, value] of Object.entries(added)) response.headers.set(name, value);
    return response;
  } catch {
    // Headers of a Response from fetch() (a proxying handler) are immutable: answer with a copy.
    const copy = new Response(response.body, { status: response.status, statusText: response.statusText, headers: response.headers });
    for (const [name, value] of Object.entries(added)) copy.headers.set(name, value);
    return copy;
  }
}

function corsPolicy(options: CorsOptions): CorsPolicy {
  const origins = options.origins ?? isLoopbackOrigin;
  const credentials = options.allowCredentials ?? false;
  const maxAge = options.maxAgeSeconds ?? DEFAULT_MAX_AGE_SECONDS;
  if (!Number.isSafeInteger(maxAge) || maxAge < 0) throw new TypeError(`CORS maxAgeSeconds must be an integer >= 0, got ${maxAge}`);
  const methods = tokens("allowMethods", options.allowMethods ?? DEFAULT_CORS_ALLOW_METHODS).map((m) => m.toUpperCase());
  const allowHeaders = tokens("allowHeaders", options.allowHeaders ?? DEFAULT_CORS_ALLOW_HEADERS).map((h) => h.toLowerCase());
  const exposeHeaders = tokens("exposeHeaders", options.exposeHeaders ?? []).map((h) => h.toLowerCase());
  const preflightHeaders: Record<string, string> = {
    "access-control-allow-methods": methods.join(", "),
    "access-control-max-age": String(maxAge),
  };
  if (allowHeaders.length > 0) preflightHeaders["access-control-allow-headers"] = allowHeaders.join(", ");
  if (credentials) preflightHeaders["access-control-allow-credentials"] = "true";
  return {
    allows: originPredicate(origins),
    anyOrigin: origins === "*",
    credentials,
    preflightHeaders,
    exposeHeaders: exposeHeaders.length > 0 ? exposeHeaders.join(", ") : undefined,
  };
}

function originPredicate(origins: CorsOrigins): (origin: string) => boolean {
  if (origins === "*") return () => true;
  if (typeof origins === "function") return origins;
  const allowed = new Set(origins.map(checkedOrigin));
  return (origin) => allowed.has(origin);
}

/** An origin as browsers send it (scheme://host[:port], lower case, no default port, no path); else TypeError. */
export function checkedOrigin(origin: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(origin);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || parsed.origin === "null") {
    throw new TypeError(`CORS origin ${JSON.stringify(origin)} is not an origin (scheme://host[:port], e.g. "http://localhost:5173")`);
  }
  if (parsed.origin !== origin) {
    throw new TypeError(`CORS origin ${JSON.stringify(origin)} is not in the form browsers send: did you mean ${JSON.stringify(parsed.origin)}?`);
  }
  return origin;
}

function tokens(option: string, values: readonly string[]): string[] {
  for (const value of values) {
    if (!TOKEN.test(value)) throw new TypeError(`CORS ${option}: ${JSON.stringify(value)} is not a header name or method`);
  }
  return [...values];
}
