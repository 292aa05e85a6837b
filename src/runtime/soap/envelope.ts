import { escapeAttribute, escapeText } from "../xml/escape.js";
import type { XmlLimits } from "../xml/limits.js";
import { resolveQName, XML_NS, type XmlElementNode } from "../xml/node.js";
import { parseXml } from "../xml/parse.js";

/**
 * SOAP 1.1 and 1.2 envelopes and faults. Headers and body arrive as already-encoded elements (strings from the
 * generated `encode<E>Element` functions), so the envelope code knows nothing about any schema.
 */

export const SOAP11_NS = "http://schemas.xmlsoap.org/soap/envelope/";
export const SOAP12_NS = "http://www.w3.org/2003/05/soap-envelope";

export type SoapVersion = "1.1" | "1.2";

/** A SOAP message that is well-formed XML but not a usable envelope. */
export class SoapEnvelopeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SoapEnvelopeError";
  }
}

export interface SoapFault {
  /** faultcode (1.1), or the innermost Subcode/Value, else Code/Value (1.2), resolved to a namespace and local name. */
  readonly code: { readonly ns: string; readonly local: string };
  /** faultstring (1.1) or the first Reason/Text (1.2). */
  readonly string: string;
  /** faultactor (1.1) or Role (1.2). */
  readonly actor?: string;
  /** The first element inside detail (1.1) / Detail (1.2). */
  readonly detail?: XmlElementNode;
  /**
   * Every element inside detail / Detail, in order. Some stacks put more than the declared fault there (Axis 1 adds
   * its own hostname element, JAX-WS a stack trace), so a client looks for the one it can decode.
   */
  readonly details?: readonly XmlElementNode[];
}

export interface SoapEnvelope {
  readonly version: SoapVersion;
  readonly headers: readonly XmlElementNode[];
  readonly body: readonly XmlElementNode[];
  readonly fault?: SoapFault;
}

function envNs(version: SoapVersion): string {
  return version === "1.2" ? SOAP12_NS : SOAP11_NS;
}

/** The Content-Type of a request or response (1.2 carries the action in it; 1.1 uses a SOAPAction header). */
export function soapContentType(version: SoapVersion, action?: string): string {
  if (version === "1.1") return "text/xml; charset=utf-8";
  return action !== undefined ? `application/soap+xml; charset=utf-8; action="${action.replace(/["\\]/g, "")}"` : "application/soap+xml; charset=utf-8";
}

/** The envelope up to its first child, per version: constants, so a call only appends the encoded parts. */
const ENVELOPE_START_11 = `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${SOAP11_NS}">`;
const ENVELOPE_START_12 = `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${SOAP12_NS}">`;

export function buildSoapEnvelope(input: { version: SoapVersion; headers?: readonly string[]; body: string }): string {
  let out = input.version === "1.2" ? ENVELOPE_START_12 : ENVELOPE_START_11;
  const headers = input.headers;
  if (headers !== undefined && headers.length > 0) {
    out += "<soapenv:Header>";
    for (const h of headers) out += h;
    out += "</soapenv:Header>";
  }
  return out + "<soapenv:Body>" + input.body + "</soapenv:Body></soapenv:Envelope>";
}

export interface SoapFaultInput {
  readonly version: SoapVersion;
  /** A QName, or the generic codes ("Client"/"Server" are Sender/Receiver in SOAP 1.2). */
  readonly code: { readonly ns: string; readonly local: string } | "Client" | "Server";
  readonly message: string;
  readonly actor?: string;
  /** Encoded detail element(s), e.g. from `encodeFaultElement`. */
  readonly detail?: string;
  /** Header blocks of the fault message (e.g. the SOAP 1.2 Upgrade block of a VersionMismatch fault). */
  readonly headers?: readonly string[];
}

/**
 * A whole envelope carrying a fault. In SOAP 1.2 a code outside the envelope namespace becomes a Subcode of
 * env:Sender (1.2 only allows its own codes in Code/Value); parseSoapEnvelope reports the subcode as the code.
 */
export function buildSoapFault(input: SoapFaultInput): string {
  const v12 = input.version === "1.2";
  const generic = input.code === "Client" ? (v12 ? "Sender" : "Client") : input.code === "Server" ? (v12 ? "Receiver" : "Server") : undefined;
  const custom = typeof input.code === "object" && input.code.ns !== envNs(input.version) ? input.code : undefined;
  const local = generic ?? (typeof input.code === "object" ? input.code.local : "Server");
  const decl = custom && custom.ns !== "" ? ` xmlns:fc="${escapeAttribute(custom.ns)}"` : "";
  const customQName = custom ? (custom.ns === "" ? custom.local : `fc:${custom.local}`) : "";
  let fault: string;
  if (!v12) {
    fault =
      `<soapenv:Fault${decl}><faultcode>${escapeText(custom ? customQName : `soapenv:${local}`)}</faultcode>` +
      `<faultstring>${escapeText(input.message)}</faultstring>` +
      (input.actor !== undefined ? `<faultactor>${escapeText(input.actor)}</faultactor>` : "") +
      (input.detail !== undefined ? `<detail>${input.detail}</detail>` : "") +
      `</soapenv:Fault>`;
  } else {
    const code = custom
      ? `<soapenv:Value>soapenv:Sender</soapenv:Value><soapenv:Subcode><soapenv:Value>${escapeText(customQName)}</soapenv:Value></soapenv:Subcode>`
      : `<soapenv:Value>soapenv:${local}</soapenv:Value>`;
    fault =
      `<soapenv:Fault${decl}><soapenv:Code>${code}</soapenv:Code>` +
      `<soapenv:Reason><soapenv:Text xml:lang="en">${escapeText(input.message)}</soapenv:Text></soapenv:Reason>` +
      (input.actor !== undefined ? `<soapenv:Role>${escapeText(input.actor)}</soapenv:Role>` : "") +
      (input.detail !== undefined ? `<soapenv:Detail>${input.detail}</soapenv:Detail>` : "") +
      `</soapenv:Fault>`;
  }
  return buildSoapEnvelope({ version: input.version, body: fault, ...(input.headers !== undefined ? { headers: input.headers } : {}) });
}

/** Parse an envelope (either version); a Fault in the body is decoded into `fault`. */
export function parseSoapEnvelope(text: string, limits?: Partial<XmlLimits>): SoapEnvelope {
  const root = parseXml(text, limits);
  if (root.local !== "Envelope" || (root.ns !== SOAP11_NS && root.ns !== SOAP12_NS)) {
    throw new SoapEnvelopeError(`not a SOAP envelope: root element is {${root.ns}}${root.local}`);
  }
  const ns = root.ns;
  const version: SoapVersion = ns === SOAP12_NS ? "1.2" : "1.1";
  let headers: readonly XmlElementNode[] = [];
  let body: readonly XmlElementNode[] | undefined;
  for (const c of root.children) {
    if (c.ns === ns && c.local === "Header" && body === undefined) headers = c.children;
    else if (c.ns === ns && c.local === "Body" && body === undefined) body = c.children;
    else throw new SoapEnvelopeError(`unexpected element {${c.ns}}${c.local} in the envelope`);
  }
  if (body === undefined) throw new SoapEnvelopeError("the envelope has no Body");
  const first = body[0];
  if (first !== undefined && first.ns === ns && first.local === "Fault") {
    return { version, headers, body, fault: version === "1.2" ? fault12(first) : fault11(first) };
  }
  return { version, headers, body };
}

function child(node: XmlElementNode, ns: string, local: string): XmlElementNode | undefined {
  return node.children.find((c) => c.local === local && c.ns === ns);
}

/**
 * A SOAP 1.1 fault's own children (faultcode, faultstring, faultactor, detail) are unqualified by the spec, but an
 * envelope that declares the SOAP namespace as its default namespace (`<Envelope xmlns="...soap/envelope/">`, as
 * some .NET and hand-written services send) puts them in the envelope namespace; both mean the same element.
 */
function child11(fault: XmlElementNode, local: string): XmlElementNode | undefined {
  return fault.children.find((c) => c.local === local && (c.ns === "" || c.ns === SOAP11_NS));
}

/** The codes every SOAP version defines; written unprefixed in no namespace by some stacks, they still mean these. */
const STANDARD_CODES: Readonly<Record<SoapVersion, ReadonlySet<string>>> = {
  "1.1": new Set(["VersionMismatch", "MustUnderstand", "Client", "Server"]),
  "1.2": new Set(["VersionMismatch", "MustUnderstand", "DataEncodingUnknown", "Sender", "Receiver"]),
};

function qnameOf(node: XmlElementNode, version: SoapVersion): { ns: string; local: string } {
  const text = node.text.trim();
  const q = resolveQName(node, text);
  // An undeclared prefix is the sender's mistake; the fault is still a fault, so keep its code as written.
  if (q === undefined) return { ns: "", local: text };
  const dot = q.local.indexOf(".");
  const head = dot < 0 ? q.local : q.local.slice(0, dot);
  if (q.ns === "" && STANDARD_CODES[version].has(head)) return { ns: envNs(version), local: q.local };
  return q;
}

function elementsOf(node: XmlElementNode | undefined): { detail?: XmlElementNode; details?: readonly XmlElementNode[] } {
  const first = node?.children[0];
  return first !== undefined ? { detail: first, details: node!.children } : {};
}

function fault11(f: XmlElementNode): SoapFault {
  const code = child11(f, "faultcode");
  if (code === undefined) throw new SoapEnvelopeError("the Fault has no faultcode");
  const actor = child11(f, "faultactor")?.text;
  return {
    code: qnameOf(code, "1.1"),
    string: child11(f, "faultstring")?.text ?? "",
    ...(actor !== undefined ? { actor } : {}),
    ...elementsOf(child11(f, "detail")),
  };
}

function fault12(f: XmlElementNode): SoapFault {
  let value: XmlElementNode | undefined;
  for (let code = child(f, SOAP12_NS, "Code"); code !== undefined; code = child(code, SOAP12_NS, "Subcode")) {
    value = child(code, SOAP12_NS, "Value") ?? value;
  }
  if (value === undefined) throw new SoapEnvelopeError("the Fault has no Code/Value");
  const reason = child(f, SOAP12_NS, "Reason");
  const texts = reason?.children.filter((c) => c.ns === SOAP12_NS && c.local === "Text") ?? [];
  const english = texts.find((t) => t.attrs.some((a) => a.ns === XML_NS && a.local === "lang" && a.value.startsWith("en")));
  const actor = child(f, SOAP12_NS, "Role")?.text;
  return {
    code: qnameOf(value, "1.2"),
    string: (english ?? texts[0])?.text ?? "",
    ...(actor !== undefined ? { actor } : {}),
    ...elementsOf(child(f, SOAP12_NS, "Detail")),
  };
}
