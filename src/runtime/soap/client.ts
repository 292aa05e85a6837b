/**
 * The SOAP client runtime. A generated client describes each operation (how to encode its input and headers, how to
 * decode its output, response headers and fault details) and calls `connection.call(op, input, options)`; everything
 * about HTTP, envelopes, SOAPAction, timeouts and faults lives here, once.
 */
import { callSignal } from "../http/deadline.js";
import type { FetchFunction } from "../http/handler.js";
import { interceptedFetch, type FetchNext, type HttpAuth, type Interceptor } from "../http/interceptor.js";
import { HttpStatusError, HttpTimeoutError } from "../http/status-error.js";
import { XmlParseError } from "../xml/errors.js";
import { clarkName, type XmlElementNode } from "../xml/node.js";
import { buildSoapEnvelope, soapContentType, type SoapFault, type SoapVersion } from "./envelope.js";
import { SoapMessage } from "./envelope-reader.js";
import { SoapFaultError, SoapResponseError } from "./fault-error.js";
import type { SoapEnvelopeSecurity } from "./wss/client.js";
import { encodeForMtom, isMultipartRelated, mtomBody, readMtom, type MtomAttachments, type SoapMtomOptions } from "./mtom.js";

export interface SoapClientOptions {
  /** The service address (the WSDL's soap:address, or the serverUrl a login returned). */
  readonly endpoint: string;
  /** Injectable fetch (tests, proxies, instrumentation); default the global fetch. */
  readonly fetch?: FetchFunction;
  /** Default: the binding's version. */
  readonly soapVersion?: SoapVersion;
  /** Per-call timeout in milliseconds unless a call gives its own; a timeout throws HttpTimeoutError. */
  readonly timeoutMs?: number;
  /** Aborts every call of this client (for shutting a client down). */
  readonly signal?: AbortSignal;
  /** HTTP headers sent with every call (the call's `httpHeaders` add to them). */
  readonly httpHeaders?: { readonly [name: string]: string };
  /** Adds credentials to each HTTP request: `basicAuth(user, password)`, `bearerAuth(token)`, or your own. */
  readonly auth?: HttpAuth;
  /** Functions that see (and may change) every HTTP request and response, first one outermost. */
  readonly interceptors?: readonly Interceptor[];
  /** Envelope-level security, e.g. `wsSecurity({ usernameToken: ... })` (WS-Security headers and signatures). */
  readonly security?: SoapEnvelopeSecurity;
  /**
   * Send requests as MTOM/XOP (multipart/related): base64Binary values of at least `thresholdBytes` (default 1024)
   * go as binary parts. MTOM responses are read whether or not this is set.
   */
  readonly mtom?: boolean | SoapMtomOptions;
}

export interface SoapCallOptions<H> {
  /** SOAP headers, by header element name, as the binding declares them for this operation. */
  readonly headers?: H;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  /** HTTP headers of this call (added to the client's). */
  readonly httpHeaders?: { readonly [name: string]: string };
}

/** What a call resolves to: the body element's value and the SOAP headers of the response. */
export interface SoapResponse<O, H> {
  readonly body: O;
  readonly headers: H;
}

type Decode = (node: XmlElementNode) => unknown;

/** What a generated client knows about one operation. Clark names are "{namespace}localName". */
export interface SoapClientOperation<I, O, H> {
  readonly name: string;
  /** soapAction from the binding ("" when none). */
  readonly action: string;
  readonly encodeInput: (value: I) => string;
  /** Clark name of the output element, checked before decoding; absent: any element (an rpc response wrapper). */
  readonly outputElement?: string;
  /** The body element's value (document style), decoded as the envelope is read. */
  readonly decodeOutput?: (node: XmlElementNode) => O;
  /**
   * rpc style: the wrapper's value, decoded once the whole envelope was read; `others` are the body's other elements
   * (SOAP encoding's multi-refs). With neither decoder the operation is one-way: the call resolves once the request
   * is accepted (202, or any answer that is not a fault or an HTTP error).
   */
  readonly decodeRpcOutput?: (node: XmlElementNode, others: readonly XmlElementNode[]) => O;
  /** Never set: carries the response headers' type so that `call` can return it. */
  readonly responseHeaders?: H;
}

/** What a generated client knows about its binding: shared by every operation. */
export interface SoapClientBinding {
  readonly version: SoapVersion;
  /** Request header encoders by header element local name (the key of `options.headers`). */
  readonly requestHeaders: { readonly [name: string]: (value: never) => string };
  /** Response header decoders by Clark name; `name` is the key in the response's `headers`. */
  readonly responseHeaders: { readonly [clark: string]: { readonly name: string; readonly decode: Decode } };
  /** Fault detail decoders by the detail element's Clark name; `name` is the wsdl:fault name. */
  readonly faults: { readonly [clark: string]: { readonly name: string; readonly decode: Decode } };
}

/** The per-client state a generated client wraps: where calls go and how. */
export interface SoapConnection {
  readonly endpoint: string;
  /** Send later calls elsewhere, e.g. to the serverUrl a login returned. */
  setEndpoint(url: string): void;
  call<I, O, H>(op: SoapClientOperation<I, O, H>, input: I, options?: SoapCallOptions<object>): Promise<SoapResponse<O, H>>;
}

/** The connection a generated `create<Service>Client` wraps. */
export function createSoapConnection(options: SoapClientOptions, binding: SoapClientBinding): SoapConnection {
  let endpoint = checkedUrl(options.endpoint);
  const version = options.soapVersion ?? binding.version;
  const doFetch: FetchFunction = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const hooked: FetchNext | undefined =
    options.auth !== undefined || (options.interceptors?.length ?? 0) > 0 ? interceptedFetch(doFetch, options.interceptors, options.auth) : undefined;
  return {
    get endpoint() {
      return endpoint;
    },
    setEndpoint(url) {
      endpoint = checkedUrl(url);
    },
    async call<I, O, H>(op: SoapClientOperation<I, O, H>, input: I, callOptions: SoapCallOptions<object> = {}) {
      const headers = encodeHeaders(binding, op.name, callOptions.headers);
      let attachments: MtomAttachments | undefined;
      let encoded: string;
      if (options.mtom === undefined || options.mtom === false) encoded = op.encodeInput(input);
      else ({ value: encoded, attachments } = encodeForMtom(() => op.encodeInput(input), options.mtom === true ? {} : options.mtom));
      const parts = { version, headers, body: encoded };
      const envelope = options.security === undefined ? buildSoapEnvelope(parts) : await options.security.secureEnvelope(parts);
      const signals = [options.signal, callOptions.signal].filter((s): s is AbortSignal => s !== undefined);
      const timeoutMs = callOptions.timeoutMs ?? options.timeoutMs;
      const deadline = callSignal(signals.length > 1 ? AbortSignal.any(signals) : signals[0], timeoutMs);
      const url = endpoint;
      const httpHeaders: Record<string, string> = { "content-type": soapContentType(version, version === "1.2" ? op.action : undefined) };
      // SOAP 1.1 always sends SOAPAction (quoted, possibly empty); 1.2 carries it in the content type instead.
      if (version === "1.1") httpHeaders["soapaction"] = JSON.stringify(op.action);
      if (options.httpHeaders !== undefined || callOptions.httpHeaders !== undefined) addHttpHeaders(httpHeaders, options.httpHeaders, callOptions.httpHeaders);
      let body: string | Blob = envelope;
      if (attachments !== undefined && attachments.taken.length > 0) {
        const mtom = mtomBody(envelope, attachments, httpHeaders["content-type"]!);
        httpHeaders["content-type"] = mtom.contentType;
        body = mtom.body;
      }
      let text: string;
      let response: Response;
      let release: (() => void) | undefined;
      try {
        const init: RequestInit = { method: "POST", headers: httpHeaders, body, ...(deadline.signal ? { signal: deadline.signal } : {}) };
        response = await (hooked === undefined ? doFetch(url, init) : hooked(new Request(url, init)));
        const contentType = response.headers.get("content-type") ?? "";
        if (isMultipartRelated(contentType)) {
          // An MTOM answer: the envelope with its binary parts registered for the decoders (views, not copies).
          const mtom = readMtom(new Uint8Array(await response.arrayBuffer()), contentType);
          release = mtom.release;
          text = mtom.text;
        } else text = await response.text();
      } catch (error) {
        if (deadline.timedOut()) throw new HttpTimeoutError(url, timeoutMs!);
        throw error;
      }
      try {
        return readResponse<O, H>(binding, op, url, response, text);
      } finally {
        release?.();
      }
    },
  };
}

/** The client's and the call's HTTP headers, under the protocol's own (content type and SOAPAction win). */
function addHttpHeaders(out: Record<string, string>, ...sets: ({ readonly [name: string]: string } | undefined)[]): void {
  for (const set of sets) {
    if (set === undefined) continue;
    for (const [name, value] of Object.entries(set)) {
      const key = name.toLowerCase();
      if (key !== "content-type" && key !== "soapaction") out[key] = value;
    }
  }
}

function checkedUrl(url: string): string {
  // Fail at configuration time, not on the first call, when an endpoint is not an absolute URL.
  return new URL(url).toString();
}

function encodeHeaders(binding: SoapClientBinding, operation: string, given: object | undefined): string[] {
  if (!given) return [];
  const out: string[] = [];
  for (const [name, value] of Object.entries(given)) {
    if (value === undefined) continue;
    const encode = binding.requestHeaders[name] as ((value: unknown) => string) | undefined;
    if (!encode) throw new TypeError(`${operation}: the binding declares no request header ${name}`);
    out.push(encode(value));
  }
  return out;
}

function readResponse<O, H>(
  binding: SoapClientBinding,
  op: SoapClientOperation<never, O, H>,
  url: string,
  response: Response,
  text: string,
): SoapResponse<O, H> {
  return readSoapResponse(binding, op, text, { url, status: response.status, statusText: response.statusText, ok: response.ok });
}

/** The HTTP side of a response, as readSoapResponse needs it. */
export interface SoapHttpStatus {
  readonly url: string;
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
}

/**
 * A response's text as the operation's result (or its fault, thrown): the envelope is read in one pass and the body
 * element is decoded from the text as the reader meets it. Errors are the ones a read of the whole envelope before
 * decoding would give, in the same order: not SOAP, fault, HTTP status, empty or unexpected body, headers, body.
 */
export function readSoapResponse<O, H>(binding: SoapClientBinding, op: SoapClientOperation<never, O, H>, text: string, http: SoapHttpStatus): SoapResponse<O, H> {
  const { decodeOutput, decodeRpcOutput } = op;
  const oneWay = decodeOutput === undefined && decodeRpcOutput === undefined;
  // A one-way operation's answer is usually 202 with no body at all.
  if (oneWay && http.ok && text.trim() === "") return { body: undefined as O, headers: {} as H };
  const notSoap = (error: unknown): Error => {
    // Not SOAP at all (an HTML error page, a proxy's message): report the HTTP status when it was an error.
    if (!http.ok) return new HttpStatusError(http.url, http.status, http.statusText, text.slice(0, 4096));
    return new SoapResponseError(`${op.name}: the response is not a SOAP envelope: ${(error as Error).message}`, http.status, { cause: error });
  };
  let message: SoapMessage;
  try {
    message = SoapMessage.read(text);
  } catch (error) {
    throw notSoap(error);
  }
  const node = message.body;
  const clark = node === undefined ? "" : clarkName(node.ns, node.local);
  let body: O | undefined;
  let decoded = false;
  let bodyError: unknown;
  // Decoded in the same pass unless something else will be reported anyway (a fault, an HTTP error, another element).
  if (decodeOutput !== undefined && http.ok && node !== undefined && clark === op.outputElement && !message.startsWithFault) {
    try {
      body = decodeOutput(node);
      decoded = true;
    } catch (error) {
      if (error instanceof XmlParseError) throw notSoap(error);
      bodyError = error;
    }
  }
  try {
    message.finish();
  } catch (error) {
    throw notSoap(error);
  }
  if (message.fault) throw faultError(binding, message.fault, http.status);
  if (!http.ok) throw new HttpStatusError(http.url, http.status, http.statusText, text.slice(0, 4096));
  if (oneWay) return { body: undefined as O, headers: {} as H };
  if (!node) throw new SoapResponseError(`${op.name}: the response body is empty`, http.status);
  if (op.outputElement !== undefined && clark !== op.outputElement) {
    throw new SoapResponseError(`${op.name}: expected ${op.outputElement} in the response body, got ${clark}`, http.status);
  }
  const headers: Record<string, unknown> = {};
  for (const h of message.headers) {
    const decoder = binding.responseHeaders[clarkName(h.ns, h.local)];
    if (decoder) headers[decoder.name] = decoder.decode(h);
  }
  if (decodeRpcOutput !== undefined) return { body: decodeRpcOutput(node, message.rest), headers: headers as H };
  if (!decoded) throw bodyError;
  return { body: body as O, headers: headers as H };
}

type ParsedFault = SoapFault;

/**
 * A fault as a SoapFaultError, its detail decoded when a detail element is one the binding declares (the first such:
 * stacks may put their own elements beside it).
 */
function faultError(binding: SoapClientBinding, fault: ParsedFault, status: number): SoapFaultError {
  let decoded: { fault: string; detail: unknown } | undefined;
  for (const node of fault.details ?? []) {
    const decoder = binding.faults[clarkName(node.ns, node.local)];
    if (decoder === undefined) continue;
    try {
      decoded = { fault: decoder.name, detail: decoder.decode(node) };
    } catch {
      // A detail we cannot read still leaves a readable fault code and message.
    }
    break;
  }
  return new SoapFaultError({
    code: fault.code,
    message: fault.string,
    ...(fault.actor !== undefined ? { actor: fault.actor } : {}),
    ...(decoded !== undefined && decoded.detail !== undefined ? decoded : {}),
    status,
  });
}
