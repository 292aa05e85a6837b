/**
 * The specforge side of the interop tests: interop.proto through specforge's own pipeline into a temporary folder,
 * its generated handler implementing InteropService (interop-behavior.ts) and its generated client as an
 * InteropCaller, for each protocol the client speaks.
 */
import { RpcError } from "../../../src/runtime/index.js";
import { generateToTemp, type TempOutput } from "../../emitters/proto-http/generate-temp.js";
import * as behavior from "./interop-behavior.js";
import { InteropFailure } from "./interop-behavior.js";
import {
  codeNumber, DETAIL_TYPE, ECHO_BIN_HEADER, ECHO_HEADER, ECHO_TRAILER, GRPC_CODE_NAMES, INTEROP_PROTO, moodName,
  type CallOptions, type CallOutcome, type InteropCaller, type MethodName, type PlainPayload, type PlainRequest, type PlainResponse,
} from "./interop-shape.js";

/** The shapes of the generated types.ts this harness uses (the module exists only at test time). */
export interface SfPayload { text: string; number: bigint; data: Uint8Array; tags?: string[]; mood: string | number }
export interface SfRequest { payload?: SfPayload; repeat: number; failCode: number; failMessage: string; delayMs: number }
export interface SfResponse { payload?: SfPayload; index: number }

export interface SfCallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  headers?: HeadersInit;
  onHeader?(headers: Headers): void;
  onTrailer?(trailers: Headers): void;
}

export interface SfContext {
  readonly signal: AbortSignal;
  readonly requestHeaders: Headers;
  readonly responseHeaders: Headers;
  readonly responseTrailers: Headers;
  readonly protocol: string;
}

export interface SfImplementation {
  unary(request: SfRequest, context: SfContext): Promise<SfResponse>;
  serverStream(request: SfRequest, context: SfContext): AsyncIterable<SfResponse>;
  clientStream(requests: AsyncIterable<SfRequest>, context: SfContext): Promise<SfResponse>;
  bidiStream(requests: AsyncIterable<SfRequest>, context: SfContext): AsyncIterable<SfResponse>;
}

export interface SfClient {
  unary(request: SfRequest, options?: SfCallOptions): Promise<SfResponse>;
  serverStream(request: SfRequest, options?: SfCallOptions): AsyncIterable<SfResponse>;
  clientStream(requests: Iterable<SfRequest> | AsyncIterable<SfRequest>, options?: SfCallOptions): Promise<SfResponse>;
  bidiStream(requests: Iterable<SfRequest> | AsyncIterable<SfRequest>, options?: SfCallOptions): AsyncIterable<SfResponse>;
}

export interface SfClientOptions {
  baseUrl: string;
  sendCompression?: "gzip" | "identity";
  compressMinBytes?: number;
  protocol?: "connect" | "grpc-web" | "grpc";
  format?: "proto" | "json";
  grpcWebText?: boolean;
}

export interface SfHandlerOptions {
  maxMessageBytes?: number;
  onError?(error: unknown): void;
}

export interface SpecforgeInterop {
  createInteropServiceClient(options: SfClientOptions): SfClient;
  createInteropServiceHandler(impl: SfImplementation, options?: SfHandlerOptions): (request: Request) => Promise<Response>;
  encodeEchoResponse(message: SfResponse): Uint8Array;
}

export interface SpecforgeGenerated {
  readonly module: SpecforgeInterop;
  readonly out: TempOutput;
}

export async function generateSpecforgeInterop(): Promise<SpecforgeGenerated> {
  const out = generateToTemp(INTEROP_PROTO);
  try {
    const connect = (await import(`${out.dir}/connect.ts`)) as Omit<SpecforgeInterop, "encodeEchoResponse">;
    const protobuf = (await import(`${out.dir}/protobuf.ts`)) as Pick<SpecforgeInterop, "encodeEchoResponse">;
    return { module: { ...connect, encodeEchoResponse: protobuf.encodeEchoResponse }, out };
  } catch (error) {
    out.remove();
    throw error;
  }
}

function payloadToSf(p: PlainPayload): SfPayload {
  return { text: p.text, number: p.number, data: p.data, tags: [...p.tags], mood: p.mood };
}

function payloadOfSf(p: SfPayload | undefined): PlainPayload | undefined {
  return p ? { text: p.text, number: p.number, data: p.data, tags: p.tags ?? [], mood: moodName(p.mood) } : undefined;
}

function requestToSf(r: PlainRequest): SfRequest {
  return {
    ...(r.payload ? { payload: payloadToSf(r.payload) } : {}),
    repeat: r.repeat ?? 0, failCode: r.failCode ?? 0, failMessage: r.failMessage ?? "", delayMs: r.delayMs ?? 0,
  };
}

function requestOfSf(o: SfRequest): PlainRequest {
  const payload = payloadOfSf(o.payload);
  return { ...(payload ? { payload } : {}), repeat: o.repeat, failCode: o.failCode, failMessage: o.failMessage, delayMs: o.delayMs };
}

function responseToSf(r: PlainResponse): SfResponse {
  return { ...(r.payload ? { payload: payloadToSf(r.payload) } : {}), index: r.index };
}

function responseOfSf(o: SfResponse): PlainResponse {
  const payload = payloadOfSf(o.payload);
  return { ...(payload ? { payload } : {}), index: o.index };
}

// ---------------------------------------------------------------------------------------------------------------
// Server

/** What the specforge test server saw, for the leak checks: handlers running now, and those that saw the call's
 * signal abort (a client cancel, a deadline, a broken connection). */
export interface HandlerCounters {
  running: number;
  cancelled: number;
  readonly protocols: string[];
  /** The message encoding each call's request named (grpc-encoding, connect-content-encoding, or Content-Encoding for
   * Connect unary), when not identity. */
  readonly encodings?: string[];
}

function echo(context: SfContext): void {
  const value = context.requestHeaders.get(ECHO_HEADER);
  if (value !== null) {
    context.responseHeaders.set(ECHO_HEADER, value);
    context.responseTrailers.set(ECHO_TRAILER, value);
  }
  const bin = context.requestHeaders.get(ECHO_BIN_HEADER);
  if (bin !== null) context.responseHeaders.set(ECHO_BIN_HEADER, bin);
}

/** InteropService as a generated specforge implementation, counting into `counters`. */
export function specforgeImplementation(sf: SpecforgeInterop, counters: HandlerCounters): SfImplementation {
  const rethrow = (e: unknown): never => {
    if (!(e instanceof InteropFailure)) throw e;
    const detail = { type: DETAIL_TYPE, value: sf.encodeEchoResponse(responseToSf(e.detail)) };
    throw new RpcError(GRPC_CODE_NAMES[e.code] as RpcError["code"], e.message, { details: [detail] });
  };
  /** Runs around every handler: counts it, echoes metadata, notes a cancel it sees. */
  const enter = (context: SfContext): (() => void) => {
    counters.running++;
    counters.protocols.push(context.protocol);
    const h = context.requestHeaders;
    const encoding = h.get("grpc-encoding") ?? h.get("connect-content-encoding") ?? h.get("content-encoding");
    if (encoding !== null && encoding !== "identity") counters.encodings?.push(encoding);
    echo(context);
    const onAbort = () => void counters.cancelled++;
    context.signal.addEventListener("abort", onAbort, { once: true });
    return () => {
      counters.running--;
      context.signal.removeEventListener("abort", onAbort);
    };
  };
  async function* requests(items: AsyncIterable<SfRequest>): AsyncGenerator<PlainRequest> {
    for await (const r of items) yield requestOfSf(r);
  }
  async function* stream(context: SfContext, responses: AsyncIterable<PlainResponse>): AsyncGenerator<SfResponse> {
    const leave = enter(context);
    try {
      for await (const r of responses) yield responseToSf(r);
    } catch (e) {
      rethrow(e);
    } finally {
      leave();
    }
  }
  async function single(context: SfContext, response: () => Promise<PlainResponse>): Promise<SfResponse> {
    const leave = enter(context);
    try {
      return responseToSf(await response());
    } catch (e) {
      return rethrow(e);
    } finally {
      leave();
    }
  }
  return {
    unary: (request, context) => single(context, () => behavior.unary(requestOfSf(request), context.signal)),
    serverStream: (request, context) => stream(context, behavior.serverStream(requestOfSf(request), context.signal)),
    clientStream: (items, context) => single(context, () => behavior.clientStream(requests(items), context.signal)),
    bidiStream: (items, context) => stream(context, behavior.bidiStream(requests(items), context.signal)),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Client

/** A generated specforge client as an InteropCaller. */
export function specforgeCaller(sf: SpecforgeInterop, options: SfClientOptions): InteropCaller & { readonly client: SfClient } {
  const client = sf.createInteropServiceClient(options);
  const name = `specforge ${options.protocol ?? "connect"}${options.format === "json" ? " json" : ""}${options.grpcWebText ? " text" : ""}`;
  return {
    name,
    client,
    call: (method, requests, callOptions = {}) => callSpecforge(client, method, requests, callOptions),
    // The generated client keeps an HTTP/2 session for gRPC; it closes when idle (see the runtime's client).
    close: () => (client as { close?: () => void }).close?.(),
  };
}

async function callSpecforge(client: SfClient, method: MethodName, requests: readonly PlainRequest[], options: CallOptions): Promise<CallOutcome> {
  let headers = new Headers();
  let trailers: Headers | undefined;
  const controller = new AbortController();
  options.signal?.addEventListener("abort", () => controller.abort(options.signal!.reason), { once: true });
  const sfOptions: SfCallOptions = {
    signal: controller.signal,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    onHeader: (h) => (headers = h),
    onTrailer: (t) => (trailers = t),
  };
  const sfRequests = requests.map(requestToSf);
  const first = sfRequests[0] ?? requestToSf({});
  const raw: SfResponse[] = [];
  try {
    if (method === "Unary") raw.push(await client.unary(first, sfOptions));
    else if (method === "ClientStream") raw.push(await client.clientStream(sfRequests, sfOptions));
    else {
      const responses = method === "ServerStream" ? client.serverStream(first, sfOptions) : client.bidiStream(sfRequests, sfOptions);
      for await (const r of responses) {
        raw.push(r);
        if (options.takeMessages !== undefined && raw.length >= options.takeMessages) break;
      }
    }
    return { messages: raw.map(responseOfSf), headers, trailers: trailers ?? new Headers(), code: 0, message: "", details: [] };
  } catch (e) {
    if (!(e instanceof RpcError)) throw e;
    const details = e.details.map((d) => ({ type: d.type, value: d.value }));
    return { messages: raw.map(responseOfSf), headers, trailers: trailers ?? e.metadata, code: codeNumber(e.code), message: e.rawMessage, details };
  }
}
