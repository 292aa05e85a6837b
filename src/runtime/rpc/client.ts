/**
 * Clients of generated proto services over Connect, gRPC-Web (fetch) or gRPC (node:http2). Every failure is an
 * RpcError: the server's status, `deadline_exceeded` on timeout, `canceled` when the caller's signal aborts,
 * `unavailable` when the server cannot be reached, `internal` for answers that break the protocol.
 */
import { connectCodeFromHttpStatus } from "../connect/code.js";
import { connectErrorFromJson } from "../connect/error-json.js";
import { RpcError } from "../connect/error.js";
import { CONNECT_PROTOCOL_VERSION, CONNECT_PROTOCOL_VERSION_HEADER, CONNECT_TIMEOUT_HEADER } from "../connect/protocol.js";
import { callSignal, type CallSignal } from "../http/deadline.js";
import type { FetchFunction } from "../http/handler.js";
import { interceptedFetch, type HttpAuth, type Interceptor } from "../http/interceptor.js";
import { readJsonMessage, writeJsonMessage } from "../http/message-codec.js";
import { base64Padded, base64Source } from "./base64-stream.js";
import { ACCEPTED_ENCODINGS, compressionOf, gunzip, gzip } from "./compression.js";
import { decodeEndStream } from "./end-stream.js";
import { EnvelopeReader, FLAG_COMPRESSED, FLAG_END_STREAM, FLAG_TRAILERS, frame, type ChunkSource } from "./envelope.js";
import { decodeTrailerBlock, formatGrpcTimeout, grpcStatusError } from "./grpc-headers.js";
import { DEFAULT_MAX_MESSAGE_BYTES, type RpcProcedure, type RpcProtocol } from "./procedure.js";
import { fetchTransport, type RpcTransport, type RpcTransportResponse } from "./transport.js";
import { http2Transport, type Http2TlsOptions } from "./transport-http2.js";
import { clientWire, type RpcFormat, type Wire } from "./wire.js";
import { concatBytes } from "../http/concat-bytes.js";
import { compileBinding, expandPath, queryOf, rpcStatusFromJson, setJsonPath, withoutJsonPath, type CompiledBinding } from "./transcode.js";

export interface RpcClientOptions {
  /** Where the service lives; procedures are appended ("https://api.example.com" + "/pkg.Service/Method"). */
  readonly baseUrl: string;
  /**
   * "connect" (default) and "grpc-web" go over fetch; "grpc" over node:http2 (h2c for http://, TLS for https://);
   * "rest" calls unary methods at their google.api.http routes over fetch (JSON bodies, query parameters).
   */
  readonly protocol?: RpcProtocol;
  readonly fetch?: FetchFunction;
  /** Message encoding: protobuf binary (default) or ProtoJSON. */
  readonly format?: RpcFormat;
  /** gRPC-Web: send and expect application/grpc-web-text (base64) instead of binary. */
  readonly grpcWebText?: boolean;
  /** Default deadline of every call; sent as Connect-Timeout-Ms / grpc-timeout and enforced locally. */
  readonly timeoutMs?: number;
  /** Headers sent with every call. */
  readonly headers?: HeadersInit;
  /** Adds credentials to each call's headers: `basicAuth(user, password)`, `bearerAuth(token)`, or your own. */
  readonly auth?: HttpAuth;
  /**
   * Functions that see (and may change) every HTTP request and response, first one outermost. Connect and gRPC-Web
   * (fetch) only: a gRPC client over node:http2 refuses them (its `auth` and `headers` still apply).
   */
  readonly interceptors?: readonly Interceptor[];
  /** TLS settings of the gRPC (HTTP/2) transport for https:// base URLs. */
  readonly tls?: Http2TlsOptions;
  /** A transport to use instead of the protocol's default (an HTTP/2 one makes Connect bidi streaming possible). */
  readonly transport?: RpcTransport;
  /** Compress request messages of at least compressMinBytes with gzip (default: identity). */
  readonly sendCompression?: "gzip" | "identity";
  readonly compressMinBytes?: number;
  /** Largest answer message accepted (default 4 MiB). */
  readonly maxMessageBytes?: number;
}

export interface RpcCallOptions {
  readonly signal?: AbortSignal;
  /** Deadline of this call (overrides the client's). */
  readonly timeoutMs?: number;
  /** Extra headers of this call (added to the client's). */
  readonly headers?: HeadersInit;
  /** Called with the response headers when they arrive. */
  readonly onHeader?: (headers: Headers) => void;
  /** Called with the trailers (gRPC trailers, gRPC-Web trailer block, Connect end-stream metadata) at the end. */
  readonly onTrailer?: (trailers: Headers) => void;
}

/** A client's settings with its transport, shared by the calls of one generated client. */
export interface RpcClient {
  readonly options: RpcClientOptions;
  readonly protocol: RpcProtocol;
  readonly format: RpcFormat;
  readonly transport: RpcTransport;
  readonly baseUrl: string;
  readonly limit: number;
}

export function rpcClient(options: RpcClientOptions): RpcClient {
  const protocol = options.protocol ?? "connect";
  const hooked = (options.interceptors?.length ?? 0) > 0;
  if (hooked && (protocol === "grpc" || options.transport !== undefined)) {
    throw new TypeError("interceptors need the fetch transport (Connect or gRPC-Web); use auth and headers with gRPC over HTTP/2 or a custom transport");
  }
  const fetchFunction: FetchFunction | undefined = hooked
    ? (input, init) => interceptedFetch(options.fetch ?? ((r) => globalThis.fetch(r)), options.interceptors)(new Request(input, init))
    : options.fetch;
  const plain = options.transport ?? (protocol === "grpc" ? http2Transport(options.baseUrl, options.tls) : fetchTransport(fetchFunction));
  const transport = options.auth === undefined ? plain : authTransport(plain, options.auth);
  return {
    options,
    protocol,
    format: options.format ?? "proto",
    transport,
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    limit: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
  };
}

/** A transport that lets `auth` change each call's headers (it sees a Request with the URL and headers, no body). */
function authTransport(inner: RpcTransport, auth: HttpAuth): RpcTransport {
  return {
    fullDuplex: inner.fullDuplex,
    async request(request) {
      const authed = await auth(new Request(request.url, { method: "POST", headers: request.headers }));
      return inner.request({ ...request, headers: new Headers(authed.headers) });
    },
    ...(inner.close !== undefined ? { close: () => inner.close!() } : {}),
  };
}

/** Close the client's connections (the HTTP/2 session of a gRPC client); later calls reconnect. */
export function closeRpcClient(client: RpcClient): void {
  client.transport.close?.();
}

function wireOfClient(client: RpcClient, enveloped: boolean): Wire {
  const text = client.protocol === "grpc-web" && client.options.grpcWebText === true;
  return clientWire(client.protocol, text ? "proto" : client.format, enveloped || client.protocol !== "connect", text);
}

function requestHeaders(client: RpcClient, call: RpcCallOptions, wire: Wire, timeoutMs: number | undefined): Headers {
  const headers = new Headers(client.options.headers);
  if (call.headers !== undefined) new Headers(call.headers).forEach((value, name) => headers.set(name, value));
  headers.set("content-type", wire.contentType);
  const gzipOut = client.options.sendCompression === "gzip";
  if (wire.protocol === "connect") {
    headers.set(CONNECT_PROTOCOL_VERSION_HEADER, CONNECT_PROTOCOL_VERSION);
    if (timeoutMs !== undefined) headers.set(CONNECT_TIMEOUT_HEADER, String(Math.max(0, Math.ceil(timeoutMs))));
    if (wire.enveloped) {
      headers.set("connect-accept-encoding", ACCEPTED_ENCODINGS);
      if (gzipOut) headers.set("connect-content-encoding", "gzip");
    } else if (gzipOut) headers.set("content-encoding", "gzip");
    // (unary answers: fetch negotiates and decodes Content-Encoding itself)
  } else {
    if (timeoutMs !== undefined) headers.set("grpc-timeout", formatGrpcTimeout(timeoutMs));
    headers.set("grpc-accept-encoding", ACCEPTED_ENCODINGS);
    if (gzipOut) headers.set("grpc-encoding", "gzip");
    if (wire.protocol === "grpc") headers.set("te", "trailers");
    else headers.set("x-grpc-web", "1");
  }
  return headers;
}

/** A failure as the caller sees it: timeout and abort win over what the transport said about them. */
function callError(error: unknown, deadline: CallSignal, call: RpcCallOptions, timeoutMs: number | undefined, url: string): RpcError {
  if (deadline.timedOut()) return new RpcError("deadline_exceeded", `no answer within ${timeoutMs} ms`, { cause: error });
  if (call.signal?.aborted) return new RpcError("canceled", "the call was aborted", { cause: error });
  if (error instanceof RpcError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new RpcError("unavailable", `cannot reach ${url}: ${reason}`, { cause: error });
}

function encodeMessage<I>(wire: Wire, procedure: RpcProcedure<I, unknown>, message: I): Uint8Array {
  try {
    return wire.format === "json" ? writeJsonMessage(procedure.input, message) : procedure.input.encode(message);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RpcError("internal", `cannot encode request: ${reason}`, { cause: error });
  }
}

async function encodeRequest<I>(client: RpcClient, wire: Wire, procedure: RpcProcedure<I, unknown>, message: I): Promise<Uint8Array> {
  const data = encodeMessage(wire, procedure, message);
  const framed =
    client.options.sendCompression === "gzip" && data.byteLength >= (client.options.compressMinBytes ?? 1024)
      ? frame(FLAG_COMPRESSED, await gzip(data))
      : frame(0, data);
  return wire.text ? new TextEncoder().encode(base64Padded(framed)) : framed;
}

async function* encodeRequests<I>(
  client: RpcClient,
  wire: Wire,
  procedure: RpcProcedure<I, unknown>,
  requests: AsyncIterable<I> | Iterable<I>,
): AsyncGenerator<Uint8Array> {
  for await (const message of requests) yield await encodeRequest(client, wire, procedure, message);
}

function decodeAnswer<O>(wire: Wire, procedure: RpcProcedure<unknown, O>, data: Uint8Array): O {
  try {
    return wire.format === "json" ? readJsonMessage(procedure.output, data) : procedure.output.decode(data);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RpcError("internal", `cannot decode response: ${reason}`, { cause: error });
  }
}

/** Connect error bodies are small JSON objects; more than this is not one, and is not buffered. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

async function readAll(source: ChunkSource, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const chunk = await source.read();
    if (chunk === undefined) break;
    total += chunk.byteLength;
    if (total > limit) {
      source.cancel();
      throw new RpcError("resource_exhausted", `answer is larger than ${limit} bytes`);
    }
    chunks.push(chunk);
  }
  return concatBytes(chunks, total);
}

/** A non-200 answer, or a Connect unary error: the Connect JSON error when there is one, else from the status. */
async function httpError(response: RpcTransportResponse): Promise<RpcError> {
  const fromGrpc = grpcStatusError(response.headers, response.headers);
  if (fromGrpc !== undefined && fromGrpc !== "missing") return fromGrpc;
  let text = "";
  try {
    text = new TextDecoder().decode(await readAll(response.body, MAX_ERROR_BODY_BYTES));
  } catch {
    response.body.cancel();
  }
  // A Connect unary error sends its trailers as "trailer-" headers; the error's metadata has them under their own
  // names, as connect-es does (headers and trailers together).
  const metadata = new Headers();
  response.headers.forEach((value, name) => metadata.append(name.startsWith("trailer-") ? name.slice(8) : name, value));
  const fromJson = (response.headers.get("content-type") ?? "").startsWith("application/json") ? connectErrorFromJson(text, metadata) : undefined;
  return fromJson ?? new RpcError(connectCodeFromHttpStatus(response.status), `HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ""}`, {
    metadata,
  });
}

interface Started {
  readonly response: RpcTransportResponse;
  readonly deadline: CallSignal;
  readonly timeoutMs: number | undefined;
  readonly url: string;
}

async function start(
  client: RpcClient,
  wire: Wire,
  procedure: RpcProcedure<any, any>,
  body: Uint8Array | AsyncIterable<Uint8Array>,
  call: RpcCallOptions,
): Promise<Started> {
  const timeoutMs = call.timeoutMs ?? client.options.timeoutMs;
  const url = client.baseUrl + procedure.path;
  const deadline = callSignal(call.signal, timeoutMs);
  try {
    const response = await client.transport.request({ url, headers: requestHeaders(client, call, wire, timeoutMs), body, signal: deadline.signal });
    return { response, deadline, timeoutMs, url };
  } catch (error) {
    throw callError(error, deadline, call, timeoutMs, url);
  }
}

/** Connect unary: one body each way, errors as JSON with an HTTP status, trailers as "trailer-" headers. */
async function connectUnary<I, O>(client: RpcClient, procedure: RpcProcedure<I, O>, input: I, call: RpcCallOptions): Promise<O> {
  const wire = wireOfClient(client, false);
  let data = encodeMessage(wire, procedure, input);
  if (client.options.sendCompression === "gzip" && data.byteLength >= (client.options.compressMinBytes ?? 1024)) data = await gzip(data);
  const started = await start(client, wire, procedure, data, call);
  const { response } = started;
  let bytes: Uint8Array;
  try {
    if (response.status !== 200) throw await httpError(response);
    bytes = await readAll(response.body, client.limit);
    const encoding = compressionOf(response.headers.get("content-encoding"));
    // fetch decodes Content-Encoding itself; the HTTP/2 transport hands over the bytes as sent
    if (encoding === "gzip" && client.transport.fullDuplex) bytes = await gunzip(bytes, client.limit);
  } catch (error) {
    throw callError(error, started.deadline, call, started.timeoutMs, started.url);
  }
  call.onHeader?.(response.headers);
  if (call.onTrailer !== undefined) {
    const trailers = new Headers();
    response.headers.forEach((value, name) => {
      if (name.startsWith("trailer-")) trailers.append(name.slice(8), value);
    });
    call.onTrailer(trailers);
  }
  const contentType = response.headers.get("content-type") ?? "";
  if (!contentType.startsWith(wire.contentType)) {
    throw new RpcError("internal", `unexpected response content type ${JSON.stringify(contentType)}`, { metadata: response.headers });
  }
  return decodeAnswer(wire, procedure, bytes);
}

/**
 * The answers of an enveloped call (Connect streaming, gRPC, gRPC-Web), then its status. Returning early (the caller
 * stops iterating) cancels the HTTP stream.
 */
async function* readAnswers<O>(client: RpcClient, wire: Wire, procedure: RpcProcedure<any, O>, started: Started, call: RpcCallOptions): AsyncGenerator<O> {
  const { response } = started;
  let finished = false;
  try {
    if (response.status !== 200) throw await httpError(response);
    if (wire.protocol !== "connect") {
      const trailersOnly = grpcStatusError(response.headers, response.headers);
      if (trailersOnly !== "missing") {
        call.onHeader?.(response.headers);
        call.onTrailer?.(response.headers);
        finished = true;
        response.body.cancel();
        if (trailersOnly !== undefined) throw trailersOnly;
        return;
      }
    }
    const contentType = response.headers.get("content-type") ?? "";
    if (!contentType.startsWith(wire.protocol === "grpc-web" ? "application/grpc-web" : wire.contentType)) {
      throw new RpcError(wire.protocol === "connect" ? "internal" : "unknown", `unexpected response content type ${JSON.stringify(contentType)}`);
    }
    call.onHeader?.(response.headers);
    const encoding = compressionOf(response.headers.get(wire.protocol === "connect" ? "connect-content-encoding" : "grpc-encoding"));
    const reader = new EnvelopeReader(wire.text ? base64Source(response.body) : response.body, client.limit);
    let trailers: Headers | undefined;
    let status: RpcError | undefined;
    for (;;) {
      const envelope = await reader.next();
      if (envelope === undefined) break;
      if (wire.protocol === "connect" && (envelope.flags & FLAG_END_STREAM) !== 0) {
        const end = decodeEndStream(envelope.data, response.headers);
        trailers = end.trailers;
        status = end.error;
        break;
      }
      if (wire.protocol === "grpc-web" && (envelope.flags & FLAG_TRAILERS) !== 0) {
        trailers = decodeTrailerBlock(envelope.data);
        const error = grpcStatusError(trailers, mergedMetadata(response.headers, trailers));
        if (error === "missing") throw new RpcError("internal", "protocol error: trailers without grpc-status");
        status = error;
        break;
      }
      let data = envelope.data;
      if ((envelope.flags & FLAG_COMPRESSED) !== 0) {
        if (encoding !== "gzip") throw new RpcError("internal", "protocol error: compressed message without a known encoding");
        data = await gunzip(data, client.limit);
      }
      yield decodeAnswer(wire, procedure, data);
    }
    if (wire.protocol === "grpc") {
      trailers = response.trailers();
      if (trailers === undefined) throw new RpcError("internal", "protocol error: the stream ended without trailers");
      const error = grpcStatusError(trailers, mergedMetadata(response.headers, trailers));
      if (error === "missing") throw new RpcError("internal", "protocol error: trailers without grpc-status");
      status = error;
    } else if (trailers === undefined) {
      throw new RpcError(wire.protocol === "connect" ? "internal" : "unknown", "protocol error: the stream ended without its end message");
    }
    finished = true;
    call.onTrailer?.(trailers);
    if (status !== undefined) throw status;
  } catch (error) {
    finished = true;
    throw callError(error, started.deadline, call, started.timeoutMs, started.url);
  } finally {
    if (!finished) response.body.cancel(new RpcError("canceled", "the caller stopped reading"));
  }
}

function mergedMetadata(headers: Headers, trailers: Headers): Headers {
  const out = new Headers(headers);
  trailers.forEach((value, name) => out.append(name, value));
  return out;
}

async function single<O>(answers: AsyncGenerator<O>): Promise<O> {
  let result: O | undefined;
  let count = 0;
  for await (const answer of answers) {
    result = answer;
    count++;
  }
  if (count !== 1) throw new RpcError("unimplemented", `protocol error: expected one answer message, got ${count}`);
  return result as O;
}

// ---- REST (google.api.http) ----

const compiledBindings = /* @__PURE__ */ new WeakMap<RpcProcedure<any, any>, CompiledBinding>();

/** The primary google.api.http binding of a procedure, resolved once. */
function restBinding(procedure: RpcProcedure<any, any>): CompiledBinding {
  let compiled = compiledBindings.get(procedure);
  if (compiled === undefined) {
    const http = procedure.http;
    const binding = http?.bindings[0];
    if (http === undefined || binding === undefined) {
      throw new RpcError("unimplemented", `${procedure.path} has no google.api.http binding: call it with protocol "connect", "grpc-web" or "grpc"`);
    }
    compiledBindings.set(procedure, (compiled = compileBinding(http, binding)));
  }
  return compiled;
}

function notRest(client: RpcClient, procedure: RpcProcedure<any, any>): void {
  if (client.protocol === "rest") throw new RpcError("unimplemented", `${procedure.path} streams: protocol "rest" calls unary methods only`);
}

/**
 * A unary call at the method's REST route (http.proto): path variables expanded from the request, the body (`*`:
 * every field not in the path; a field: that field), the remaining fields as query parameters; the answer is the
 * response message (or its response_body field) as ProtoJSON, an error a google.rpc.Status JSON body.
 */
async function restUnary<I, O>(client: RpcClient, procedure: RpcProcedure<I, O>, input: I, call: RpcCallOptions): Promise<O> {
  const compiled = restBinding(procedure);
  const { messages } = compiled.transcoding;
  let json: Record<string, unknown>;
  try {
    json = procedure.input.toJson(input) as Record<string, unknown>;
  } catch (error) {
    throw new RpcError("internal", `cannot encode request: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const path = expandPath(compiled, json);
  let rest = json;
  for (const v of compiled.variables) rest = withoutJsonPath(rest, v.fields);
  let body: string | undefined;
  if (compiled.body === "*") body = JSON.stringify(rest);
  else if (compiled.body !== undefined) {
    const field = compiled.body;
    body = JSON.stringify(Object.hasOwn(json, field.json) ? json[field.json] : field.kind === "message" ? {} : null);
    rest = withoutJsonPath(rest, [field]);
  }
  const query = new URLSearchParams();
  if (compiled.body !== "*") queryOf(messages, compiled.transcoding.input, rest, query);
  const search = query.toString();
  const url = `${client.baseUrl}${path}${search === "" ? "" : `?${search}`}`;
  const headers = new Headers(client.options.headers);
  if (call.headers !== undefined) new Headers(call.headers).forEach((value, name) => headers.set(name, value));
  headers.set("accept", "application/json");
  if (body !== undefined) headers.set("content-type", "application/json");
  const timeoutMs = call.timeoutMs ?? client.options.timeoutMs;
  const deadline = callSignal(call.signal, timeoutMs);
  const doFetch = interceptedFetch(client.options.fetch ?? ((r) => globalThis.fetch(r)), client.options.interceptors, client.options.auth);
  const method = compiled.method === "*" ? "POST" : compiled.method;
  let text: string;
  let response: Response;
  try {
    response = await doFetch(new Request(url, { method, headers, ...(body === undefined ? {} : { body }), ...(deadline.signal ? { signal: deadline.signal } : {}) }));
    text = await response.text();
  } catch (error) {
    throw callError(error, deadline, call, timeoutMs, url);
  }
  call.onHeader?.(response.headers);
  if (!response.ok) {
    throw rpcStatusFromJson(text, response.headers) ??
      new RpcError(connectCodeFromHttpStatus(response.status), `HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ""}`, { metadata: response.headers });
  }
  let answer: unknown;
  try {
    answer = JSON.parse(text);
    if (compiled.responseBody !== undefined) {
      const whole: Record<string, unknown> = {};
      setJsonPath(whole, [compiled.responseBody], answer);
      answer = whole;
    }
    return procedure.output.fromJson(answer);
  } catch (error) {
    throw new RpcError("internal", `cannot decode response: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

export async function rpcCallUnary<I, O>(client: RpcClient, procedure: RpcProcedure<I, O>, request: I, call: RpcCallOptions = {}): Promise<O> {
  if (client.protocol === "rest") return restUnary(client, procedure, request, call);
  if (client.protocol === "connect") return connectUnary(client, procedure, request, call);
  const wire = wireOfClient(client, true);
  const started = await start(client, wire, procedure, await encodeRequest(client, wire, procedure, request), call);
  return single(readAnswers(client, wire, procedure, started, call));
}

export async function* rpcCallServerStream<I, O>(client: RpcClient, procedure: RpcProcedure<I, O>, request: I, call: RpcCallOptions = {}): AsyncGenerator<O> {
  notRest(client, procedure);
  const wire = wireOfClient(client, true);
  const started = await start(client, wire, procedure, await encodeRequest(client, wire, procedure, request), call);
  yield* readAnswers(client, wire, procedure, started, call);
}

export async function rpcCallClientStream<I, O>(
  client: RpcClient,
  procedure: RpcProcedure<I, O>,
  requests: AsyncIterable<I> | Iterable<I>,
  call: RpcCallOptions = {},
): Promise<O> {
  notRest(client, procedure);
  const wire = wireOfClient(client, true);
  const started = await start(client, wire, procedure, encodeRequests(client, wire, procedure, requests), call);
  return single(readAnswers(client, wire, procedure, started, call));
}

export async function* rpcCallBidiStream<I, O>(
  client: RpcClient,
  procedure: RpcProcedure<I, O>,
  requests: AsyncIterable<I> | Iterable<I>,
  call: RpcCallOptions = {},
): AsyncGenerator<O> {
  notRest(client, procedure);
  if (!client.transport.fullDuplex) {
    throw new RpcError("unimplemented", "bidi streaming needs HTTP/2 both ways: use protocol \"grpc\" or an HTTP/2 transport (fetch is half-duplex)");
  }
  const wire = wireOfClient(client, true);
  const started = await start(client, wire, procedure, encodeRequests(client, wire, procedure, requests), call);
  yield* readAnswers(client, wire, procedure, started, call);
}

