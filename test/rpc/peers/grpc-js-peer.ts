/**
 * The @grpc/grpc-js peer: a server and a client of InteropService, with the service definition loaded from
 * interop.proto by @grpc/proto-loader (grpc-js's own way of reading a .proto at run time).
 */
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import * as behavior from "./interop-behavior.js";
import { InteropFailure } from "./interop-behavior.js";
import {
  DETAIL_TYPE, ECHO_BIN_HEADER, ECHO_HEADER, ECHO_TRAILER, INTEROP_PROTO, moodName,
  type CallOptions, type CallOutcome, type InteropCaller, type MethodName, type PlainDetail, type PlainRequest, type PlainResponse,
} from "./interop-shape.js";
import { decodeRpcStatus, encodeRpcStatus, STATUS_DETAILS_TRAILER } from "./status-details.js";

/** proto-loader's object form: camelCase names, int64 as decimal strings, enums as names, bytes as Buffer. */
const LOADER_OPTIONS: protoLoader.Options = { keepCase: false, longs: String, enums: String, bytes: Buffer, defaults: true };

/* eslint-disable @typescript-eslint/no-explicit-any -- proto-loader objects are untyped by design */
type LoaderObject = Record<string, any>;

export function loadInteropDefinition(): grpc.ServiceDefinition {
  const packageDefinition = protoLoader.loadSync(INTEROP_PROTO, LOADER_OPTIONS);
  const loaded = grpc.loadPackageDefinition(packageDefinition) as any;
  return loaded.specforge.interop.v1.InteropService.service as grpc.ServiceDefinition;
}

function requestToLoader(r: PlainRequest): LoaderObject {
  return {
    ...(r.payload ? { payload: { ...r.payload, number: r.payload.number.toString(), data: Buffer.from(r.payload.data), tags: [...r.payload.tags] } } : {}),
    repeat: r.repeat ?? 0, failCode: r.failCode ?? 0, failMessage: r.failMessage ?? "", delayMs: r.delayMs ?? 0,
  };
}

function payloadOfLoader(p: LoaderObject | null | undefined) {
  return p ? { text: p.text as string, number: BigInt(p.number as string), data: new Uint8Array(p.data as Buffer), tags: p.tags as string[], mood: moodName(p.mood) } : undefined;
}

function requestOfLoader(o: LoaderObject): PlainRequest {
  const payload = payloadOfLoader(o.payload);
  return { ...(payload ? { payload } : {}), repeat: o.repeat, failCode: o.failCode, failMessage: o.failMessage, delayMs: o.delayMs };
}

function responseToLoader(r: PlainResponse): LoaderObject {
  return { ...(r.payload ? requestToLoader({ payload: r.payload }) : {}), index: r.index };
}

function responseOfLoader(o: LoaderObject): PlainResponse {
  const payload = payloadOfLoader(o.payload);
  return { ...(payload ? { payload } : {}), index: o.index as number };
}

/** Metadata as web Headers: binary (-bin) values base64, as on the wire. */
export function headersOfMetadata(md: grpc.Metadata | undefined): Headers {
  const headers = new Headers();
  if (!md) return headers;
  for (const [key, values] of Object.entries(md.toJSON())) {
    for (const v of values) headers.append(key, Buffer.isBuffer(v) ? v.toString("base64") : String(v));
  }
  return headers;
}

function metadataOfRecord(record: Readonly<Record<string, string>> | undefined): grpc.Metadata {
  const md = new grpc.Metadata();
  for (const [key, value] of Object.entries(record ?? {})) md.add(key, key.endsWith("-bin") ? Buffer.from(value, "base64") : value);
  return md;
}

// ---------------------------------------------------------------------------------------------------------------
// Server

export interface GrpcJsServerHandle {
  /** host:port, for grpc-js clients. */
  readonly address: string;
  /** http://host:port, for clients that take a URL. */
  readonly url: string;
  /** Calls whose handler saw the client cancel. */
  readonly cancelled: () => number;
  close(): Promise<void>;
}

/** Echo metadata (interop-shape.ts): the response headers and trailers a call sends back. */
function echoMetadata(request: grpc.Metadata): { headers: grpc.Metadata; trailers: grpc.Metadata } {
  const headers = new grpc.Metadata();
  const trailers = new grpc.Metadata();
  const echo = request.get(ECHO_HEADER)[0];
  if (echo !== undefined) {
    headers.set(ECHO_HEADER, echo);
    trailers.set(ECHO_TRAILER, echo);
  }
  const bin = request.get(ECHO_BIN_HEADER)[0];
  if (bin !== undefined) headers.set(ECHO_BIN_HEADER, bin);
  return { headers, trailers };
}

/** A behavior error as a grpc-js status: code, message, and the detail in grpc-status-details-bin. */
function statusOf(error: unknown, trailers: grpc.Metadata, serializeResponse: (r: LoaderObject) => Buffer): Partial<grpc.StatusObject> {
  if (!(error instanceof InteropFailure)) return { code: grpc.status.UNKNOWN, details: String(error), metadata: trailers };
  const detail: PlainDetail = { type: DETAIL_TYPE, value: serializeResponse(responseToLoader(error.detail)) };
  trailers.set(STATUS_DETAILS_TRAILER, Buffer.from(encodeRpcStatus({ code: error.code, message: error.message, details: [detail] })));
  return { code: error.code, details: error.message, metadata: trailers };
}

/** The requests of a client-streaming or bidi call. Not `for await (... of call)`: that destroys the duplex when
 * the client's half ends, and the answers written after it would be lost (the call would hang). */
async function* requestsOf(call: { iterator(options: { destroyOnReturn: boolean }): AsyncIterable<LoaderObject> }): AsyncGenerator<PlainRequest> {
  for await (const o of call.iterator({ destroyOnReturn: false })) yield requestOfLoader(o);
}

/** An AbortSignal that fires when the client cancels the call (or its deadline passes). */
function cancellation(call: { on(event: "cancelled", listener: () => void): unknown }, onCancel: () => void): AbortSignal {
  const controller = new AbortController();
  call.on("cancelled", () => {
    onCancel();
    controller.abort(new Error("cancelled by the client"));
  });
  return controller.signal;
}

export async function startGrpcJsServer(options: grpc.ServerOptions = {}): Promise<GrpcJsServerHandle> {
  const definition = loadInteropDefinition();
  const serializeResponse = definition.Unary!.responseSerialize as (r: LoaderObject) => Buffer;
  let cancelled = 0;
  const onCancel = () => void cancelled++;
  const server = new grpc.Server(options);
  server.addService(definition, {
    Unary(call: grpc.ServerUnaryCall<LoaderObject, LoaderObject>, callback: grpc.sendUnaryData<LoaderObject>) {
      const { headers, trailers } = echoMetadata(call.metadata);
      call.sendMetadata(headers);
      behavior.unary(requestOfLoader(call.request), cancellation(call, onCancel)).then(
        (r) => callback(null, responseToLoader(r), trailers),
        (e: unknown) => callback(statusOf(e, trailers, serializeResponse)),
      );
    },
    ServerStream(call: grpc.ServerWritableStream<LoaderObject, LoaderObject>) {
      const { headers, trailers } = echoMetadata(call.metadata);
      call.sendMetadata(headers);
      void (async () => {
        try {
          for await (const r of behavior.serverStream(requestOfLoader(call.request), cancellation(call, onCancel))) call.write(responseToLoader(r));
          call.end(trailers);
        } catch (e) {
          call.emit("error", statusOf(e, trailers, serializeResponse));
        }
      })();
    },
    ClientStream(call: grpc.ServerReadableStream<LoaderObject, LoaderObject>, callback: grpc.sendUnaryData<LoaderObject>) {
      const { headers, trailers } = echoMetadata(call.metadata);
      call.sendMetadata(headers);
      behavior.clientStream(requestsOf(call), cancellation(call, onCancel)).then(
        (r) => callback(null, responseToLoader(r), trailers),
        (e: unknown) => callback(statusOf(e, trailers, serializeResponse)),
      );
    },
    BidiStream(call: grpc.ServerDuplexStream<LoaderObject, LoaderObject>) {
      const { headers, trailers } = echoMetadata(call.metadata);
      call.sendMetadata(headers);
      void (async () => {
        try {
          for await (const r of behavior.bidiStream(requestsOf(call), cancellation(call, onCancel))) call.write(responseToLoader(r));
          call.end(trailers);
        } catch (e) {
          call.emit("error", statusOf(e, trailers, serializeResponse));
        }
      })();
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, p) => (error ? reject(error) : resolve(p))),
  );
  const address = `127.0.0.1:${port}`;
  return {
    address,
    url: `http://${address}`,
    cancelled: () => cancelled,
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())).then(() => server.forceShutdown()),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Client

type AnyClient = grpc.Client & Record<MethodName, (...args: any[]) => any>;

/** A grpc-js client of InteropService at `address` (host:port), as an InteropCaller. */
export function grpcJsCaller(address: string, channelOptions: grpc.ChannelOptions = {}): InteropCaller & { readonly client: grpc.Client } {
  const Ctor = grpc.makeGenericClientConstructor(loadInteropDefinition(), "InteropService");
  const client = new Ctor(address, grpc.credentials.createInsecure(), channelOptions) as unknown as AnyClient;
  return {
    name: "grpc-js",
    client,
    call: (method, requests, options = {}) => callGrpcJs(client, method, requests, options),
    close: () => client.close(),
  };
}

function callGrpcJs(client: AnyClient, method: MethodName, requests: readonly PlainRequest[], options: CallOptions): Promise<CallOutcome> {
  const metadata = metadataOfRecord(options.headers);
  const callOptions: grpc.CallOptions = options.timeoutMs === undefined ? {} : { deadline: Date.now() + options.timeoutMs };
  const first = requestToLoader(requests[0] ?? {});
  const messages: PlainResponse[] = [];
  let headers = new Headers();
  return new Promise<CallOutcome>((resolve) => {
    const onResponse = (error: grpc.ServiceError | null, value?: LoaderObject) => {
      if (!error && value) messages.push(responseOfLoader(value));
    };
    let call: grpc.ClientUnaryCall | grpc.ClientReadableStream<LoaderObject> | grpc.ClientWritableStream<LoaderObject> | grpc.ClientDuplexStream<LoaderObject, LoaderObject>;
    if (method === "Unary") call = client.Unary(first, metadata, callOptions, onResponse);
    else if (method === "ServerStream") call = client.ServerStream(first, metadata, callOptions);
    else if (method === "ClientStream") call = client.ClientStream(metadata, callOptions, onResponse);
    else call = client.BidiStream(metadata, callOptions);
    if (method === "ClientStream" || method === "BidiStream") {
      const writable = call as grpc.ClientWritableStream<LoaderObject>;
      for (const r of requests) writable.write(requestToLoader(r));
      writable.end();
    }
    call.on("metadata", (md: grpc.Metadata) => (headers = headersOfMetadata(md)));
    const events = call as unknown as NodeJS.EventEmitter;
    events.on("data", (value: LoaderObject) => {
      messages.push(responseOfLoader(value));
      if (options.takeMessages !== undefined && messages.length >= options.takeMessages) call.cancel();
    });
    events.on("error", () => undefined); // the status event carries it
    options.signal?.addEventListener("abort", () => call.cancel(), { once: true });
    call.on("status", (status: grpc.StatusObject) => {
      const trailers = headersOfMetadata(status.metadata);
      const bin = status.metadata.get(STATUS_DETAILS_TRAILER)[0];
      const details = bin === undefined ? [] : decodeRpcStatus(new Uint8Array(bin as Buffer)).details;
      // The unary callback runs after the status event; let it record the message first.
      setImmediate(() => resolve({ messages, headers, trailers, code: status.code, message: status.code === 0 ? "" : status.details, details }));
    });
  });
}
