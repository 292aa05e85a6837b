import { callSignal } from "../http/deadline.js";
import type { FetchFunction } from "../http/handler.js";
import { mediaTypeEssence } from "../http/media-type.js";
import { bodyOf, readJsonMessage, writeJsonMessage, type MessageReader, type MessageWriter } from "../http/message-codec.js";
import { readTextPrefix } from "../http/text-prefix.js";
import { connectCodeFromHttpStatus } from "./code.js";
import { ConnectError } from "./error.js";
import { connectErrorFromJson } from "./error-json.js";
import {
  CONNECT_PROTOCOL_VERSION, CONNECT_PROTOCOL_VERSION_HEADER, CONNECT_TIMEOUT_HEADER, formatOfMediaType, mediaTypeOfFormat,
  type ConnectFormat,
} from "./protocol.js";

export interface ConnectClientOptions {
  /** Where the service lives; procedures are appended ("https://api.example.com" + "/pkg.Service/Method"). */
  readonly baseUrl: string;
  readonly fetch?: FetchFunction;
  /** Request and response encoding: protobuf binary (default) or ProtoJSON. */
  readonly format?: ConnectFormat;
  /** Default deadline of every call; sent as Connect-Timeout-Ms and enforced locally. */
  readonly timeoutMs?: number;
  /** Headers sent with every call. */
  readonly headers?: HeadersInit;
}

export interface ConnectCallOptions {
  readonly signal?: AbortSignal;
  /** Deadline of this call (overrides the client's). */
  readonly timeoutMs?: number;
  /** Extra headers of this call (added to the client's). */
  readonly headers?: HeadersInit;
}

/** The client side of one unary procedure, given the generated codecs of its input and output messages. */
export interface UnaryProcedure<I, O> {
  /** "/package.Service/Method" */
  readonly path: string;
  readonly input: MessageWriter<I>;
  readonly output: MessageReader<O>;
}

function requestHeaders(options: ConnectClientOptions, call: ConnectCallOptions, format: ConnectFormat, timeoutMs: number | undefined): Headers {
  const headers = new Headers(options.headers);
  new Headers(call.headers).forEach((value, name) => headers.set(name, value));
  headers.set("content-type", mediaTypeOfFormat(format));
  headers.set(CONNECT_PROTOCOL_VERSION_HEADER, CONNECT_PROTOCOL_VERSION);
  if (timeoutMs !== undefined) headers.set(CONNECT_TIMEOUT_HEADER, String(Math.max(0, Math.ceil(timeoutMs))));
  return headers;
}

/** Connect error bodies are small JSON objects; more than this is not one, and is not buffered. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** A failed call's response as a ConnectError: the Connect error body when there is one, else from the status. */
async function errorFromResponse(response: Response): Promise<ConnectError> {
  const text = await readTextPrefix(response, MAX_ERROR_BODY_BYTES);
  const fromBody = mediaTypeEssence(response.headers.get("content-type")) === "application/json"
    ? connectErrorFromJson(text, response.headers)
    : undefined;
  return fromBody ?? new ConnectError(
    connectCodeFromHttpStatus(response.status),
    `HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ""}`,
    { metadata: response.headers },
  );
}

function decodeOutput<O>(reader: MessageReader<O>, format: ConnectFormat, bytes: Uint8Array): O {
  try {
    return format === "json" ? readJsonMessage(reader, bytes) : reader.decode(bytes);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConnectError("internal", `cannot decode response: ${reason}`, { cause: error });
  }
}

/**
 * Call a unary procedure with the Connect protocol: POST the encoded input, decode the output. Every failure is a
 * ConnectError: the server's error, `deadline_exceeded` on timeout, `canceled` when the caller's signal aborts,
 * `unavailable` when the server cannot be reached, `internal` when the answer cannot be decoded.
 */
export async function callUnary<I, O>(
  options: ConnectClientOptions,
  procedure: UnaryProcedure<I, O>,
  input: I,
  call: ConnectCallOptions = {},
): Promise<O> {
  const format = options.format ?? "proto";
  const timeoutMs = call.timeoutMs ?? options.timeoutMs;
  const body = format === "json" ? writeJsonMessage(procedure.input, input) : procedure.input.encode(input);
  const url = options.baseUrl.replace(/\/+$/, "") + procedure.path;
  const deadline = callSignal(call.signal, timeoutMs);
  const doFetch = options.fetch ?? globalThis.fetch;
  let response: Response;
  let bytes: Uint8Array;
  try {
    response = await doFetch(url, {
      method: "POST",
      headers: requestHeaders(options, call, format, timeoutMs),
      body: bodyOf(body),
      ...(deadline.signal ? { signal: deadline.signal } : {}),
    });
    if (response.status !== 200) throw await errorFromResponse(response);
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    if (deadline.timedOut()) throw new ConnectError("deadline_exceeded", `no answer within ${timeoutMs} ms`, { cause: error });
    if (call.signal?.aborted) throw new ConnectError("canceled", "the call was aborted", { cause: error });
    if (error instanceof ConnectError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConnectError("unavailable", `cannot reach ${url}: ${reason}`, { cause: error });
  }
  const answered = formatOfMediaType(mediaTypeEssence(response.headers.get("content-type")));
  if (answered !== format) {
    throw new ConnectError("internal", `unexpected response content type ${JSON.stringify(response.headers.get("content-type"))}`, {
      metadata: response.headers,
    });
  }
  return decodeOutput(procedure.output, format, bytes);
}
