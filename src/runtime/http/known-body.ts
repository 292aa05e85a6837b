/**
 * Responses whose body the runtime already has as text or bytes (every JSON response of a generated server). A real
 * undici Response costs more to build (a body stream, a Headers copy) than routing and answering a small request,
 * and a server adapter would then read that stream back. So `responseWithKnownBody` returns a Response-compatible
 * object that keeps the parts as given, builds the real Response only when someone asks for more than status and
 * headers, and lets the node adapter write the parts directly (`knownBody`). Web APIs only.
 */

import { answerTheRestFromReal } from "./stand-in.js";

/** A registered symbol: two copies of the runtime (say dist/ for generated code, src/ for the adapter) agree on it. */
const KNOWN_BODY = Symbol.for("specforge.knownBody");

export interface KnownBody {
  readonly body: string | Uint8Array;
  readonly status: number;
  readonly statusText: string;
  /** The headers as given, while nobody has asked for the Headers object (which could then have been changed). */
  readonly headerRecord: Readonly<Record<string, string>> | undefined;
  headers: Headers | undefined;
  real: Response | undefined;
  /** Read through text()/json()/arrayBuffer()/bytes() without a real Response. */
  used: boolean;
}

const encoder = /* @__PURE__ */ new TextEncoder();

class KnownBodyResponse {
  // Declared, not a class field: a computed field key would make bundlers keep the class as a module side effect.
  declare readonly [KNOWN_BODY]: KnownBody;

  constructor(parts: KnownBody) {
    this[KNOWN_BODY] = parts;
  }

  get status(): number {
    return this[KNOWN_BODY].status;
  }
  get ok(): boolean {
    const s = this[KNOWN_BODY].status;
    return s >= 200 && s <= 299;
  }
  get statusText(): string {
    return this[KNOWN_BODY].statusText;
  }
  get headers(): Headers {
    const parts = this[KNOWN_BODY];
    return (parts.headers ??= new Headers(parts.headerRecord));
  }
  get type(): ResponseType {
    return "default";
  }
  get url(): string {
    return "";
  }
  get redirected(): boolean {
    return false;
  }
  get bodyUsed(): boolean {
    const parts = this[KNOWN_BODY];
    return parts.used || (parts.real?.bodyUsed ?? false);
  }
  // The common ways to read a body, answered from the parts (a caller reading the whole body is the usual case).
  text(): Promise<string> {
    return this.#take("text", (b) => (typeof b === "string" ? b : new TextDecoder().decode(b)));
  }
  json(): Promise<unknown> {
    return this.#take("json", (b) => JSON.parse(typeof b === "string" ? b : new TextDecoder().decode(b)) as unknown);
  }
  bytes(): Promise<Uint8Array> {
    return this.#take("bytes", (b) => (typeof b === "string" ? encoder.encode(b) : b.slice()));
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return this.#take("arrayBuffer", (b) => (typeof b === "string" ? encoder.encode(b) : b.slice()).buffer as ArrayBuffer);
  }
  #take<T>(method: "text" | "json" | "bytes" | "arrayBuffer", read: (body: string | Uint8Array) => T): Promise<T> {
    const parts = this[KNOWN_BODY];
    if (parts.real !== undefined) return (parts.real[method] as () => Promise<T>).call(parts.real);
    if (parts.used) return Promise.reject(new TypeError("Body is unusable: Body has already been read"));
    parts.used = true;
    try {
      return Promise.resolve(read(parts.body));
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }
  /** The real Response, built on first use (body, clone(), blob(), ...). */
  get real(): Response {
    const parts = this[KNOWN_BODY];
    if (parts.real === undefined) {
      const real = new Response(parts.used ? null : (parts.body as BodyInit), { status: parts.status, statusText: parts.statusText, headers: this.headers });
      parts.real = real;
    }
    return parts.real;
  }
}

/**
 * Everything else a Response has is answered by the real one: patched in on the first response made, not when the
 * module loads, so that importing the runtime has no side effects (package.json says `"sideEffects": false`).
 */
let completed = false;

/** A Response with `body` (a string or bytes) as its body, remembering the parts for `knownBody`. */
export function responseWithKnownBody(
  body: string | Uint8Array,
  init: { status?: number; statusText?: string; headers?: Readonly<Record<string, string>> } = {},
): Response {
  const parts: KnownBody = { body, status: init.status ?? 200, statusText: init.statusText ?? "", headerRecord: init.headers, headers: undefined, real: undefined, used: false };
  if (!completed) {
    answerTheRestFromReal(KnownBodyResponse.prototype, Response.prototype);
    completed = true;
  }
  return new KnownBodyResponse(parts) as unknown as Response;
}

/** Whether a response with this status may carry a body (and so a Content-Length): not 1xx, 204 or 304. */
export function statusAllowsBody(status: number): boolean {
  return status >= 200 && status !== 204 && status !== 304;
}

/** The parts of a response made by `responseWithKnownBody` whose body was not read yet; else undefined. */
export function knownBody(response: Response): KnownBody | undefined {
  const parts = (response as unknown as { [KNOWN_BODY]?: KnownBody })[KNOWN_BODY];
  return parts === undefined || parts.used || parts.real?.bodyUsed ? undefined : parts;
}
