/**
 * One web-standard handler for a proto service that answers all three protocols: Connect (unary and streaming),
 * gRPC-Web (binary and text, status in a trailer message) and gRPC (status in HTTP/2 trailers, which a fetch-style
 * Response cannot carry: it is attached to the Response under RPC_TRAILERS and written by serveNodeHttp2).
 */
import { connectCodeToHttpStatus } from "../connect/code.js";
import { connectErrorToJson } from "../connect/error-json.js";
import { RpcError } from "../connect/error.js";
import { parseTimeoutHeader } from "../connect/protocol.js";
import { BodyTooLargeError, readBodyWithLimit } from "../http/body-limit.js";
import type { HttpHandler } from "../http/handler.js";
import { readJsonMessage, writeJsonMessage } from "../http/message-codec.js";
import { encodeViolations } from "../protobuf/violations.js";
import { base64Padded, base64Source } from "./base64-stream.js";
import { acceptsGzip, ACCEPTED_ENCODINGS, compressionOf, gunzip, gzip, type RpcCompression } from "./compression.js";
import { encodeEndStream } from "./end-stream.js";
import { EnvelopeReader, FLAG_COMPRESSED, FLAG_END_STREAM, FLAG_TRAILERS, frame, streamSource, type ChunkSource } from "./envelope.js";
import { responseWithKnownBody } from "../http/known-body.js";
import { encodeTrailerBlock, parseGrpcTimeout, setGrpcStatus } from "./grpc-headers.js";
import { DEFAULT_MAX_MESSAGE_BYTES, type RpcProcedure, type RpcProtocol } from "./procedure.js";
import { SUPPORTED_CONTENT_TYPES, wireOf, type Wire } from "./wire.js";
import { compileBinding, defaultJsonOf, httpStatusOfCode, rpcStatusJson, setJsonPath, urlValueToJson, fieldOf, type TranscodeField } from "./transcode.js";
import { BadPathError, RestRouter, type RestMatch } from "./transcode-router.js";
import { mediaTypeEssence } from "../http/media-type.js";

/**
 * Where a gRPC answer keeps its trailers: a Headers object on the Response, complete once the body has ended. The
 * node HTTP/2 adapter sends it as HTTP/2 trailers; other servers cannot, which is why gRPC needs that adapter.
 */
export const RPC_TRAILERS: unique symbol = Symbol.for("specforge.rpc.trailers") as never;

/** The trailers of a gRPC Response made by an RPC handler (complete after its body ended), if it has any. */
export function responseTrailers(response: Response): Headers | undefined {
  return (response as { [RPC_TRAILERS]?: Headers })[RPC_TRAILERS];
}

/** What an implementation method gets besides its input. */
export interface RpcHandlerContext {
  /** The HTTP request. Its body belongs to the runtime (it is the request message stream). */
  readonly request: Request;
  /** Aborted when the client cancels or goes away, or the deadline passes. */
  readonly signal: AbortSignal;
  readonly requestHeaders: Headers;
  /** Headers sent with the answer: set them before returning (unary) or before the first message (streams). */
  readonly responseHeaders: Headers;
  /** Trailers sent after the last message (gRPC trailers, gRPC-Web trailer block, Connect end-stream metadata). */
  readonly responseTrailers: Headers;
  readonly protocol: RpcProtocol;
  /** Epoch milliseconds of the call's deadline, when the client sent one. */
  readonly deadline?: number | undefined;
}

export interface RpcHandlerOptions {
  /** Largest Connect unary body (default: maxMessageBytes). */
  readonly maxBodyBytes?: number;
  /** Largest message, compressed or not, in either direction (default 4 MiB); larger is `resource_exhausted`. */
  readonly maxMessageBytes?: number;
  /** Sees every error that is not an RpcError (answered as a bare `internal`), for logging. */
  readonly onError?: (error: unknown, request: Request) => void;
  /** Encodings used for answers when the client accepts them (default ["gzip"]; [] never compresses). */
  readonly compression?: readonly RpcCompression[];
  /** Answers smaller than this are not compressed (default 1024 bytes). */
  readonly compressMinBytes?: number;
  /**
   * Check each request message against its protovalidate rules (the generated `validate<T>`, for specs that have
   * rules) before the handler sees it: a message that breaks one is answered `invalid_argument`, the violations as a
   * `buf.validate.Violations` error detail. Default false.
   */
  readonly validateRequests?: boolean;
}

type Invoke = (input: unknown, context: RpcHandlerContext) => unknown;

/** One routable procedure; its message types hidden so the routes of one service share a list. */
export interface RpcRoute {
  readonly procedure: RpcProcedure<unknown, unknown>;
  readonly invoke: Invoke;
}

function route(procedure: RpcProcedure<any, any>, invoke: Invoke): RpcRoute {
  return { procedure, invoke };
}

export function rpcUnaryRoute<I, O>(procedure: RpcProcedure<I, O>, impl: (request: I, context: RpcHandlerContext) => Promise<O>): RpcRoute {
  return route(procedure, impl as Invoke);
}
export function rpcServerStreamRoute<I, O>(
  procedure: RpcProcedure<I, O>,
  impl: (request: I, context: RpcHandlerContext) => AsyncIterable<O>,
): RpcRoute {
  return route(procedure, impl as Invoke);
}
export function rpcClientStreamRoute<I, O>(
  procedure: RpcProcedure<I, O>,
  impl: (requests: AsyncIterable<I>, context: RpcHandlerContext) => Promise<O>,
): RpcRoute {
  return route(procedure, impl as Invoke);
}
export function rpcBidiStreamRoute<I, O>(
  procedure: RpcProcedure<I, O>,
  impl: (requests: AsyncIterable<I>, context: RpcHandlerContext) => AsyncIterable<O>,
): RpcRoute {
  return route(procedure, impl as Invoke);
}

class CallContext implements RpcHandlerContext {
  #responseHeaders: Headers | undefined;
  #responseTrailers: Headers | undefined;
  readonly #signal: AbortSignal | undefined;
  constructor(
    readonly request: Request,
    signal: AbortSignal | undefined,
    readonly protocol: RpcProtocol,
    readonly deadline: number | undefined,
  ) {
    this.#signal = signal;
  }
  /** The request's own signal unless a deadline needs another: adapters create signals lazily, on first use. */
  get signal(): AbortSignal {
    return this.#signal ?? this.request.signal;
  }
  get requestHeaders(): Headers {
    return this.request.headers;
  }
  get responseHeaders(): Headers {
    return (this.#responseHeaders ??= new Headers());
  }
  get responseTrailers(): Headers {
    return (this.#responseTrailers ??= new Headers());
  }
  /** The headers without creating them. */
  get setHeaders(): Headers | undefined {
    return this.#responseHeaders;
  }
  get setTrailers(): Headers | undefined {
    return this.#responseTrailers;
  }
}

/** Everything one call needs besides the route: its wire, limits, negotiated encodings and deadline. */
interface Call {
  readonly request: Request;
  readonly wire: Wire;
  readonly options: RpcHandlerOptions;
  readonly limit: number;
  /** How request messages are compressed (flagged ones). */
  readonly requestEncoding: RpcCompression;
  /** Whether we may gzip answers. */
  readonly gzipAnswers: boolean;
  readonly context: CallContext;
  /** Rejects with deadline_exceeded when the deadline passes (undefined without one). */
  readonly expired: Promise<never> | undefined;
  readonly clearDeadline: () => void;
}

/**
 * Errors as the client may see them: RpcErrors as they are; anything thrown once the call was cancelled or timed out
 * (an implementation rethrowing its signal's reason, a body read cut short) as that cancellation; anything else
 * reported to onError and anonymised.
 */
function asRpcError(error: unknown, call: { request: Request; options: RpcHandlerOptions; context?: CallContext }): RpcError {
  if (error instanceof RpcError) return error;
  if (error instanceof BodyTooLargeError) return new RpcError("resource_exhausted", error.message);
  const signal = call.context?.signal ?? call.request.signal;
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    return reason instanceof RpcError ? reason : new RpcError("canceled", "the call was cancelled", { cause: error });
  }
  call.options.onError?.(error, call.request);
  return new RpcError("internal", "internal error");
}

function mergeHeaders(target: Headers, source: Headers | undefined): void {
  source?.forEach((value, name) => target.append(name, value));
}

// ---- answers that are errors before any message ----

/** An error answer in the call's protocol, before any message was sent. */
function errorAnswer(wire: Wire | undefined, error: RpcError, headers?: Headers, trailers?: Headers, status?: number): Response {
  const out = new Headers(headers);
  if (wire === undefined || (wire.protocol === "connect" && !wire.enveloped)) {
    mergeHeaders(out, error.metadata);
    trailers?.forEach((value, name) => out.append(`trailer-${name}`, value));
    out.set("content-type", "application/json");
    return new Response(JSON.stringify(connectErrorToJson(error)), { status: status ?? connectCodeToHttpStatus(error.code), headers: out });
  }
  out.set("content-type", wire.contentType);
  if (wire.protocol === "connect") {
    return new Response(body(wire, frame(FLAG_END_STREAM, encodeEndStream(error, trailers))), { status: 200, headers: out });
  }
  // gRPC: trailers-only, the status in the headers. gRPC-Web: the status in a trailer message, which every gRPC-Web
  // client reads (not also in the headers: clients merge the two, and would see every trailer twice).
  if (wire.protocol === "grpc") {
    mergeHeaders(out, error.metadata);
    mergeHeaders(out, trailers);
    setGrpcStatus(out, error);
    return new Response(null, { status: 200, headers: out });
  }
  const block = new Headers(trailers);
  mergeHeaders(block, error.metadata);
  setGrpcStatus(block, error);
  return new Response(body(wire, frame(FLAG_TRAILERS, encodeTrailerBlock(block))), { status: 200, headers: out });
}

function body(wire: Wire, bytes: Uint8Array): BodyInit {
  return (wire.text ? base64Padded(bytes) : bytes) as BodyInit;
}

// ---- reading requests ----

const VIOLATIONS_TYPE = "buf.validate.Violations";

async function decodeMessage(call: Call, codec: RpcProcedure<unknown, unknown>["input"], flags: number, data: Uint8Array): Promise<unknown> {
  if ((flags & FLAG_COMPRESSED) !== 0) {
    if (call.requestEncoding === "identity") throw new RpcError("internal", "protocol error: compressed message without a message encoding");
    data = await gunzip(data, call.limit);
  }
  let message: unknown;
  try {
    message = call.wire.format === "json" ? readJsonMessage(codec, data) : codec.decode(data);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RpcError("invalid_argument", `cannot decode request: ${reason}`, { cause: error });
  }
  checkRules(call.options, codec, message);
  return message;
}

/** protovalidate rules, when the handler was asked to check them: a violation is invalid_argument with Violations. */
function checkRules(options: RpcHandlerOptions, codec: RpcProcedure<unknown, unknown>["input"], message: unknown): void {
  if (options.validateRequests && codec.validate) {
    const violations = codec.validate(message).filter((i) => i.field !== undefined);
    if (violations.length > 0) {
      const text = violations.map((v) => `${v.field || "(message)"}: ${v.message} [${v.rule}]`).join("; ");
      throw new RpcError("invalid_argument", text, { details: [{ type: VIOLATIONS_TYPE, value: encodeViolations(violations) }] });
    }
  }
}

/**
 * A request may offer its body as a chunk source under this registered symbol (serveNodeHttp2 does), which skips the
 * web ReadableStream the runtime would otherwise read it through.
 */
const BODY_SOURCE = Symbol.for("specforge.rpc.bodySource");
const EMPTY_SOURCE: ChunkSource = { read: async () => undefined, cancel: () => undefined };

function envelopeReader(call: Call): EnvelopeReader {
  const direct = (call.request as { [BODY_SOURCE]?: () => ChunkSource | null })[BODY_SOURCE];
  let source: ChunkSource;
  if (typeof direct === "function") source = direct.call(call.request) ?? EMPTY_SOURCE;
  else {
    const stream = call.request.body;
    source = stream === null ? EMPTY_SOURCE : streamSource(stream);
  }
  return new EnvelopeReader(call.wire.text ? base64Source(source) : source, call.limit);
}

async function nextEnvelope(reader: EnvelopeReader) {
  try {
    return await reader.next();
  } catch (error) {
    if (error instanceof RpcError) throw error;
    throw new RpcError("invalid_argument", `cannot read request: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** The single request message of a unary or server-streaming call. */
async function readSingle(call: Call, procedure: RpcProcedure<unknown, unknown>): Promise<unknown> {
  if (!call.wire.enveloped) {
    let bytes = await readBodyWithLimit(call.request, call.options.maxBodyBytes ?? call.limit);
    if (call.requestEncoding === "gzip") bytes = await gunzip(bytes, call.limit);
    return decodeMessage({ ...call, requestEncoding: "identity" }, procedure.input, 0, bytes);
  }
  const reader = envelopeReader(call);
  const first = await nextEnvelope(reader);
  // A cardinality violation is `unimplemented`, as gRPC and connect-es answer it.
  if (first === undefined) throw new RpcError("unimplemented", "protocol error: missing request message");
  if ((await nextEnvelope(reader)) !== undefined) {
    reader.cancel();
    throw new RpcError("unimplemented", "protocol error: more than one request message for a single-request method");
  }
  return decodeMessage(call, procedure.input, first.flags, first.data);
}

/** The request messages of a client- or bidi-streaming call, decoded as the implementation asks for them. */
async function* readMany(call: Call, procedure: RpcProcedure<unknown, unknown>): AsyncGenerator<unknown, void, undefined> {
  const reader = envelopeReader(call);
  let done = false;
  try {
    for (;;) {
      const envelope = await nextEnvelope(reader);
      if (envelope === undefined) {
        done = true;
        return;
      }
      yield await decodeMessage(call, procedure.input, envelope.flags, envelope.data);
    }
  } finally {
    if (!done) reader.cancel(); // the implementation stopped reading: the client's stream is reset
  }
}

// ---- writing answers ----

async function encodeMessage(call: Call, codec: RpcProcedure<unknown, unknown>["output"], message: unknown): Promise<Uint8Array> {
  let data: Uint8Array;
  try {
    data = call.wire.format === "json" ? writeJsonMessage(codec, message) : codec.encode(message);
  } catch (error) {
    throw asRpcError(error, call);
  }
  if (call.gzipAnswers && data.byteLength >= (call.options.compressMinBytes ?? 1024)) {
    const compressed = await gzip(data);
    if (compressed.byteLength > call.limit) throw new RpcError("resource_exhausted", `answer is larger than ${call.limit} bytes`);
    return frame(FLAG_COMPRESSED, compressed);
  }
  if (data.byteLength > call.limit) throw new RpcError("resource_exhausted", `answer of ${data.byteLength} bytes is larger than ${call.limit} bytes`);
  return frame(0, data);
}

function addEncodingHeaders(call: Call, headers: Record<string, string>): void {
  if (call.wire.protocol === "connect") {
    headers["connect-accept-encoding"] = ACCEPTED_ENCODINGS;
    if (call.gzipAnswers) headers["connect-content-encoding"] = "gzip";
  } else {
    headers["grpc-accept-encoding"] = ACCEPTED_ENCODINGS;
    if (call.gzipAnswers) headers["grpc-encoding"] = "gzip";
  }
}

function answerHeaders(call: Call): Headers {
  const record = headerRecordOf(call.context.setHeaders, call.wire.contentType);
  addEncodingHeaders(call, record);
  return new Headers(record);
}

/** The closing part of an enveloped answer: end-stream message, trailer message, or (gRPC) the trailers object. */
function closing(call: Call, error: RpcError | undefined, grpcTrailers: Headers | undefined): Uint8Array | undefined {
  const trailers = call.context.setTrailers;
  if (call.wire.protocol === "connect") return frame(FLAG_END_STREAM, encodeEndStream(error, trailers));
  const target = grpcTrailers ?? new Headers();
  mergeHeaders(target, trailers);
  if (error !== undefined) mergeHeaders(target, error.metadata);
  setGrpcStatus(target, error);
  return call.wire.protocol === "grpc-web" ? frame(FLAG_TRAILERS, encodeTrailerBlock(target)) : undefined;
}

function withTrailers(response: Response, trailers: Headers | undefined): Response {
  if (trailers !== undefined) Object.defineProperty(response, RPC_TRAILERS, { value: trailers });
  return response;
}

/** The headers of an answer as a plain record (what responseWithKnownBody takes). */
function headerRecordOf(headers: Headers | undefined, contentType: string): Record<string, string> {
  const record: Record<string, string> = {};
  headers?.forEach((value, name) => {
    record[name] = value;
  });
  record["content-type"] = contentType;
  return record;
}

/**
 * Answer with one message (unary and client-streaming methods). The body is known, so the answer is a
 * responseWithKnownBody: adapters write the bytes directly instead of reading a Response stream back.
 */
async function answerSingle(call: Call, procedure: RpcProcedure<unknown, unknown>, message: unknown): Promise<Response> {
  if (!call.wire.enveloped) {
    let data: Uint8Array;
    try {
      data = call.wire.format === "json" ? writeJsonMessage(procedure.output, message) : procedure.output.encode(message);
    } catch (error) {
      throw asRpcError(error, call);
    }
    const headers = headerRecordOf(call.context.setHeaders, call.wire.contentType);
    call.context.setTrailers?.forEach((value, name) => {
      headers[`trailer-${name}`] = value;
    });
    if (call.gzipAnswers && data.byteLength >= (call.options.compressMinBytes ?? 1024)) {
      data = await gzip(data);
      headers["content-encoding"] = "gzip";
    }
    return responseWithKnownBody(data, { status: 200, headers });
  }
  const first = await encodeMessage(call, procedure.output, message);
  const grpcTrailers = call.wire.protocol === "grpc" ? new Headers() : undefined;
  const end = closing(call, undefined, grpcTrailers);
  let bytes = first;
  if (end !== undefined) {
    bytes = new Uint8Array(first.byteLength + end.byteLength);
    bytes.set(first);
    bytes.set(end, first.byteLength);
  }
  const headers = headerRecordOf(call.context.setHeaders, call.wire.contentType);
  addEncodingHeaders(call, headers);
  return withTrailers(responseWithKnownBody(call.wire.text ? base64Padded(bytes) : bytes, { status: 200, headers }), grpcTrailers);
}

function race<T>(work: Promise<T>, expired: Promise<never> | undefined): Promise<T> {
  return expired === undefined ? work : Promise.race([work, expired]);
}

/**
 * Answer with a stream (server- and bidi-streaming methods). The first message (or the end) is awaited before the
 * Response exists, so headers the implementation sets before it are sent, and an early error is a trailers-only
 * answer. Then each pull of the body takes one message; the client cancelling the body returns the iterator.
 */
async function answerStream(call: Call, procedure: RpcProcedure<unknown, unknown>, output: AsyncIterable<unknown>): Promise<Response> {
  const it = output[Symbol.asyncIterator]();
  const first = await race(it.next(), call.expired);
  const grpcTrailers = call.wire.protocol === "grpc" ? new Headers() : undefined;
  const headers = answerHeaders(call);
  let pending: IteratorResult<unknown> | undefined = first;
  let finished = false;
  const finish = (controller: ReadableStreamDefaultController<Uint8Array>, error: RpcError | undefined) => {
    finished = true;
    call.clearDeadline();
    const end = closing(call, error, grpcTrailers);
    if (end !== undefined) controller.enqueue(call.wire.text ? new TextEncoder().encode(base64Padded(end)) : end);
    controller.close();
  };
  const stream = new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      try {
        const result = pending ?? (await race(it.next(), call.expired));
        pending = undefined;
        if (result.done) return finish(controller, undefined);
        const framed = await encodeMessage(call, procedure.output, result.value);
        controller.enqueue(call.wire.text ? new TextEncoder().encode(base64Padded(framed)) : framed);
      } catch (error) {
        void it.return?.(undefined)?.catch(() => undefined);
        finish(controller, asRpcError(error, call));
      }
    },
    cancel: () => {
      // The client stopped reading (or went away): end the implementation's generator.
      if (!finished) {
        finished = true;
        call.clearDeadline();
        void it.return?.(undefined)?.catch(() => undefined);
      }
    },
  }, { highWaterMark: 0 });
  return withTrailers(new Response(stream, { status: 200, headers }), grpcTrailers);
}

// ---- one call ----

function timeoutOf(wire: Wire, headers: Headers): number | undefined {
  return wire.protocol === "connect" ? parseTimeoutHeader(headers.get("connect-timeout-ms")) : parseGrpcTimeout(headers.get("grpc-timeout"));
}

function requestEncodingOf(wire: Wire, headers: Headers): RpcCompression | undefined {
  if (wire.protocol === "connect") return compressionOf(headers.get(wire.enveloped ? "connect-content-encoding" : "content-encoding"));
  return compressionOf(headers.get("grpc-encoding"));
}

function acceptsGzipAnswers(wire: Wire, headers: Headers): boolean {
  if (wire.protocol === "connect") return acceptsGzip(headers.get(wire.enveloped ? "connect-accept-encoding" : "accept-encoding"));
  return acceptsGzip(headers.get("grpc-accept-encoding"));
}

async function serveCall(route: RpcRoute, request: Request, wire: Wire, options: RpcHandlerOptions): Promise<Response> {
  const headers = request.headers;
  const requestEncoding = requestEncodingOf(wire, headers);
  if (requestEncoding === undefined) {
    const error = new RpcError("unimplemented", `unsupported message encoding; this server accepts ${ACCEPTED_ENCODINGS}, identity`);
    return errorAnswer(wire, error, new Headers(wire.protocol === "grpc" ? { "grpc-accept-encoding": ACCEPTED_ENCODINGS } : {}));
  }
  const timeoutMs = timeoutOf(wire, headers);
  let signal: AbortSignal | undefined;
  let expired: Promise<never> | undefined;
  let clearDeadline = noop;
  if (timeoutMs !== undefined) {
    const clientSignal = request.signal;
    const controller = new AbortController();
    const onAbort = () => controller.abort(clientSignal.reason);
    clientSignal.addEventListener("abort", onAbort, { once: true });
    expired = new Promise<never>((_, reject) => {
      const timer = setTimeout(() => {
        const error = new RpcError("deadline_exceeded", `deadline of ${timeoutMs} ms exceeded`);
        controller.abort(error);
        reject(error);
      }, timeoutMs);
      clearDeadline = () => {
        clearTimeout(timer);
        clientSignal.removeEventListener("abort", onAbort);
      };
    });
    expired.catch(noop);
    signal = controller.signal;
  }
  const context = new CallContext(request, signal, wire.protocol, timeoutMs === undefined ? undefined : Date.now() + timeoutMs);
  const gzipAnswers = (options.compression ?? DEFAULT_COMPRESSION).includes("gzip") && acceptsGzipAnswers(wire, headers);
  const call: Call = {
    request, wire, options, limit: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES, requestEncoding, gzipAnswers, context,
    expired, clearDeadline,
  };
  const { procedure } = route;
  const streamingOut = procedure.kind === "server_streaming" || procedure.kind === "bidi_streaming";
  try {
    const input = procedure.kind === "unary" || procedure.kind === "server_streaming" ? await race(readSingle(call, procedure), expired) : readMany(call, procedure);
    if (streamingOut) {
      const output = route.invoke(input, context) as AsyncIterable<unknown>;
      if (output === null || typeof output !== "object" || !(Symbol.asyncIterator in output)) {
        throw new TypeError(`implementation of ${procedure.path} did not return an async iterable`);
      }
      return await answerStream(call, procedure, output);
    }
    const message = await race(route.invoke(input, context) as Promise<unknown>, expired);
    clearDeadline();
    return await answerSingle(call, procedure, message);
  } catch (error) {
    clearDeadline();
    return errorAnswer(wire, asRpcError(error, call), context.setHeaders, context.setTrailers);
  }
}

const DEFAULT_COMPRESSION: readonly RpcCompression[] = ["gzip"];
function noop(): void {}

/** The path of an absolute URL without parsing it ("http://h:1/a/b?q" -> "/a/b"). */
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  const query = url.indexOf("?", start);
  return query < 0 ? url.slice(start) : url.slice(start, query);
}

// ---- HTTP/JSON transcoding (google.api.http) ----

/** An error as REST clients of transcoded routes expect it: google.rpc.Status JSON under the code's HTTP status. */
function restError(error: RpcError, headers?: Headers, status?: number): Response {
  const out = new Headers(headers);
  mergeHeaders(out, error.metadata);
  out.set("content-type", "application/json");
  return new Response(JSON.stringify(rpcStatusJson(error)), { status: status ?? httpStatusOfCode(error.code), headers: out });
}

function restRouterOf(routes: readonly RpcRoute[]): RestRouter | undefined {
  let router: RestRouter | undefined;
  for (const r of routes) {
    const http = r.procedure.http;
    if (http === undefined || r.procedure.kind !== "unary") continue;
    for (const binding of http.bindings) (router ??= new RestRouter()).add(compileBinding(http, binding), r);
  }
  return router;
}

const UTF8 = /* @__PURE__ */ new TextDecoder("utf-8", { fatal: true });

/** The JSON body of a REST request (undefined when empty); only application/json is read. */
async function restBody(request: Request, limit: number): Promise<unknown> {
  const bytes = await readBodyWithLimit(request, limit);
  if (bytes.byteLength === 0) return undefined;
  const type = request.headers.get("content-type");
  if (type !== null && mediaTypeEssence(type) !== "application/json") {
    throw new RpcError("invalid_argument", `unsupported content type ${JSON.stringify(type.slice(0, 100))}; send application/json`);
  }
  try {
    return JSON.parse(UTF8.decode(bytes));
  } catch (error) {
    throw new RpcError("invalid_argument", `the body is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The request message of a REST call, following http.proto's rules: the body (all of it for `body: "*"`, one field
 * otherwise), then query parameters for the remaining fields (dotted names into messages, repeated names for
 * repeated fields, proto or JSON names), then the path variables; read by the generated fromJson.
 */
async function restInput(route: RpcRoute, match: RestMatch, request: Request, options: RpcHandlerOptions): Promise<unknown> {
  const { compiled } = match.entry;
  const { messages, input } = compiled.transcoding;
  let json: Record<string, unknown> = {};
  if (compiled.body !== undefined) {
    const body = await restBody(request, options.maxBodyBytes ?? options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
    if (compiled.body === "*") {
      if (body !== undefined) {
        if (body === null || typeof body !== "object" || Array.isArray(body)) throw new RpcError("invalid_argument", "the body must be a JSON object (body: \"*\")");
        json = body as Record<string, unknown>;
      }
    } else if (body !== undefined) setJsonPath(json, [compiled.body], body);
  }
  const pathBound = new Set(compiled.variables.map((v) => v.fields.map((f) => f.name).join(".")));
  const query = new URL(request.url).searchParams;
  const seen = new Map<string, TranscodeField[]>();
  // (URLSearchParams.forEach: its iterator needs the DOM.Iterable lib, which generated code may not have.)
  query.forEach((value, key) => {
    // (c) fields only: a body "*" leaves none, a body field takes its subtree, path variables theirs.
    if (compiled.body === "*") throw new RpcError("invalid_argument", `query parameter ${key}: every field not bound by the path is in the body (body: "*")`);
    let fields = seen.get(key);
    if (fields === undefined) {
      fields = [];
      let message: string | undefined = input;
      for (const name of key.split(".")) {
        const field: TranscodeField | undefined = message === undefined ? undefined : fieldOf(messages, message, name);
        if (field === undefined) throw new RpcError("invalid_argument", `unknown query parameter ${JSON.stringify(key.slice(0, 200))}`);
        fields.push(field);
        message = field.kind === "message" && !field.repeated ? field.message : undefined;
      }
      const names = fields.map((f) => f.name).join(".");
      if (compiled.body !== undefined && fields[0] === compiled.body) throw new RpcError("invalid_argument", `query parameter ${key}: ${compiled.body.name} is the body`);
      if (pathBound.has(names)) throw new RpcError("invalid_argument", `query parameter ${key}: ${names} is bound by the path`);
      seen.set(key, fields);
      const leaf = fields[fields.length - 1]!;
      const converted = urlValueToJson(leaf, value);
      setJsonPath(json, fields, leaf.repeated ? [converted] : converted);
    } else {
      const leaf = fields[fields.length - 1]!;
      if (!leaf.repeated) throw new RpcError("invalid_argument", `query parameter ${key} given more than once for a field that is not repeated`);
      let target: unknown = json;
      for (const f of fields) target = (target as Record<string, unknown>)[f.json];
      (target as unknown[]).push(urlValueToJson(leaf, value));
    }
  });
  compiled.variables.forEach((v, i) => setJsonPath(json, v.fields, urlValueToJson(v.fields[v.fields.length - 1]!, match.values[i]!)));
  let message: unknown;
  try {
    message = route.procedure.input.fromJson(json);
  } catch (error) {
    throw new RpcError("invalid_argument", `cannot decode request: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  checkRules(options, route.procedure.input, message);
  return message;
}

/** One REST call of a unary method: JSON in, JSON out (the whole response or its response_body field). */
async function serveRest(route: RpcRoute, match: RestMatch, request: Request, options: RpcHandlerOptions): Promise<Response> {
  const context = new CallContext(request, undefined, "rest", undefined);
  try {
    const input = await restInput(route, match, request, options);
    const output = await (route.invoke(input, context) as Promise<unknown>);
    let json: unknown;
    try {
      json = route.procedure.output.toJson(output);
    } catch (error) {
      throw asRpcError(error, { request, options, context });
    }
    const responseBody = match.entry.compiled.responseBody;
    if (responseBody !== undefined) {
      const object = json as Record<string, unknown>;
      json = Object.hasOwn(object, responseBody.json) ? object[responseBody.json] : defaultJsonOf(responseBody);
    }
    const headers = headerRecordOf(context.setHeaders, "application/json");
    return responseWithKnownBody(new TextEncoder().encode(JSON.stringify(json)), { status: 200, headers });
  } catch (error) {
    return restError(asRpcError(error, { request, options, context }), context.setHeaders);
  }
}

/**
 * A web-standard handler for a set of procedures, routed by exact path ("/package.Service/Method"), speaking the
 * protocol the request's Content-Type names. Unknown paths are `unimplemented` (Connect: 404; gRPC: grpc-status
 * 12); methods other than POST get 405; unknown content types 415; a Connect unary content type for a streaming
 * method (or the other way round) 415 too. Procedures with google.api.http bindings are also served at their REST
 * routes (HTTP/JSON transcoding): a request that is not a POST to a procedure path is matched against those.
 */
export function rpcRouter(routes: readonly RpcRoute[], options: RpcHandlerOptions = {}): HttpHandler {
  const byPath = new Map(routes.map((r) => [r.procedure.path, r]));
  const rest = restRouterOf(routes);
  return async (request) => {
    const path = pathOf(request.url);
    const route = byPath.get(path);
    if (rest !== undefined && (route === undefined || request.method !== "POST")) {
      let match: RestMatch | undefined;
      try {
        match = rest.match(request.method, path);
      } catch (error) {
        if (error instanceof BadPathError) return restError(new RpcError("invalid_argument", error.message));
        throw error;
      }
      if (match !== undefined) return serveRest(match.entry.target as RpcRoute, match, request, options);
      if (route === undefined) {
        const allowed = rest.methodsFor(path);
        if (allowed.length > 0) {
          return restError(new RpcError("unimplemented", `${request.method} is not supported here; use ${allowed.join(", ")}`), new Headers({ allow: allowed.join(", ") }), 405);
        }
        if (request.method !== "POST" || wireOf(request.headers.get("content-type")) === undefined) {
          return restError(new RpcError("not_found", `no route for ${request.method} ${path.slice(0, 200)}`));
        }
      }
    }
    const wire = wireOf(request.headers.get("content-type"));
    if (request.method !== "POST") {
      return errorAnswer(undefined, new RpcError("unimplemented", `${request.method} is not supported; use POST`), new Headers({ allow: "POST" }), undefined, 405);
    }
    if (wire === undefined) {
      const error = new RpcError("unimplemented", `unsupported content type; use one of ${SUPPORTED_CONTENT_TYPES}`);
      return errorAnswer(undefined, error, new Headers({ "accept-post": SUPPORTED_CONTENT_TYPES }), undefined, 415);
    }
    if (route === undefined) {
      const error = new RpcError("unimplemented", `no such procedure ${pathOf(request.url).slice(0, 200)}`);
      return wire.protocol === "connect" ? errorAnswer(undefined, error, undefined, undefined, 404) : errorAnswer(wire, error);
    }
    const unaryKind = route.procedure.kind === "unary";
    if (wire.protocol === "connect" && wire.enveloped === unaryKind) {
      const error = new RpcError("unimplemented", unaryKind ? "unary method: use application/proto or application/json" : "streaming method: use application/connect+proto or application/connect+json");
      return errorAnswer(undefined, error, undefined, undefined, 415);
    }
    return serveCall(route, request, wire, options);
  };
}

