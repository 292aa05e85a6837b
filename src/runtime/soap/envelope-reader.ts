import { KeptInstance } from "../xml/kept-instance.js";
import type { XmlLimits } from "../xml/limits.js";
import { XML_NS, type NamespaceScope } from "../xml/node.js";
import { XmlPullReader } from "../xml/pull.js";
import { PulledElement } from "../xml/pulled-element.js";
import { SOAP11_NS, SOAP12_NS, SoapEnvelopeError, type SoapFault, type SoapVersion } from "./envelope.js";

/**
 * A SOAP envelope read in one pass, for the generated clients and servers: what parseSoapEnvelope returns, without
 * the tree. `SoapMessage.read` reads up to the body's first element and stops on its start tag, so that the caller
 * can decode that element from the same reader (the typed decoder reads the text directly); `finish()` then reads
 * the rest. Headers and fault details are read (and checked) on the way and kept as PulledElements, decoded later
 * from their offsets.
 *
 * Errors come in the order parseSoapEnvelope reports them: a document that is malformed anywhere is an XmlParseError
 * (the reader reads to the end before any SoapEnvelopeError is thrown), then the envelope's structure, then a Fault
 * that cannot be read. Structure after the body element and the Fault's problems are only known once `finish()` has
 * run, so a caller looks at `fault` (and trusts what it decoded) only after it.
 */
export class SoapMessage {
  readonly version: SoapVersion;
  /** The children of the (last) Header before the Body. */
  readonly headers: PulledElement[] = [];
  /** The first element in the Body; the reader is on its start tag until the caller reads it or calls finish(). */
  readonly body: PulledElement | undefined;
  /** The Body's other elements (SOAP encoding's multi-referenced values), known after finish(). */
  readonly rest: PulledElement[] = [];
  private faultRead: SoapFault | undefined;
  private secondBody: { readonly ns: string; readonly local: string } | undefined;
  private faultProblem: string | undefined;
  private readonly envNs: string;

  private constructor(private readonly r: XmlPullReader) {
    KEPT_MESSAGE.constructed();
    if (r.local !== "Envelope" || (r.ns !== SOAP11_NS && r.ns !== SOAP12_NS)) {
      this.refuse(`not a SOAP envelope: root element is {${r.ns}}${r.local}`);
    }
    const ns: string = r.ns;
    this.envNs = ns;
    this.version = ns === SOAP12_NS ? "1.2" : "1.1";
    for (;;) {
      if (!r.nextChild()) this.refuse("the envelope has no Body");
      const local: string = r.local;
      if (r.ns === ns && local === "Header") {
        this.headers.length = 0;
        while (r.nextChild()) {
          this.headers.push(new PulledElement(r));
          r.skip();
        }
      } else if (r.ns === ns && local === "Body") break;
      else this.refuse(`unexpected element {${r.ns}}${r.local} in the envelope`);
    }
    if (!r.nextChild()) {
      this.body = undefined;
      this.bodyDone = true;
      return;
    }
    this.body = new PulledElement(r);
    if (this.startsWithFault) {
      if (this.version === "1.2") this.fault12();
      else this.fault11();
    }
  }

  /** Read `text` up to the body's first element. Throws XmlParseError or SoapEnvelopeError. */
  static read(text: string, limits?: Partial<XmlLimits>, aliases?: ReadonlyMap<string, string>): SoapMessage {
    return new SoapMessage(XmlPullReader.document(text, limits, aliases));
  }

  /** The body's first element is the envelope's Fault (read already, reported after finish()). */
  get startsWithFault(): boolean {
    return this.body !== undefined && this.body.ns === this.envNs && this.body.local === "Fault";
  }

  /** The Fault the body starts with; meaningful after finish(). */
  get fault(): SoapFault | undefined {
    return this.faultRead;
  }

  private bodyDone = false;

  /**
   * A second element in the Body that is not an encoded value the first one refers to (SOAP 1.1 section 5 writes
   * multi-reference values as Body children with an `id`, SOAP 1.2 encoding with `enc:id`); known after finish().
   * A server refuses such a request: WS-I Basic Profile R9981 allows one Body child, and running only the first of
   * two operations would silently drop the second.
   */
  get extraBodyElement(): { readonly ns: string; readonly local: string } | undefined {
    return this.secondBody;
  }

  /**
   * Read the rest: the body element wherever its decoder left it (or all of it), the other body elements, the end of
   * the envelope. Throws XmlParseError or SoapEnvelopeError, as parseSoapEnvelope would have for the whole text.
   */
  finish(): void {
    const r = this.r;
    if (!this.bodyDone) {
      // Envelope and Body are open: level 2 is inside the Body.
      r.skipTo(2);
      while (r.nextChild()) {
        if (this.secondBody === undefined && !isMultiRefValue(r)) this.secondBody = { ns: r.ns, local: r.local };
        this.rest.push(new PulledElement(r));
        r.skip();
      }
    }
    if (r.nextChild()) this.refuse(`unexpected element {${r.ns}}${r.local} in the envelope`);
    r.end();
    if (this.faultProblem !== undefined) throw new SoapEnvelopeError(this.faultProblem);
  }

  /** An envelope problem, reported once the rest of the document is known to be well-formed. */
  private refuse(message: string): never {
    this.r.drain();
    throw new SoapEnvelopeError(message);
  }

  private fault11(): void {
    const r = this.r;
    let code: { text: string; scope: NamespaceScope | null } | undefined;
    let string: string | undefined;
    let actor: string | undefined;
    let details: PulledElement[] | undefined;
    // faultcode & co. are unqualified by the spec, or in the envelope namespace when it is the default namespace.
    while (r.nextChild()) {
      const local = r.local;
      const ours = r.ns === "" || r.ns === SOAP11_NS;
      if (ours && local === "faultcode" && code === undefined) {
        const scope = r.scope;
        code = { text: r.readText(), scope };
      } else if (ours && local === "faultstring" && string === undefined) string = r.readText();
      else if (ours && local === "faultactor" && actor === undefined) actor = r.readText();
      else if (ours && local === "detail" && details === undefined) details = this.elements();
      else r.skip();
    }
    this.bodyDone = true;
    while (r.nextChild()) r.skip();
    if (code === undefined) {
      this.faultProblem = "the Fault has no faultcode";
      return;
    }
    this.faultRead = {
      code: qnameOf(code.text, code.scope, "1.1"),
      string: string ?? "",
      ...(actor !== undefined ? { actor } : {}),
      ...detailsOf(details),
    };
  }

  private fault12(): void {
    const r = this.r;
    let value: { text: string; scope: NamespaceScope | null } | undefined;
    let sawCode = false;
    let reason: string | undefined;
    let sawReason = false;
    let actor: string | undefined;
    let details: PulledElement[] | undefined;
    while (r.nextChild()) {
      const mine = r.ns === SOAP12_NS;
      if (mine && r.local === "Code" && !sawCode) {
        sawCode = true;
        value = this.code12();
      } else if (mine && r.local === "Reason" && !sawReason) {
        sawReason = true;
        reason = this.reason12();
      } else if (mine && r.local === "Role" && actor === undefined) actor = r.readText();
      else if (mine && r.local === "Detail" && details === undefined) details = this.elements();
      else r.skip();
    }
    this.bodyDone = true;
    while (r.nextChild()) r.skip();
    if (value === undefined) {
      this.faultProblem = "the Fault has no Code/Value";
      return;
    }
    this.faultRead = {
      code: qnameOf(value.text, value.scope, "1.2"),
      string: reason ?? "",
      ...(actor !== undefined ? { actor } : {}),
      ...detailsOf(details),
    };
  }

  /** Code (or Subcode): the innermost Value of the first Subcode chain, else this level's first Value. */
  private code12(): { text: string; scope: NamespaceScope | null } | undefined {
    const r = this.r;
    let own: { text: string; scope: NamespaceScope | null } | undefined;
    let inner: { text: string; scope: NamespaceScope | null } | undefined;
    let sawSub = false;
    while (r.nextChild()) {
      if (r.ns === SOAP12_NS && r.local === "Value" && own === undefined) {
        const scope = r.scope;
        own = { text: r.readText(), scope };
      } else if (r.ns === SOAP12_NS && r.local === "Subcode" && !sawSub) {
        sawSub = true;
        inner = this.code12();
      } else r.skip();
    }
    return inner ?? own;
  }

  /** Reason: the first Text whose xml:lang starts with "en", else the first Text. */
  private reason12(): string | undefined {
    const r = this.r;
    let first: string | undefined;
    let english: string | undefined;
    while (r.nextChild()) {
      if (r.ns !== SOAP12_NS || r.local !== "Text") {
        r.skip();
        continue;
      }
      const isEnglish = r.attribute(XML_NS, "lang")?.startsWith("en") === true;
      const text = r.readText();
      first ??= text;
      if (isEnglish) english ??= text;
    }
    return english ?? first;
  }

  /** The child elements of the current element, kept for later decoding. */
  private elements(): PulledElement[] {
    const r = this.r;
    const out: PulledElement[] = [];
    while (r.nextChild()) {
      out.push(new PulledElement(r));
      r.skip();
    }
    return out;
  }
}

const SOAP12_ENCODING_NS = "http://www.w3.org/2003/05/soap-encoding";

/** An independent encoded value (a multi-ref target): `id` (SOAP 1.1 section 5) or `enc:id` (SOAP 1.2 encoding). */
function isMultiRefValue(r: XmlPullReader): boolean {
  return r.attribute("", "id") !== undefined || r.attribute(SOAP12_ENCODING_NS, "id") !== undefined;
}

/** A message kept alive, so that optimized code handling messages survives full GCs (see KeptInstance). */
const KEPT_MESSAGE = /* @__PURE__ */ new KeptInstance(() => SoapMessage.read(`<e:Envelope xmlns:e="${SOAP11_NS}"><e:Body><kept/></e:Body></e:Envelope>`));

function detailsOf(details: readonly PulledElement[] | undefined): { detail?: PulledElement; details?: readonly PulledElement[] } {
  const first = details?.[0];
  return first !== undefined ? { detail: first, details: details! } : {};
}

/** The codes every SOAP version defines; written unprefixed in no namespace by some stacks, they still mean these. */
const STANDARD_CODES: Readonly<Record<SoapVersion, ReadonlySet<string>>> = {
  "1.1": /* @__PURE__ */ new Set(["VersionMismatch", "MustUnderstand", "Client", "Server"]),
  "1.2": /* @__PURE__ */ new Set(["VersionMismatch", "MustUnderstand", "DataEncodingUnknown", "Sender", "Receiver"]),
};

/** A fault code's QName, resolved in the scope of the element that carries it (as envelope.ts does on a tree). */
function qnameOf(raw: string, scope: NamespaceScope | null, version: SoapVersion): { ns: string; local: string } {
  const text = raw.trim();
  const colon = text.indexOf(":");
  const prefix = colon < 0 ? "" : text.slice(0, colon);
  let ns: string | undefined = prefix === "xml" ? XML_NS : undefined;
  if (ns === undefined) for (let s = scope; s !== null; s = s.parent) if (s.prefix === prefix) { ns = s.uri; break; }
  if (ns === undefined && prefix === "") ns = "";
  // An undeclared prefix is the sender's mistake; the fault is still a fault, so keep its code as written.
  if (ns === undefined) return { ns: "", local: text };
  const local = colon < 0 ? text : text.slice(colon + 1);
  const dot = local.indexOf(".");
  const head = dot < 0 ? local : local.slice(0, dot);
  if (ns === "" && STANDARD_CODES[version].has(head)) return { ns: version === "1.2" ? SOAP12_NS : SOAP11_NS, local };
  return { ns, local };
}
