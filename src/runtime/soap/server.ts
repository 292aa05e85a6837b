/**
 * The SOAP server runtime: a web-standard `(Request) => Promise<Response>` handler built from what a generated server
 * knows about each operation. It owns everything that is not the service's business: ?wsdl, methods and content
 * types, the body size limit, envelope parsing, dispatch by body element (and SOAPAction), header decoding,
 * validation, and turning every failure into a SOAP fault (never a stack trace).
 */
import { BodyTooLargeError, DEFAULT_MAX_BODY_BYTES, readBodyWithLimit } from "../http/body-limit.js";
import type { HttpHandler } from "../http/handler.js";
import { mediaTypeEssence } from "../http/media-type.js";
import type { ValidationIssue } from "../validation.js";
import type { XmlDecodeOptions, XmlEncodeOptions } from "../xml/codec-options.js";
import { attrValue, clarkName, type XmlElementNode } from "../xml/node.js";
import { XmlParseError } from "../xml/errors.js";
import { buildSoapEnvelope, buildSoapFault, soapContentType, SOAP11_NS, SOAP12_NS, type SoapVersion } from "./envelope.js";
import { SoapMessage } from "./envelope-reader.js";
import { SoapFaultError, type SoapFaultCode } from "./fault-error.js";
import { namespaceAliasTable, type SoapNamespaceFamily } from "./namespace-aliases.js";
import { encodeForMtom, isMultipartRelated, MtomError, mtomBody, readMtom } from "./mtom.js";
import { WsSecurityError, WSSE_NS } from "./wss/names.js";
import type { SoapSecurityVerifier, WsSecurityResult } from "./wss/verify.js";

type Decode = (node: XmlElementNode, options?: XmlDecodeOptions, others?: readonly XmlElementNode[]) => unknown;
type Encode = (value: never, options?: XmlEncodeOptions) => string;

/** What a generated server knows about one operation. */
export interface SoapServerOperation {
  readonly name: string;
  /**
   * The operation's key in the handlers object, when it is not `name` (an operation named `then`, `constructor` or
   * `__proto__` has its handler under `then$`, ...).
   */
  readonly handler?: string;
  /** soapAction from the binding ("" when none: then any SOAPAction is accepted). */
  readonly action: string;
  /** Clark name ("{ns}local") of the request's body element. */
  readonly inputElement: string;
  /** `others`: the body's other elements (given to rpc operations, for SOAP encoding's multi-refs). */
  readonly decodeInput: Decode;
  /**
   * rpc style: the input is decoded once the whole envelope was read (references to other body elements), and a
   * request whose wrapper is in another namespace is still dispatched by its local name when only this operation
   * has that name (node-soap's client writes it in the WSDL's targetNamespace, not the soap:body namespace).
   */
  readonly rpc?: boolean;
  /** The input type's validator; omitted when the input has no named type. */
  readonly validateInput?: (value: unknown) => ValidationIssue[];
  /** Absent for a one-way operation: the request is answered 202 Accepted with no body once its handler returned. */
  readonly encodeOutput?: Encode;
  /** Request header decoders by Clark name; `name` is the key in `ctx.headers`. */
  readonly requestHeaders: { readonly [clark: string]: { readonly name: string; readonly decode: Decode } };
  /** Response header encoders by header element local name (the key of `ctx.setResponseHeader`). */
  readonly responseHeaders: { readonly [name: string]: Encode };
}

export interface SoapServiceDescriptor {
  readonly version: SoapVersion;
  readonly operations: readonly SoapServerOperation[];
  /** Fault detail encoders by wsdl:fault name. */
  readonly faults: { readonly [fault: string]: Encode };
}

export interface SoapServerOptions {
  /** WSDL served at `GET ...?wsdl` (a function may fill in the address the client used); without it ?wsdl is 404. */
  readonly wsdl?: string | ((request: Request) => string);
  /** Largest request body accepted, in bytes (default 4 MiB); larger requests get 413 and a Client fault. */
  readonly maxBodyBytes?: number;
  /** Validate each request before its handler (default true); a function decides per operation. */
  readonly validate?: boolean | ((operation: string) => boolean);
  /** Told about errors a handler threw that were not SoapFaultErrors (the client only sees "internal error"). */
  readonly onError?: (error: unknown, operation: string) => void;
  /**
   * Other namespaces to accept for the spec's: each family maps a spec namespace URI to the URI another edition of
   * the contract uses for it (e.g. `{ "urn:partner.api.example": "urn:partner.soap.sforce.com", ... }`). A request
   * in a family's namespaces is read as if it used the spec's, and answered in that family: response and header
   * elements, xsi:type values, fault detail elements and fault codes. Default: none (the spec's namespaces only).
   */
  readonly namespaceAliases?: readonly SoapNamespaceFamily[];
  /**
   * Accept requests that leave out an element the schema declares required and nillable, reading it as nil
   * (null), as real services often do (the partner service's sObject Id on create). Default false: strict.
   */
  readonly lenientNillable?: boolean;
  /**
   * WS-Security, e.g. `wsSecurityVerifier({ usernameToken: { password } })`: every request is verified before it is
   * read further, and a refused one is answered with a WS-Security fault (wsse:FailedAuthentication, ...) without
   * reaching a handler. The wsse:Security header then counts as understood.
   */
  readonly security?: SoapSecurityVerifier;
}

export interface SoapHandlerContext<H, RH> {
  /** Decoded SOAP headers the binding declares for this operation; absent headers are absent. */
  readonly headers: H;
  readonly operation: string;
  readonly request: Request;
  /**
   * The namespace family the request used (spec namespace -> the request's), when it used one of
   * `options.namespaceAliases`; undefined for a request in the spec's own namespaces.
   */
  readonly namespaces?: ReadonlyMap<string, string> | undefined;
  /** What `options.security` established (the user, the signing certificate); undefined without it. */
  readonly security?: WsSecurityResult | undefined;
  /** Add a SOAP header to the response. */
  setResponseHeader<K extends keyof RH & string>(name: K, value: NonNullable<RH[K]>): void;
}

export type SoapHandler<I, O, H, RH> = (input: I, ctx: SoapHandlerContext<H, RH>) => Promise<O> | O;

type AnyHandler = (input: unknown, ctx: SoapHandlerContext<Record<string, unknown>, Record<string, unknown>>) => unknown;

/** Build the request handler. Handlers missing from `handlers` answer with a Server fault "not implemented". */
export function createSoapHandler(
  service: SoapServiceDescriptor,
  handlers: { readonly [operation: string]: unknown },
  options: SoapServerOptions = {},
): HttpHandler {
  // Operations by body element; several share one when their actions tell them apart (see `pickOperation`).
  const byElement = new Map<string, SoapServerOperation[]>();
  for (const op of service.operations) {
    const list = byElement.get(op.inputElement);
    if (list === undefined) byElement.set(op.inputElement, [op]);
    else list.push(op);
  }
  // rpc wrappers by local name, for requests that put the wrapper in another namespace (undefined: ambiguous).
  const rpcByLocal = new Map<string, SoapServerOperation | undefined>();
  for (const op of service.operations) {
    if (op.rpc !== true) continue;
    const local = op.inputElement.slice(op.inputElement.indexOf("}") + 1);
    rpcByLocal.set(local, rpcByLocal.has(local) ? undefined : op);
  }
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const shouldValidate = (name: string) =>
    typeof options.validate === "function" ? options.validate(name) : options.validate !== false;
  const aliases = namespaceAliasTable(options.namespaceAliases);
  const decodeOptions: XmlDecodeOptions | undefined = options.lenientNillable === true ? { lenientNillable: true } : undefined;

  // `held` releases what an MTOM request registered for the decoders, once the answer is made.
  const handle = async (request: Request, held: (() => void)[]): Promise<Response> => {
    const url = new URL(request.url);
    if (request.method === "GET" || request.method === "HEAD") {
      if (asksForWsdl(url) && options.wsdl !== undefined) {
        const wsdl = typeof options.wsdl === "function" ? options.wsdl(request) : options.wsdl;
        return new Response(request.method === "HEAD" ? null : wsdl, { headers: { "content-type": "text/xml; charset=utf-8" } });
      }
      return new Response("not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
    }
    if (request.method !== "POST") {
      return new Response("method not allowed\n", { status: 405, headers: { allow: "GET, POST", "content-type": "text/plain; charset=utf-8" } });
    }
    const contentType = request.headers.get("content-type") ?? "";
    const mediaType = mediaTypeEssence(contentType);
    let version = service.version;
    const mtom = isMultipartRelated(contentType);
    if (mediaType === "application/soap+xml") version = "1.2";
    else if (mediaType === "text/xml") version = "1.1";
    else if (!mtom) return fault(version, "Client", `unsupported content type ${JSON.stringify(contentType)}: expected text/xml or application/soap+xml`, 415);

    let text: string;
    try {
      const bytes = await readBodyWithLimit(request, limit);
      if (mtom) {
        // MTOM/XOP: the envelope from the root part, each binary part registered for the decoders until the answer.
        const message = readMtom(bytes, contentType);
        held.push(message.release);
        text = message.text;
        version = mediaTypeEssence(message.soapContentType) === "application/soap+xml" ? "1.2" : "1.1";
      } else text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return fault(version, "Client", `request body exceeds ${limit} bytes`, 413);
      if (error instanceof MtomError) return fault(version, "Client", `malformed MTOM request: ${error.message}`);
      return fault(version, "Client", "request body is not valid UTF-8");
    }
    let security: WsSecurityResult | undefined;
    if (options.security !== undefined) {
      try {
        security = await options.security.verify(text);
      } catch (error) {
        if (error instanceof WsSecurityError) return fault(version, { ns: WSSE_NS, local: error.code }, error.message, version === "1.2" ? 400 : 500);
        options.onError?.(error, "");
        return fault(version, "Server", "internal error: the security check failed");
      }
    }
    let message: SoapMessage;
    try {
      message = SoapMessage.read(text, undefined, aliases?.toSpec);
    } catch (error) {
      return fault(version, "Client", `malformed request: ${(error as Error).message}`);
    }
    if (message.version !== version) return versionMismatch(mediaType, message.version);
    // The body element is decoded as the envelope is read, when nothing else would be answered before its decoding
    // (an unknown element, a SOAPAction that does not match, a missing handler); whatever the order things are found
    // in, the answer is the one a read of the whole envelope before anything else would give.
    const node = message.body;
    // With aliases, the body element's namespace as written says which family to answer in (the reader maps every
    // alias to its spec namespace as it reads, so `node` and the headers are already in the spec's namespaces).
    const family: ReadonlyMap<string, string> | undefined = aliases !== undefined && node !== undefined ? aliases.familyOf.get(node.declaredNs) : undefined;
    const action = requestAction(request, contentType, message.version);
    const candidates = node === undefined || message.startsWithFault ? undefined : byElement.get(clarkName(node.ns, node.local));
    const picked = candidates === undefined ? undefined : pickOperation(candidates, action);
    const op = node === undefined || message.startsWithFault ? undefined : candidates === undefined ? rpcByLocal.get(node.local) : picked;
    // An operation named like an Object.prototype member ("toString", "valueOf") without a handler must not run the
    // inherited member.
    const key = op === undefined ? "" : (op.handler ?? op.name);
    const found = op === undefined ? undefined : (handlers[key] as AnyHandler | undefined);
    const handler = op !== undefined && found === (Object.prototype as Record<string, unknown>)[key] ? undefined : found;
    let input: unknown;
    let decoded = false;
    let inputError: unknown;
    if (op !== undefined && op.rpc !== true && node !== undefined && !(action && op.action && action !== op.action) && typeof handler === "function") {
      try {
        input = op.decodeInput(node, decodeOptions);
        decoded = true;
      } catch (error) {
        if (error instanceof XmlParseError) return fault(version, "Client", `malformed request: ${error.message}`);
        inputError = error;
      }
    }
    try {
      message.finish();
    } catch (error) {
      return fault(version, "Client", `malformed request: ${(error as Error).message}`);
    }
    version = message.version;
    if (!node) return fault(version, "Client", "the SOAP body is empty");
    const extra = message.extraBodyElement;
    if (extra !== undefined) {
      return fault(
        version,
        "Client",
        `the SOAP body holds more than one element ({${node.ns}}${node.local}, then {${extra.ns}}${extra.local}): one operation per request, and none was run`,
      );
    }
    const requestHeaders = message.headers;
    const encodeOptions: XmlEncodeOptions | undefined = family === undefined ? undefined : { namespaceAliases: family };
    if (!op && candidates !== undefined) {
      const names = candidates.map((o) => o.name).join(", ");
      return fault(
        version,
        "Client",
        action
          ? `SOAPAction ${JSON.stringify(action)} matches none of the operations taking a {${node.ns}}${node.local} element (${names})`
          : `operations ${names} all take a {${node.ns}}${node.local} element: the request's SOAPAction must say which`,
      );
    }
    if (!op) return fault(version, "Client", `no operation takes a {${node.ns}}${node.local} element`);
    if (action && op.action && action !== op.action) {
      return fault(version, "Client", `SOAPAction ${JSON.stringify(action)} does not match operation ${op.name}`);
    }
    if (typeof handler !== "function") return fault(version, "Server", `operation ${op.name} is not implemented`);

    const headers: Record<string, unknown> = {};
    try {
      for (const h of requestHeaders) {
        const decoder = op.requestHeaders[clarkName(h.ns, h.local)];
        if (decoder) headers[decoder.name] = decoder.decode(h, decodeOptions);
        else if (mustUnderstand(h, version) && !(security !== undefined && h.ns === WSSE_NS && h.local === "Security")) {
          return fault(version, { ns: version === "1.2" ? SOAP12_NS : SOAP11_NS, local: "MustUnderstand" }, `header {${h.ns}}${h.local} was not understood`);
        }
      }
      if (op.rpc === true) input = op.decodeInput(node, decodeOptions, message.rest);
      else if (!decoded) throw inputError;
    } catch (error) {
      return fault(version, "Client", `invalid request: ${(error as Error).message}`);
    }
    if (op.validateInput && shouldValidate(op.name)) {
      const issues = op.validateInput(input);
      if (issues.length > 0) {
        return fault(version, "Client", `invalid request: ${issues.map((i) => `${i.path || "/"}: ${i.message}`).join("; ")}`);
      }
    }

    const responseHeaders: string[] = [];
    const ctx: SoapHandlerContext<Record<string, unknown>, Record<string, unknown>> = {
      headers,
      operation: op.name,
      request,
      namespaces: family,
      security,
      setResponseHeader(name, value) {
        const encode = op.responseHeaders[name] as ((value: unknown, options?: XmlEncodeOptions) => string) | undefined;
        if (!encode) throw new TypeError(`${op.name}: the binding declares no response header ${name}`);
        responseHeaders.push(encode(value, encodeOptions));
      },
    };
    try {
      const output = await handler(input, ctx);
      if (op.encodeOutput === undefined) return new Response(null, { status: 202 });
      const encode = () => (op.encodeOutput as (value: unknown, options?: XmlEncodeOptions) => string)(output, encodeOptions);
      if (mtom) {
        // An MTOM request is answered in MTOM.
        const { value: body, attachments } = encodeForMtom(encode);
        const answer = mtomBody(buildSoapEnvelope({ version, headers: responseHeaders, body }), attachments, soapContentType(version));
        return new Response(answer.body, { status: 200, headers: { "content-type": answer.contentType } });
      }
      return new Response(buildSoapEnvelope({ version, headers: responseHeaders, body: encode() }), {
        status: 200,
        headers: { "content-type": soapContentType(version) },
      });
    } catch (error) {
      if (error instanceof SoapFaultError) return thrownFault(service, version, error, family);
      options.onError?.(error, op.name);
      return fault(version, "Server", "internal error");
    }
  };
  return async (request) => {
    const held: (() => void)[] = [];
    try {
      return await handle(request, held);
    } finally {
      for (const release of held) release();
    }
  };
}

/**
 * The operation a request is for, among those taking its body element: the only one; else the one whose action is
 * the request's; else the one without an action (it accepts any); else none (the answer is a Client fault saying
 * why). With one candidate, an action mismatch is reported after the envelope was read (as before).
 */
function pickOperation(candidates: readonly SoapServerOperation[], action: string): SoapServerOperation | undefined {
  if (candidates.length === 1) return candidates[0];
  if (action) {
    const exact = candidates.find((o) => o.action === action);
    if (exact !== undefined) return exact;
  }
  return candidates.find((o) => o.action === "");
}

/** `?wsdl` (any case, with or without a value), the conventional way to ask a SOAP endpoint for its contract. */
function asksForWsdl(url: URL): boolean {
  return url.search.slice(1).split("&").some((p) => p.split("=")[0]!.toLowerCase() === "wsdl");
}

/** SOAP 1.1 carries the action in the SOAPAction header (quoted); SOAP 1.2 in the content type's action parameter. */
function requestAction(request: Request, contentType: string, version: SoapVersion): string {
  if (version === "1.1") {
    // A quoted-string: backslash escapes a character (the client writes `"` and `\` that way).
    const quoted = /^"(.*)"$/s.exec((request.headers.get("soapaction") ?? "").trim());
    return quoted ? quoted[1]!.replace(/\\(.)/gs, "$1") : (request.headers.get("soapaction") ?? "").trim();
  }
  const m = /;\s*action\s*=\s*("([^"]*)"|[^;\s]*)/i.exec(contentType);
  return m ? (m[2] ?? m[1] ?? "") : "";
}

function mustUnderstand(header: XmlElementNode, version: SoapVersion): boolean {
  const v = attrValue(header, version === "1.2" ? SOAP12_NS : SOAP11_NS, "mustUnderstand");
  return v !== undefined && (v.trim() === "1" || v.trim() === "true");
}

/**
 * The envelope's version is not the one its media type says: text/xml is SOAP 1.1's HTTP binding, whose node finds a
 * SOAP 1.2 envelope in a namespace it does not know (SOAP 1.1 section 4.4.1); application/soap+xml is SOAP 1.2's,
 * whose node got a SOAP 1.1 envelope (SOAP 1.2 part 1, section 5.4.7 and appendix A). Either way the answer is a
 * VersionMismatch fault as a SOAP 1.1 message (the one version both ends read), HTTP 500; to a SOAP 1.1 envelope it
 * adds the Upgrade header block naming the envelope the binding expects. Nothing is decoded or run.
 */
function versionMismatch(mediaType: string, envelope: SoapVersion): Response {
  const sent = envelope === "1.2" ? `a SOAP 1.2 envelope (${SOAP12_NS})` : `a SOAP 1.1 envelope (${SOAP11_NS})`;
  const expected = envelope === "1.2" ? "SOAP 1.2 is sent as application/soap+xml" : "SOAP 1.1 is sent as text/xml";
  const upgrade =
    envelope === "1.1"
      ? [`<env12:Upgrade xmlns:env12="${SOAP12_NS}"><env12:SupportedEnvelope qname="ns:Envelope" xmlns:ns="${SOAP12_NS}"/></env12:Upgrade>`]
      : undefined;
  const body = buildSoapFault({
    version: "1.1",
    code: { ns: SOAP11_NS, local: "VersionMismatch" },
    message: `${sent} sent as ${mediaType}: ${expected}`,
    ...(upgrade !== undefined ? { headers: upgrade } : {}),
  });
  return new Response(body, { status: 500, headers: { "content-type": soapContentType("1.1") } });
}

/** HTTP status of a fault: SOAP 1.2 answers Sender faults with 400; SOAP 1.1 uses 500 for every fault. */
function fault(version: SoapVersion, code: SoapFaultCode, message: string, status?: number, detail?: string): Response {
  const isClient = code === "Client" || (typeof code !== "string" && code.local === "MustUnderstand");
  const httpStatus = status ?? (version === "1.2" && isClient ? 400 : 500);
  const body = buildSoapFault({ version, code, message, ...(detail !== undefined ? { detail } : {}) });
  return new Response(body, { status: httpStatus, headers: { "content-type": soapContentType(version) } });
}

function thrownFault(service: SoapServiceDescriptor, version: SoapVersion, error: SoapFaultError, family: ReadonlyMap<string, string> | undefined): Response {
  let detail: string | undefined;
  const encode = error.fault !== undefined && Object.hasOwn(service.faults, error.fault) ? (service.faults[error.fault] as ((value: unknown, options?: XmlEncodeOptions) => string) | undefined) : undefined;
  if (encode && error.detail !== undefined) {
    try {
      detail = encode(error.detail, family === undefined ? undefined : { namespaceAliases: family });
    } catch {
      return fault(version, "Server", "internal error: a fault detail could not be encoded");
    }
  }
  const status = version === "1.2" && error.code === "Client" ? 400 : 500;
  // A QName fault code in a spec namespace (e.g. fns:INVALID_LOGIN) is answered in the request's family too.
  const code = typeof error.code === "object" && family?.has(error.code.ns) ? { ns: family.get(error.code.ns)!, local: error.code.local } : error.code;
  return fault(version, code, error.message, status, detail);
}
