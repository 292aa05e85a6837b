import { jsonParse } from "../json/parse.js";
import type { ValidationIssue } from "../validation.js";
import { restBodyText, restMediaType, restMultipartForm, restReadBodyBytes } from "./body.js";
import { restFilesAsBytes } from "./form-body.js";
import { handlerWithDirectPath, type DirectAnswer, type DirectPath, type HttpAnswerParts } from "../http/direct.js";
import { restHeadParts, restJsonParts, type RestResult } from "./response.js";
import { restQuery, type RestQuery } from "./query.js";
import { compileRoutes } from "./router.js";

/**
 * The request pipeline shared by every generated REST server. Generated code supplies one binding per operation
 * (straight-line parameter parsing, the body validator, the handler call); this file routes, enforces the HTTP
 * rules (404, 405 + Allow, 415, 413, 400 on malformed JSON), runs validation and turns results into Responses.
 */

/** Where a request failed validation. */
export type RestValidationStage = "parameters" | "body";

export interface RestRequestContext {
  /** The operationId of the matched operation. */
  readonly operation: string;
  readonly request: Request;
  /** The raw path parameters (percent-decoded), in template order. */
  readonly pathParams: readonly string[];
}

export interface RestValidationContext extends RestRequestContext {
  readonly stage: RestValidationStage;
}

export interface RestServerOptions {
  /** Path prefix of every route; defaults to the path of the spec's first server URL (e.g. "/api/v2"). */
  readonly basePath?: string;
  /** Largest request body accepted, in bytes (default 1 MiB); larger bodies get 413. */
  readonly maxBodyBytes?: number;
  /** Validate every response against the spec; a mismatch becomes a 500 naming the issues. */
  readonly development?: boolean;
  /** The body of every error the server itself answers (404, 405, 413, 415, 400, 500). Default `{ message, issues? }`. */
  readonly errorBody?: (status: number, message: string, issues?: readonly ValidationIssue[]) => unknown;
  /**
   * Answer a request that failed validation. Return a Response to send it; return undefined for a body failure to
   * hand the body to the handler anyway (for services whose own checks must run in a particular order). Undefined
   * for a parameter failure sends the default 400.
   */
  readonly onValidationError?: (
    issues: readonly ValidationIssue[],
    ctx: RestValidationContext,
  ) => Response | undefined | Promise<Response | undefined>;
  /** Told about every error a handler throws (the client only sees a 500 without details). */
  readonly onHandlerError?: (error: unknown, ctx: RestRequestContext) => void;
}

export interface RestRequestBody {
  readonly required: boolean;
  /** Accepts application/json. */
  readonly json: boolean;
  /**
   * Accepts application/x-www-form-urlencoded: turns the form into the body value (coercing scalars); `text` is the
   * body as sent (the value itself when the schema is one string, not an object of fields).
   */
  readonly form?: (form: URLSearchParams, text: string) => unknown;
  /** Accepts multipart/form-data: turns the parts into the body value (files as Blobs). */
  readonly multipart?: (form: FormData) => unknown;
  readonly validate?: (value: unknown) => ValidationIssue[];
  /**
   * For a JSON body whose type's JSON differs from its in-memory shape (bytes, Date values, 64-bit integers): the
   * type's generated reviver (json.ts `revive<T>`), run on the parsed JSON before `validate`, and the parser to use
   * (restParseJsonBigints when 64-bit integers must stay exact). Without them the parsed JSON is the body as it is.
   */
  readonly revive?: (value: unknown) => unknown;
  readonly parse?: (text: string) => unknown;
}

/** One operation as generated code binds it. `P` is the parsed parameters object. */
export interface RestOperationBinding<P> {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  /** Whether `parameters` reads the query string (so it is only parsed when needed). */
  readonly query: boolean;
  readonly parameters: (
    pathParams: readonly string[],
    query: RestQuery,
    request: Request,
    issues: ValidationIssue[],
  ) => P;
  readonly body?: RestRequestBody;
  readonly invoke: (params: P, body: unknown, request: Request) => RestResult | Promise<RestResult>;
  /** Issues of a response against the spec (development mode); an undeclared status is an issue too. */
  readonly validateResponse?: (status: number, body: unknown) => ValidationIssue[];
  /**
   * The JSON text of a response body, written by the generated encoder (`encode<T>Json`) of the type declared for
   * its status, so that bytes go out as base64, dates and 64-bit integers as the spec's JSON says, as the generated
   * client's decoder reads them; undefined where no encoder applies (JSON.stringify then).
   */
  readonly encodeResponse?: (status: number, body: unknown) => string | undefined;
}

/** Erase an operation's parameter type so bindings of different operations fit in one table. */
export function restOperation<P>(binding: RestOperationBinding<P>): RestOperationBinding<unknown> {
  return binding as unknown as RestOperationBinding<unknown>;
}

const EMPTY_QUERY = /* @__PURE__ */ restQuery("");
const DEFAULT_MAX_BODY = 1024 * 1024;

export function defaultRestErrorBody(_status: number, message: string, issues?: readonly ValidationIssue[]): unknown {
  return issues && issues.length > 0 ? { message, issues } : { message };
}

/** The path of a URL's path component ("http://h/api/v2/" -> "/api/v2"); "" for a root path. */
export function restBasePathOf(serverUrl: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/[^?#]*)?/i.exec(serverUrl);
  const path = match ? (match[1] ?? "") : serverUrl.replace(/[?#].*$/, "");
  return path.replace(/\/+$/, "");
}

export function createRestHandler(
  operations: readonly RestOperationBinding<unknown>[],
  options: RestServerOptions = {},
): (request: Request) => Promise<Response> {
  return handlerWithDirectPath(restDispatcher(operations, options));
}

/**
 * The request pipeline as a direct path (see ../http/direct.ts): answers as parts, and synchronously unless a hook,
 * the request body or the handler makes it wait, so an adapter can write a synchronous handler's answer in the
 * same tick.
 */
function restDispatcher(operations: readonly RestOperationBinding<unknown>[], options: RestServerOptions): DirectPath {
  const route = compileRoutes(operations.map((operation) => ({ method: operation.method, path: operation.path, operation })));
  const basePath = (options.basePath ?? "").replace(/\/+$/, "");
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const errorBody = options.errorBody ?? defaultRestErrorBody;
  const fail = (status: number, message: string, issues?: readonly ValidationIssue[], headers?: Record<string, string>) =>
    restJsonParts(status, errorBody(status, message, issues), headers);

  /** What a handler's throw (or a failure to serialize its result) answers: a 500 without details. */
  const handlerFailed = (error: unknown, op: RestOperationBinding<unknown>, request: Request, pathParams: readonly string[]) => {
    options.onHandlerError?.(error, requestContext(op, request, pathParams));
    return fail(500, "Internal server error");
  };

  /** The answer for a handler's result. */
  const finish = (result: RestResult, op: RestOperationBinding<unknown>, request: Request, pathParams: readonly string[]): HttpAnswerParts => {
    try {
      if (options.development && op.validateResponse) {
        const problems = op.validateResponse(result.status, result.body);
        if (problems.length > 0) return fail(500, `Response of ${op.name} does not match the spec`, problems);
      }
      const text = op.encodeResponse !== undefined && result.body !== undefined ? op.encodeResponse(result.status, result.body) : undefined;
      const parts = restJsonParts(result.status, result.body, result.headers, text);
      return request.method === "HEAD" ? restHeadParts(parts) : parts;
    } catch (error) {
      return handlerFailed(error, op, request, pathParams);
    }
  };

  /** Run the handler and answer with its result. */
  const answer = (op: RestOperationBinding<unknown>, params: unknown, body: unknown, request: Request, pathParams: readonly string[]): DirectAnswer | Promise<DirectAnswer> => {
    let invoked: RestResult | PromiseLike<RestResult>;
    try {
      invoked = op.invoke(params, body, request);
    } catch (error) {
      return handlerFailed(error, op, request, pathParams);
    }
    // Most handlers answer synchronously; their answer is then ready without a turn of the microtask queue.
    if (!isPromiseLike(invoked)) return finish(invoked, op, request, pathParams);
    return Promise.resolve(invoked).then(
      (result) => finish(result, op, request, pathParams),
      (error: unknown) => handlerFailed(error, op, request, pathParams),
    );
  };

  /** Read, parse and validate the request body, then answer. */
  const withBody = async (op: RestOperationBinding<unknown>, spec: RestRequestBody, params: unknown, request: Request, pathParams: readonly string[]): Promise<DirectAnswer> => {
    const read = await readRequestBody(spec, request, maxBodyBytes);
    if (read.kind === "error") return fail(read.status, read.message);
    const bodyIssues = read.value === undefined
      ? spec.required ? [{ path: "", rule: "required", message: "a request body is required" }] : []
      : spec.validate?.(read.multipart ? restFilesAsBytes(read.value) : read.value) ?? [];
    if (bodyIssues.length > 0) {
      if (!options.onValidationError) return fail(400, "Invalid request body", bodyIssues);
      const hooked = await options.onValidationError(bodyIssues, { ...requestContext(op, request, pathParams), stage: "body" });
      if (hooked) return hooked;
    }
    return answer(op, params, read.value, request, pathParams);
  };

  return (request) => {
    const { path, search } = splitUrl(request.url);
    if (!path.startsWith(basePath) || (path.length > basePath.length && path[basePath.length] !== "/")) {
      return fail(404, "Not found");
    }
    const match = route(request.method, path.slice(basePath.length) || "/");
    if (!match) return fail(404, "Not found");
    if (match.kind === "method-not-allowed") return fail(405, "Method not allowed", undefined, { allow: match.allow });
    const op = match.operation;

    const issues: ValidationIssue[] = [];
    const params = op.parameters(match.params, op.query ? restQuery(search) : EMPTY_QUERY, request, issues);
    if (issues.length > 0) {
      const invalid = () => fail(400, "Invalid request parameters", issues);
      if (!options.onValidationError) return invalid();
      return Promise.resolve(options.onValidationError(issues, { ...requestContext(op, request, match.params), stage: "parameters" }))
        .then((hooked) => hooked ?? invalid());
    }
    if (op.body) return withBody(op, op.body, params, request, match.params);
    return answer(op, params, undefined, request, match.params);
  };
}

/** The context handed to the error hooks; built on those paths only, not for every request. */
function requestContext(op: RestOperationBinding<unknown>, request: Request, pathParams: readonly string[]): RestRequestContext {
  return { operation: op.name, request, pathParams };
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

type BodyOutcome =
  | { readonly kind: "ok"; readonly value: unknown; readonly multipart?: boolean }
  | { readonly kind: "error"; readonly status: number; readonly message: string };

async function readRequestBody(spec: RestRequestBody, request: Request, maxBytes: number): Promise<BodyOutcome> {
  const bytes = await restReadBodyBytes(request, maxBytes);
  if (bytes.kind === "too-large") return { kind: "error", status: 413, message: `Request body larger than ${maxBytes} bytes` };
  const contentType = request.headers.get("content-type");
  const mediaType = restMediaType(contentType);
  if (spec.multipart && mediaType === "multipart/form-data") {
    const form = await restMultipartForm(bytes.bytes, contentType ?? "");
    if (form === undefined) return { kind: "error", status: 400, message: "Request body is not valid multipart/form-data" };
    return { kind: "ok", value: spec.multipart(form), multipart: true };
  }
  const read = restBodyText(bytes.bytes);
  if (read.kind === "bad-encoding") return { kind: "error", status: 400, message: "Request body is not valid UTF-8" };
  if (read.text === "" && mediaType === "") return { kind: "ok", value: undefined };
  if (spec.json && (mediaType === "application/json" || mediaType.endsWith("+json"))) {
    if (read.text.trim() === "") return { kind: "ok", value: undefined };
    try {
      // The strict parser: duplicate keys, numbers beyond a double and absurd nesting are 400s (JSON.parse would
      // keep the last key and read 1e400 as Infinity).
      const parsed = spec.parse ? spec.parse(read.text) : jsonParse(read.text);
      return { kind: "ok", value: spec.revive ? spec.revive(parsed) : parsed };
    } catch {
      return { kind: "error", status: 400, message: "Request body is not valid JSON" };
    }
  }
  if (spec.form && mediaType === "application/x-www-form-urlencoded") {
    return { kind: "ok", value: spec.form(new URLSearchParams(read.text), read.text) };
  }
  return { kind: "error", status: 415, message: `Unsupported content type ${JSON.stringify(mediaType)}` };
}

/** Path and query of an absolute request URL without building a URL object (the hot path of every request). */
function splitUrl(url: string): { path: string; search: string } {
  const scheme = url.indexOf("://");
  const pathStart = url.indexOf("/", scheme === -1 ? 0 : scheme + 3);
  if (pathStart === -1) return { path: "/", search: "" };
  const hash = url.indexOf("#", pathStart);
  const end = hash === -1 ? url.length : hash;
  const q = url.indexOf("?", pathStart);
  return q === -1 || q > end
    ? { path: url.slice(pathStart, end), search: "" }
    : { path: url.slice(pathStart, q), search: url.slice(q + 1, end) };
}
