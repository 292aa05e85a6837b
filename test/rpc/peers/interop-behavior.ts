/**
 * What InteropService does, written once over plain values (interop-shape.ts) so the grpc-js, connect-node and
 * specforge servers of the tests behave alike; each server adapter only converts messages, metadata and errors.
 * The semantics are the ones interop.proto's field comments give:
 * - Unary: waits delay_ms, fails with fail_code / fail_message if set, else echoes the payload (index 0).
 * - ServerStream: `repeat` answers (index 0..repeat-1), delay_ms before each; then fails if fail_code is set (so an
 *   error can follow messages).
 * - ClientStream: reads every request (a request with fail_code fails the call when it arrives); answers the last
 *   payload with index = the number of requests, after the last request's delay_ms.
 * - BidiStream: one answer per request as it arrives (index = its position), delay_ms before it; a request with
 *   fail_code fails the call at that point.
 * A failure's detail is an EchoResponse carrying the failing request's payload (DETAIL_TYPE).
 */
import { sleep, type PlainRequest, type PlainResponse } from "./interop-shape.js";

export class InteropFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** The detail to attach (encoded as an EchoResponse by the server adapter). */
    readonly detail: PlainResponse,
  ) {
    super(message);
  }
}

function failIfAsked(request: PlainRequest): void {
  if (request.failCode) {
    throw new InteropFailure(request.failCode, request.failMessage ?? "", { ...(request.payload ? { payload: request.payload } : {}), index: 0 });
  }
}

function answer(request: PlainRequest, index: number): PlainResponse {
  return { ...(request.payload ? { payload: request.payload } : {}), index };
}

export async function unary(request: PlainRequest, signal: AbortSignal): Promise<PlainResponse> {
  if (request.delayMs) await sleep(request.delayMs, signal);
  failIfAsked(request);
  return answer(request, 0);
}

export async function* serverStream(request: PlainRequest, signal: AbortSignal): AsyncGenerator<PlainResponse> {
  for (let i = 0; i < (request.repeat ?? 0); i++) {
    if (request.delayMs) await sleep(request.delayMs, signal);
    yield answer(request, i);
  }
  failIfAsked(request);
}

export async function clientStream(requests: AsyncIterable<PlainRequest>, signal: AbortSignal): Promise<PlainResponse> {
  let count = 0;
  let last: PlainRequest = {};
  for await (const request of requests) {
    failIfAsked(request);
    count++;
    last = request;
  }
  if (last.delayMs) await sleep(last.delayMs, signal);
  return { ...(last.payload ? { payload: last.payload } : {}), index: count };
}

export async function* bidiStream(requests: AsyncIterable<PlainRequest>, signal: AbortSignal): AsyncGenerator<PlainResponse> {
  let index = 0;
  for await (const request of requests) {
    if (request.delayMs) await sleep(request.delayMs, signal);
    failIfAsked(request);
    yield answer(request, index++);
  }
}
