/**
 * The connect-es peer (@connectrpc/connect-node 2.1.1): a server answering Connect, gRPC and gRPC-Web through
 * connectNodeAdapter, and clients over its three Node transports, with message code from protoc-gen-es
 * (es-codegen.ts). The server listens twice with the same adapter: on node:http2 (h2c; what gRPC needs) and on
 * node:http (HTTP/1.1; what fetch-based clients reach).
 */
import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import type { DescService } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type CallOptions as EsCallOptions, type HandlerContext, type ServiceImpl, type Transport } from "@connectrpc/connect";
import {
  compressionGzip, connectNodeAdapter, createConnectTransport, createGrpcTransport, createGrpcWebTransport, Http2SessionManager,
  type ConnectNodeAdapterOptions,
} from "@connectrpc/connect-node";
import type { EsInterop } from "./es-codegen.js";
import * as behavior from "./interop-behavior.js";
import { InteropFailure } from "./interop-behavior.js";
import {
  ECHO_BIN_HEADER, ECHO_HEADER, ECHO_TRAILER, moodName, MOODS,
  type CallOptions, type CallOutcome, type InteropCaller, type MethodName, type PlainPayload, type PlainRequest, type PlainResponse,
} from "./interop-shape.js";

/* eslint-disable @typescript-eslint/no-explicit-any -- the protoc-gen-es module is generated at test time */
type EsObject = Record<string, any>;

function payloadToEs(p: PlainPayload): EsObject {
  return { text: p.text, number: p.number, data: p.data, tags: [...p.tags], mood: MOODS.indexOf(p.mood) };
}

function payloadOfEs(p: EsObject | undefined): PlainPayload | undefined {
  return p ? { text: p.text, number: p.number, data: p.data, tags: p.tags, mood: moodName(p.mood) } : undefined;
}

function requestToEs(r: PlainRequest): EsObject {
  return {
    ...(r.payload ? { payload: payloadToEs(r.payload) } : {}),
    repeat: r.repeat ?? 0, failCode: r.failCode ?? 0, failMessage: r.failMessage ?? "", delayMs: r.delayMs ?? 0,
  };
}

function requestOfEs(o: EsObject): PlainRequest {
  const payload = payloadOfEs(o.payload);
  return { ...(payload ? { payload } : {}), repeat: o.repeat, failCode: o.failCode, failMessage: o.failMessage, delayMs: o.delayMs };
}

function responseToEs(r: PlainResponse): EsObject {
  return { ...(r.payload ? { payload: payloadToEs(r.payload) } : {}), index: r.index };
}

function responseOfEs(o: EsObject): PlainResponse {
  const payload = payloadOfEs(o.payload);
  return { ...(payload ? { payload } : {}), index: o.index };
}

// ---------------------------------------------------------------------------------------------------------------
// Server

export interface ConnectNodeServerHandle {
  /** http://127.0.0.1:port of the HTTP/2 (h2c) listener: gRPC, and Connect / gRPC-Web over HTTP/2. */
  readonly http2Url: string;
  /** http://127.0.0.1:port of the HTTP/1.1 listener: Connect and gRPC-Web over fetch. */
  readonly http1Url: string;
  close(): Promise<void>;
}

function echo(context: HandlerContext): void {
  const value = context.requestHeader.get(ECHO_HEADER);
  if (value !== null) {
    context.responseHeader.set(ECHO_HEADER, value);
    context.responseTrailer.set(ECHO_TRAILER, value);
  }
  const bin = context.requestHeader.get(ECHO_BIN_HEADER);
  if (bin !== null) context.responseHeader.set(ECHO_BIN_HEADER, bin);
}

async function* requestsOfEs(requests: AsyncIterable<EsObject>): AsyncGenerator<PlainRequest> {
  for await (const r of requests) yield requestOfEs(r);
}

async function* responsesToEs(responses: AsyncIterable<PlainResponse>): AsyncGenerator<EsObject> {
  for await (const r of responses) yield responseToEs(r);
}

export async function startConnectNodeServer(es: EsInterop, options: Omit<ConnectNodeAdapterOptions, "routes"> = {}): Promise<ConnectNodeServerHandle> {
  // A behavior failure becomes a ConnectError with the detail as an EchoResponse (connect-es encodes it itself).
  const rethrow = (e: unknown): never => {
    if (!(e instanceof InteropFailure)) throw e;
    throw new ConnectError(e.message, e.code as Code, undefined, [{ desc: es.EchoResponseSchema, value: responseToEs(e.detail) }]);
  };
  const guarded = async function* (responses: AsyncIterable<PlainResponse>): AsyncGenerator<EsObject> {
    try {
      yield* responsesToEs(responses);
    } catch (e) {
      rethrow(e);
    }
  };
  const impl: Record<string, (input: any, context: HandlerContext) => any> = {
    unary: (request: EsObject, context) => {
      echo(context);
      return behavior.unary(requestOfEs(request), context.signal).then(responseToEs, rethrow);
    },
    serverStream: (request: EsObject, context) => {
      echo(context);
      return guarded(behavior.serverStream(requestOfEs(request), context.signal));
    },
    clientStream: (requests: AsyncIterable<EsObject>, context) => {
      echo(context);
      return behavior.clientStream(requestsOfEs(requests), context.signal).then(responseToEs, rethrow);
    },
    bidiStream: (requests: AsyncIterable<EsObject>, context) => {
      echo(context);
      return guarded(behavior.bidiStream(requestsOfEs(requests), context.signal));
    },
  };
  const adapter = connectNodeAdapter({ ...options, routes: (router) => router.service(es.InteropService, impl as unknown as Partial<ServiceImpl<DescService>>) });
  const h2 = http2.createServer(adapter);
  const h1 = http.createServer(adapter);
  const listen = (server: http.Server | http2.Http2Server) =>
    new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
  const [http2Url, http1Url] = [await listen(h2), await listen(h1)];
  // Open HTTP/2 sessions keep h2.close() waiting; close them with the server.
  const sessions = new Set<http2.ServerHttp2Session>();
  h2.on("session", (s) => {
    sessions.add(s);
    s.once("close", () => sessions.delete(s));
  });
  return {
    http2Url,
    http1Url,
    async close() {
      for (const s of sessions) s.close();
      h1.closeAllConnections();
      await Promise.all([new Promise((r) => h2.close(r)), new Promise((r) => h1.close(r))]);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Clients

export type ConnectNodeProtocol = "connect" | "grpc" | "grpc-web";

export interface ConnectNodeCallerOptions {
  readonly protocol: ConnectNodeProtocol;
  readonly baseUrl: string;
  /** HTTP/2 (default) or HTTP/1.1 (Connect and gRPC-Web only; no bidi). */
  readonly httpVersion?: "2" | "1.1";
  /** JSON instead of binary messages (Connect and gRPC-Web). */
  readonly json?: boolean;
  readonly readMaxBytes?: number;
  /** Send requests gzipped (connect-es compresses messages of 1 KiB or more). */
  readonly gzip?: boolean;
}

/** A connect-node client of InteropService as an InteropCaller. */
export function connectNodeCaller(es: EsInterop, options: ConnectNodeCallerOptions): InteropCaller & { readonly transport: Transport } {
  const httpVersion = options.httpVersion ?? "2";
  const sessionManager = httpVersion === "2" ? new Http2SessionManager(options.baseUrl) : undefined;
  const common = {
    baseUrl: options.baseUrl,
    useBinaryFormat: !options.json,
    ...(options.readMaxBytes === undefined ? {} : { readMaxBytes: options.readMaxBytes }),
    ...(options.gzip ? { sendCompression: compressionGzip } : {}),
  };
  const versioned = sessionManager ? { httpVersion: "2" as const, sessionManager } : { httpVersion: "1.1" as const };
  const transport =
    options.protocol === "grpc" ? createGrpcTransport({ ...common, ...(sessionManager ? { sessionManager } : {}) })
    : options.protocol === "grpc-web" ? createGrpcWebTransport({ ...common, ...versioned })
    : createConnectTransport({ ...common, ...versioned });
  const client = createClient(es.InteropService as DescService, transport) as unknown as Record<string, (input: any, options: EsCallOptions) => any>;
  const name = `connect-node ${options.protocol}${options.json ? " json" : ""}${options.gzip ? " gzip" : ""} (HTTP/${httpVersion})`;
  return {
    name,
    transport,
    call: (method, requests, callOptions = {}) => callConnect(client, method, requests, callOptions),
    close: () => sessionManager?.abort(),
  };
}

async function* take<T>(items: AsyncIterable<T>, messages: T[], limit: number | undefined, stop: () => void): AsyncGenerator<never> {
  for await (const item of items) {
    messages.push(item);
    if (limit !== undefined && messages.length >= limit) {
      stop();
      return;
    }
  }
}

async function callConnect(client: Record<string, (input: any, options: EsCallOptions) => any>, method: MethodName, requests: readonly PlainRequest[], options: CallOptions): Promise<CallOutcome> {
  let headers = new Headers();
  let trailers: Headers | undefined;
  const controller = new AbortController();
  options.signal?.addEventListener("abort", () => controller.abort(options.signal!.reason), { once: true });
  const esOptions: EsCallOptions = {
    signal: controller.signal,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    onHeader: (h) => (headers = h),
    onTrailer: (t) => (trailers = t),
  };
  const esRequests = requests.map(requestToEs);
  async function* stream(): AsyncGenerator<EsObject> {
    yield* esRequests;
  }
  const raw: EsObject[] = [];
  try {
    const key = method[0]!.toLowerCase() + method.slice(1);
    const fn = client[key]!;
    if (method === "Unary") raw.push(await fn(esRequests[0] ?? {}, esOptions));
    else if (method === "ClientStream") raw.push(await fn(stream(), esOptions));
    else {
      const responses = fn(method === "ServerStream" ? esRequests[0] ?? {} : stream(), esOptions) as AsyncIterable<EsObject>;
      for await (const _ of take(responses, raw, options.takeMessages, () => controller.abort())) void _;
    }
    return { messages: raw.map(responseOfEs), headers, trailers: trailers ?? new Headers(), code: 0, message: "", details: [] };
  } catch (e) {
    const error = ConnectError.from(e);
    const details = error.details.flatMap((d) => ("type" in d ? [{ type: d.type, value: d.value }] : []));
    // connect-es reports an error's headers and trailers together as its metadata.
    return { messages: raw.map(responseOfEs), headers, trailers: trailers ?? error.metadata, code: error.code, message: error.rawMessage, details };
  }
}
