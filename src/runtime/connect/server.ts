import { BodyTooLargeError, DEFAULT_MAX_BODY_BYTES, readBodyWithLimit } from "../http/body-limit.js";
import type { HttpHandler } from "../http/handler.js";
import { mediaTypeEssence } from "../http/media-type.js";
import { bodyOf, readJsonMessage, writeJsonMessage, type MessageReader, type MessageWriter } from "../http/message-codec.js";
import { connectCodeToHttpStatus } from "./code.js";
import { ConnectError } from "./error.js";
import { connectErrorToJson } from "./error-json.js";
import { formatOfMediaType, mediaTypeOfFormat, parseTimeoutHeader, type ConnectFormat } from "./protocol.js";
import { withDeadline } from "./deadline.js";

/** What an implementation method gets besides its input. */
export interface ConnectHandlerContext {
  /** The HTTP request (headers, URL, ...). Its body has already been read. */
  readonly request: Request;
  /** Aborted when the client goes away or the call's deadline (Connect-Timeout-Ms) passes. */
  readonly signal: AbortSignal;
  /** Headers added to the response, success or error. */
  readonly responseHeaders: Headers;
}

export interface ConnectHandlerOptions {
  /** Largest request body accepted (default 4 MiB); larger ones fail with `resource_exhausted`. */
  readonly maxBodyBytes?: number;
  /** Sees every error that is not a ConnectError (answered as a bare `internal`), for logging. */
  readonly onError?: (error: unknown, request: Request) => void;
}

/** What a server needs of a unary procedure: its path and the generated codecs of its input and output. */
export interface UnaryProcedureCodecs<I, O> {
  /** "/package.Service/Method" */
  readonly path: string;
  readonly input: MessageReader<I>;
  readonly output: MessageWriter<O>;
}

/** One routable procedure, its input and output types hidden so routes of different methods share one list. */
export interface ConnectRoute {
  readonly path: string;
  serve(request: Request, options: ConnectHandlerOptions): Promise<Response>;
}

const SUPPORTED_TYPES = `${mediaTypeOfFormat("proto")}, ${mediaTypeOfFormat("json")}`;

function errorResponse(error: ConnectError, status: number = connectCodeToHttpStatus(error.code), extra?: Headers): Response {
  const headers = new Headers(extra);
  error.metadata.forEach((value, name) => headers.set(name, value));
  headers.set("content-type", "application/json");
  return new Response(JSON.stringify(connectErrorToJson(error)), { status, headers });
}

/** Errors of the implementation as the client may see them: ConnectErrors as they are, anything else anonymised. */
function toConnectError(error: unknown, request: Request, options: ConnectHandlerOptions): ConnectError {
  if (error instanceof ConnectError) return error;
  options.onError?.(error, request);
  return new ConnectError("internal", "internal error");
}

async function readInput<I>(request: Request, route: UnaryProcedureCodecs<I, unknown>, format: ConnectFormat, limit: number): Promise<I> {
  let bytes: Uint8Array;
  try {
    bytes = await readBodyWithLimit(request, limit);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new ConnectError("resource_exhausted", error.message);
    throw new ConnectError("canceled", "request body could not be read", { cause: error });
  }
  try {
    return format === "json" ? readJsonMessage(route.input, bytes) : route.input.decode(bytes);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConnectError("invalid_argument", `cannot decode request: ${reason}`, { cause: error });
  }
}

async function serveUnary<I, O>(
  request: Request,
  route: UnaryProcedureCodecs<I, O>,
  call: (input: I, context: ConnectHandlerContext) => Promise<O>,
  options: ConnectHandlerOptions,
): Promise<Response> {
  if (request.method !== "POST") {
    return errorResponse(new ConnectError("unimplemented", `${request.method} is not supported; use POST`), 405, new Headers({ allow: "POST" }));
  }
  const format = formatOfMediaType(mediaTypeEssence(request.headers.get("content-type")));
  if (format === undefined) {
    const error = new ConnectError("unimplemented", `unsupported content type; use ${SUPPORTED_TYPES}`);
    return errorResponse(error, 415, new Headers({ "accept-post": SUPPORTED_TYPES }));
  }
  const encoding = request.headers.get("content-encoding");
  if (encoding !== null && encoding.trim().toLowerCase() !== "identity") {
    return errorResponse(new ConnectError("unimplemented", `unsupported content encoding ${JSON.stringify(encoding.slice(0, 50))}`));
  }
  const responseHeaders = new Headers();
  try {
    const input = await readInput(request, route, format, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
    const timeoutMs = parseTimeoutHeader(request.headers.get("connect-timeout-ms"));
    const output = await withDeadline(request.signal, timeoutMs, (signal) =>
      call(input, { request, signal, responseHeaders }),
    );
    const body = format === "json" ? writeJsonMessage(route.output, output) : route.output.encode(output);
    responseHeaders.set("content-type", mediaTypeOfFormat(format));
    return new Response(bodyOf(body), { status: 200, headers: responseHeaders });
  } catch (error) {
    return errorResponse(toConnectError(error, request, options), undefined, responseHeaders);
  }
}

/**
 * A web-standard handler for a set of unary procedures, routed by exact path ("/package.Service/Method"). Unknown
 * paths get 404; other methods than POST 405; other content types than application/proto and application/json 415.
 */
export function connectRouter(routes: readonly ConnectRoute[], options: ConnectHandlerOptions = {}): HttpHandler {
  const byPath = new Map(routes.map((r) => [r.path, r]));
  return async (request) => {
    const route = byPath.get(new URL(request.url).pathname);
    if (route === undefined) return errorResponse(new ConnectError("unimplemented", "no such procedure"), 404);
    return route.serve(request, options);
  };
}

/** A route for one unary procedure: decode the input, run `call` (the implementation), encode its output. */
export function connectRoute<I, O>(
  procedure: UnaryProcedureCodecs<I, O>,
  call: (input: I, context: ConnectHandlerContext) => Promise<O>,
): ConnectRoute {
  return { path: procedure.path, serve: (request, options) => serveUnary(request, procedure, call, options) };
}
