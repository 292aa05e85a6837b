/**
 * The one vocabulary every interop peer speaks in the tests: plain requests in, `CallOutcome`s out, whatever the
 * client library (grpc-js, connect-node, specforge) and whatever message shape its generator produced. Each peer
 * adapter converts to and from its own shapes, so one table of scenarios runs against every client/server pair and
 * asserts on the same values.
 */
import path from "node:path";

/** test/rpc/fixtures/interop.proto: the service every peer serves and calls. */
export const FIXTURES_DIR = path.resolve(import.meta.dirname, "../fixtures");
export const INTEROP_PROTO = path.join(FIXTURES_DIR, "interop.proto");
export const SERVICE = "specforge.interop.v1.InteropService";

export type MethodName = "Unary" | "ServerStream" | "ClientStream" | "BidiStream";
export const METHODS: readonly MethodName[] = ["Unary", "ServerStream", "ClientStream", "BidiStream"];

/** The enum of interop.proto, by number. */
export const MOODS = ["MOOD_UNSPECIFIED", "MOOD_CALM", "MOOD_LOUD"] as const;
export type MoodName = (typeof MOODS)[number];

export interface PlainPayload {
  readonly text: string;
  readonly number: bigint;
  readonly data: Uint8Array;
  readonly tags: readonly string[];
  readonly mood: MoodName;
}

/** EchoRequest; absent fields are proto3 defaults. */
export interface PlainRequest {
  readonly payload?: PlainPayload;
  readonly repeat?: number;
  readonly failCode?: number;
  readonly failMessage?: string;
  readonly delayMs?: number;
}

export interface PlainResponse {
  readonly payload?: PlainPayload;
  readonly index: number;
}

/**
 * Metadata the test servers echo: the value of request header ECHO_HEADER comes back as response header
 * ECHO_HEADER and as trailer ECHO_TRAILER; ECHO_BIN_HEADER (gRPC binary metadata, base64 on the wire) comes back
 * as response header ECHO_BIN_HEADER. Every server of the harness does this, so metadata in and out is checked in
 * both directions.
 */
export const ECHO_HEADER = "x-interop-echo";
export const ECHO_TRAILER = "x-interop-echo-trailer";
export const ECHO_BIN_HEADER = "x-interop-echo-bin";

/** The type of the detail a failing test server attaches to its status: an EchoResponse carrying the request's
 * payload (so the detail's bytes are checked too, not only its presence). */
export const DETAIL_TYPE = "specforge.interop.v1.EchoResponse";

/** gRPC status codes by number (0 = OK), named as the Connect protocol names them. */
export const GRPC_CODE_NAMES = [
  "ok", "canceled", "unknown", "invalid_argument", "deadline_exceeded", "not_found", "already_exists",
  "permission_denied", "resource_exhausted", "failed_precondition", "aborted", "out_of_range", "unimplemented",
  "internal", "unavailable", "data_loss", "unauthenticated",
] as const;
export type CodeName = (typeof GRPC_CODE_NAMES)[number];

export function codeNumber(name: string): number {
  const n = (GRPC_CODE_NAMES as readonly string[]).indexOf(name);
  if (n < 0) throw new Error(`not a status code name: ${name}`);
  return n;
}

export interface PlainDetail {
  readonly type: string;
  readonly value: Uint8Array;
}

/** What one call ended with, as seen by the client. */
export interface CallOutcome {
  readonly messages: readonly PlainResponse[];
  /** Response headers (lower-case names); empty when the client library does not expose them. */
  readonly headers: Headers;
  /** Response trailers (for a unary Connect call: the `trailer-` headers); empty when not exposed. */
  readonly trailers: Headers;
  /** Status: code 0 on success. */
  readonly code: number;
  readonly message: string;
  readonly details: readonly PlainDetail[];
}

export interface CallOptions {
  /** Request metadata (ASCII headers; names ending in -bin carry base64 of binary values). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Stop reading after this many response messages (the client cancels the call). */
  readonly takeMessages?: number;
}

/** A client of InteropService over one library and protocol, reduced to plain requests and outcomes. */
export interface InteropCaller {
  readonly name: string;
  /** Client/bidi streaming methods get all `requests`; unary and server streaming get the first. */
  call(method: MethodName, requests: readonly PlainRequest[], options?: CallOptions): Promise<CallOutcome>;
  close(): Promise<void> | void;
}

export function payload(text: string, extra: Partial<PlainPayload> = {}): PlainPayload {
  return { text, number: -9_007_199_254_740_993n, data: new Uint8Array([0, 1, 254, 255]), tags: ["a", "b"], mood: "MOOD_LOUD", ...extra };
}

/** One line per value, for toEqual comparisons across libraries (bigints and bytes printed). */
export function describeResponse(r: PlainResponse): string {
  const p = r.payload;
  return p === undefined ? `#${r.index} -` : `#${r.index} ${p.text} ${p.number} ${Buffer.from(p.data).toString("hex")} [${p.tags.join(",")}] ${p.mood}`;
}

export function moodName(value: unknown): MoodName {
  if (typeof value === "number") {
    const name = MOODS[value];
    if (name === undefined) throw new Error(`unknown Mood ${value}`);
    return name;
  }
  if (typeof value === "string" && (MOODS as readonly string[]).includes(value)) return value as MoodName;
  if (value === undefined || value === null) return "MOOD_UNSPECIFIED";
  throw new Error(`unknown Mood ${String(value)}`);
}

/** Ignore a promise's rejection (for calls a test aborts on purpose). */
export function settle(p: Promise<unknown>): Promise<void> {
  return p.then(() => undefined, () => undefined);
}

/** Wait `ms`, or reject with the signal's reason once it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
