/**
 * Client hooks shared by every generated client (SOAP, REST, RPC over fetch): an interceptor sees each request on
 * its way out and the response on its way back, and may change or replace either, as connect-es interceptors and
 * openapi-fetch middleware do:
 *
 *   const logging: Interceptor = (next) => async (request) => {
 *     const response = await next(request);
 *     console.log(request.method, request.url, response.status);
 *     return response;
 *   };
 *
 * Interceptors run in the order given (the first sees the request first and the response last). `basicAuth` and
 * `bearerAuth` are the usual `auth` functions.
 */
import type { FetchFunction } from "./handler.js";

export type FetchNext = (request: Request) => Promise<Response>;
export type Interceptor = (next: FetchNext) => FetchNext;

/** Adds credentials to a request (an Authorization header, a query parameter); may return a new Request. */
export type HttpAuth = (request: Request) => Request | Promise<Request>;

/** `fetch` with `auth` and the interceptors around it; the plain function when there are none. */
export function interceptedFetch(fetchFunction: FetchFunction, interceptors?: readonly Interceptor[], auth?: HttpAuth): FetchNext {
  let next: FetchNext = (request) => fetchFunction(request);
  if (interceptors !== undefined) for (let i = interceptors.length - 1; i >= 0; i--) next = interceptors[i]!(next);
  if (auth === undefined) return next;
  const inner = next;
  return async (request) => inner(await auth(request));
}

function withHeader(request: Request, name: string, value: string): Request {
  const headers = new Headers(request.headers);
  headers.set(name, value);
  return new Request(request, { headers });
}

/** HTTP Basic authentication (RFC 7617, UTF-8). */
export function basicAuth(username: string, password: string): HttpAuth {
  if (username.includes(":")) throw new TypeError("a Basic user name cannot contain ':'");
  const bytes = new TextEncoder().encode(`${username}:${password}`);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  const value = `Basic ${btoa(binary)}`;
  return (request) => withHeader(request, "authorization", value);
}

/** A bearer token (RFC 6750), fixed or fetched per request (a function may refresh it). */
export function bearerAuth(token: string | (() => string | Promise<string>)): HttpAuth {
  return async (request) => withHeader(request, "authorization", `Bearer ${typeof token === "string" ? token : await token()}`);
}
