/**
 * The interop service generated at test time (from test/rpc/fixtures/interop.proto, like the emitter tests do) and
 * an implementation of it that records what the handlers saw: cancellation, open handlers, metadata.
 */
import path from "node:path";
import { RpcError } from "../../src/runtime/connect/error.js";
import { rpcCodeFromGrpc } from "../../src/runtime/rpc/code.js";
import type { RpcHandlerContext, RpcHandlerOptions } from "../../src/runtime/rpc/server.js";
import type { RpcClientOptions, RpcCallOptions } from "../../src/runtime/rpc/client.js";
import type { HttpHandler } from "../../src/runtime/http/handler.js";
import { generateToTemp, type TempOutput } from "../emitters/proto-http/generate-temp.js";

export const INTEROP_PROTO = path.join(import.meta.dirname, "fixtures/interop.proto");

export interface Payload {
  text: string;
  number: bigint;
  data: Uint8Array;
  tags: string[];
  mood: string | number;
}
export interface EchoRequest {
  payload?: Partial<Payload>;
  repeat?: number;
  failCode?: number;
  failMessage?: string;
  delayMs?: number;
}
export interface EchoResponse {
  payload?: Payload;
  index: number;
}

export interface InteropClient {
  unary(request: EchoRequest, options?: RpcCallOptions): Promise<EchoResponse>;
  serverStream(request: EchoRequest, options?: RpcCallOptions): AsyncIterable<EchoResponse>;
  clientStream(requests: AsyncIterable<EchoRequest> | Iterable<EchoRequest>, options?: RpcCallOptions): Promise<EchoResponse>;
  bidiStream(requests: AsyncIterable<EchoRequest> | Iterable<EchoRequest>, options?: RpcCallOptions): AsyncIterable<EchoResponse>;
}

interface Implementation {
  unary(request: EchoRequest, context: RpcHandlerContext): Promise<EchoResponse>;
  serverStream(request: EchoRequest, context: RpcHandlerContext): AsyncIterable<EchoResponse>;
  clientStream(requests: AsyncIterable<EchoRequest>, context: RpcHandlerContext): Promise<EchoResponse>;
  bidiStream(requests: AsyncIterable<EchoRequest>, context: RpcHandlerContext): AsyncIterable<EchoResponse>;
}

export interface InteropModule {
  createInteropServiceClient(options: RpcClientOptions): InteropClient;
  createInteropServiceHandler(impl: Implementation, options?: RpcHandlerOptions): HttpHandler;
}

export async function loadInterop(): Promise<{ module: InteropModule; output: TempOutput }> {
  const output = generateToTemp(INTEROP_PROTO);
  const module = (await import(`${output.dir}/connect.ts`)) as InteropModule;
  return { module, output };
}

/** What the handlers saw, for leak and cancellation assertions. */
export interface Observed {
  running: number;
  aborted: number;
  lastHeaders?: Headers;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function failIfAsked(request: EchoRequest): void {
  if (request.failCode) {
    throw new RpcError(rpcCodeFromGrpc(request.failCode), request.failMessage ?? "", {
      details: [{ type: "google.rpc.ErrorInfo", value: new Uint8Array([10, 3, 119, 104, 121]) }],
      metadata: { "x-fail": "yes" },
    });
  }
}

/** The reference behaviour of interop.proto's comments, plus bookkeeping. */
export function implementation(observed: Observed): Implementation {
  const track = async <T>(context: RpcHandlerContext, work: () => Promise<T>): Promise<T> => {
    observed.running++;
    const onAbort = () => observed.aborted++;
    context.signal.addEventListener("abort", onAbort, { once: true });
    try {
      return await work();
    } finally {
      context.signal.removeEventListener("abort", onAbort);
      observed.running--;
    }
  };
  return {
    unary: (request, context) =>
      track(context, async () => {
        observed.lastHeaders = context.requestHeaders;
        context.responseHeaders.set("x-echo", context.requestHeaders.get("x-ping") ?? "none");
        context.responseTrailers.set("x-trailer", "done");
        if (request.delayMs) await sleep(request.delayMs, context.signal);
        failIfAsked(request);
        return { payload: request.payload as Payload, index: 0 };
      }),
    async *serverStream(request, context) {
      observed.running++;
      const onAbort = () => observed.aborted++;
      context.signal.addEventListener("abort", onAbort, { once: true });
      try {
        context.responseHeaders.set("x-echo", context.requestHeaders.get("x-ping") ?? "none");
        context.responseTrailers.set("x-trailer", "done");
        for (let i = 0; i < (request.repeat ?? 0); i++) {
          if (request.delayMs) await sleep(request.delayMs, context.signal);
          yield { payload: request.payload as Payload, index: i };
        }
        failIfAsked(request);
      } finally {
        context.signal.removeEventListener("abort", onAbort);
        observed.running--;
      }
    },
    clientStream: (requests, context) =>
      track(context, async () => {
        let count = 0;
        let last: EchoRequest | undefined;
        for await (const request of requests) {
          count++;
          last = request;
          failIfAsked(request);
        }
        return { payload: last?.payload as Payload, index: count };
      }),
    async *bidiStream(requests, context) {
      observed.running++;
      const onAbort = () => observed.aborted++;
      context.signal.addEventListener("abort", onAbort, { once: true });
      try {
        let i = 0;
        for await (const request of requests) {
          if (request.delayMs) await sleep(request.delayMs, context.signal);
          failIfAsked(request);
          yield { payload: request.payload as Payload, index: i++ };
        }
      } finally {
        context.signal.removeEventListener("abort", onAbort);
        observed.running--;
      }
    },
  };
}

/** A complete Payload (the generated types want every field). */
export function payloadOf(text: string): Payload {
  return { text, number: 0n, data: new Uint8Array(0), tags: [], mood: "MOOD_UNSPECIFIED" };
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

export async function rejection(p: Promise<unknown>): Promise<RpcError> {
  const error = await p.then(() => undefined, (e: unknown) => e);
  if (!(error instanceof RpcError)) throw new Error(`expected an RpcError, got ${String(error)}`);
  return error;
}

/** Wait (bounded) until `check` holds: for counters that settle after a stream closes. */
export async function eventually(check: () => boolean, tries = 100): Promise<boolean> {
  for (let i = 0; i < tries && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  return check();
}
