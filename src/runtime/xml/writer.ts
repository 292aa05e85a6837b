import { escapeAttribute, escapeText } from "./escape.js";
import { XmlEncodeError } from "./errors.js";
import { XML_NS, XSI_NS } from "./node.js";
import { prefixScope, type XmlPrefixScope, type XmlTag } from "./prefix-scope.js";
import { XmlValueTypeError } from "./value-type-error.js";

export interface XmlWriterOptions {
  /** Namespaces to declare on the first element written, as [uri, preferred prefix]. */
  readonly namespaces?: readonly (readonly [uri: string, prefix: string])[];
  /**
   * Names in namespace K are written in namespace V instead (K -> V). Every name goes through a prefix, so only the
   * URI of each xmlns declaration changes; text is never touched. (A server answering in a client's namespaces.)
   */
  readonly namespaceAliases?: ReadonlyMap<string, string>;
}

const IN_ELEMENT = { inElement: true } as const;

interface Declared {
  readonly depth: number;
  readonly ns: string;
  readonly previous: string | undefined;
}

/**
 * Builds XML text element by element. Namespaces: an element in namespace "" is written without a prefix (the
 * writer never declares a default namespace, so an unprefixed name is always in no namespace); any other namespace
 * uses the prefix in scope, declaring a fresh `nsN` prefix on the element where it is first needed. Text and
 * attribute values are escaped (see escape.ts).
 *
 * The namespaces given to the constructor are declared on the root element and stay bound to the same prefixes for
 * the whole document, so their tags come ready-made from an XmlPrefixScope (`scope`, set once the root is started):
 * record codecs keep those tags per field and write them with openTag/closeTag/textElement/nilElement, and the
 * name-based methods look them up there too. Everything goes into one string, `out`, appended to in place.
 */
export class XmlWriter {
  private out = "";
  private startOpen = false;
  /** Elements open (started by either kind of method). */
  private depth = 0;
  /** End tags of the elements startElement opened (openTag's callers hold their own). */
  private readonly closes: string[] = [];
  /** The root's fixed prefixes while its element is open; undefined before it and in writers without namespaces. */
  private current: XmlPrefixScope | undefined = undefined;
  private readonly rootScope: XmlPrefixScope | undefined;
  /** Bindings this writer made itself, below the root (namespaces outside the scope). */
  private readonly prefixes = new Map<string, string>();
  private readonly usedPrefixes = new Set<string>();
  private readonly declared: Declared[] = [];
  private pending: readonly (readonly [string, string])[] | undefined;
  private counter = 0;
  private readonly aliases: ReadonlyMap<string, string> | undefined;

  constructor(options: XmlWriterOptions = {}) {
    this.pending = options.namespaces;
    this.rootScope = options.namespaces === undefined ? undefined : prefixScope(options.namespaces);
    this.aliases = options.namespaceAliases;
  }

  /** The root's fixed prefixes while its element is open (tags for openTag/textElement/nilElement come from it). */
  get scope(): XmlPrefixScope | undefined {
    return this.current;
  }

  startElement(ns: string, local: string): void {
    if (this.startOpen) this.out += ">";
    this.depth++;
    let decl = "";
    if (this.pending !== undefined) {
      decl = this.declareRoot();
      this.pending = undefined;
    }
    const tag = this.current?.tag(ns, local);
    if (tag !== undefined) {
      this.closes.push(tag.close);
      this.out += decl === "" ? tag.start : tag.start + decl;
    } else {
      let qname = local;
      if (ns !== "") {
        let prefix = this.prefixes.get(ns);
        if (prefix === undefined) {
          prefix = this.freshPrefix("ns");
          decl += this.bind(ns, prefix);
        }
        qname = `${prefix}:${local}`;
      }
      this.closes.push(`</${qname}>`);
      this.out += `<${qname}${decl}`;
    }
    this.startOpen = true;
  }

  /** An attribute of the element just started. */
  attribute(ns: string, local: string, value: string): void {
    if (!this.startOpen) throw new XmlEncodeError(`attribute ${local} written outside a start tag`);
    if (typeof value !== "string") throw new XmlValueTypeError("string", value, { inElement: true, attribute: local });
    const prefix = ns === "" ? "" : `${this.prefixFor(ns)}:`;
    this.out += ` ${prefix}${local}="${escapeAttribute(value)}"`;
  }

  /** xsi:type="p:local" on the element just started, declaring prefixes as needed. */
  xsiType(ns: string, local: string): void {
    const value = ns === "" ? local : `${this.prefixFor(ns)}:${local}`;
    this.attribute(XSI_NS, "type", value);
  }

  /** A QName value ("p:local") for an attribute of the element just started, declaring its prefix as needed. */
  qname(ns: string, local: string): string {
    return ns === "" ? local : `${this.prefixFor(ns)}:${local}`;
  }

  /** xsi:nil="true" on the element just started. */
  nil(): void {
    this.attribute(XSI_NS, "nil", "true");
  }

  text(value: string): void {
    // Every lexical value reaches here as a string; anything else (a Date for a dateTime string, a number for a
    // string field) came through a cast or JSON and would be written as whatever String() makes of it.
    if (typeof value !== "string") throw new XmlValueTypeError("string", value, IN_ELEMENT);
    if (this.startOpen) {
      this.out += ">";
      this.startOpen = false;
    }
    this.out += escapeText(value);
  }

  /** Already-serialized XML (a whole element), e.g. a SOAP header built elsewhere. Not checked. */
  raw(xml: string): void {
    if (this.startOpen) {
      this.out += ">";
      this.startOpen = false;
    }
    this.out += xml;
  }

  endElement(): void {
    const close = this.closes.pop();
    if (close === undefined) throw new XmlEncodeError("endElement without an open element");
    this.end(close);
  }

  /** Shorthand: an element holding only text. */
  simpleElement(ns: string, local: string, text: string): void {
    const tag = this.current?.tag(ns, local);
    if (tag !== undefined) return this.textElement(tag, text);
    this.startElement(ns, local);
    this.text(text);
    this.endElement();
  }

  /** Start element `tag`, taken from `scope` (no declarations needed); closed by closeTag(tag). */
  openTag(tag: XmlTag): void {
    if (this.startOpen) this.out += ">";
    this.out += tag.start;
    this.startOpen = true;
    this.depth++;
  }

  /** End the element openTag(tag) started. */
  closeTag(tag: XmlTag): void {
    this.end(tag.close);
  }

  /** `tag` (from `scope`) holding `text`: simpleElement without the lookups. */
  textElement(tag: XmlTag, text: string): void {
    const open = this.startOpen ? tag.openAfterStart : tag.open;
    this.startOpen = false;
    if (typeof text !== "string") {
      // Where the error is located (encode-location.ts) is read off the output: the element must be started.
      this.out += open;
      throw new XmlValueTypeError("string", text, IN_ELEMENT);
    }
    this.out += open + escapeText(text) + tag.close;
  }

  /** `<p:local xsi:nil="true"/>` for `tag` (from `scope`). */
  nilElement(tag: XmlTag): void {
    if (tag.nil === undefined) {
      this.startElement(tag.ns, tag.local);
      this.nil();
      this.endElement();
      return;
    }
    if (this.startOpen) {
      this.out += ">";
      this.startOpen = false;
    }
    this.out += tag.nil;
  }

  /** An attribute already written out (` p:name="value"`, e.g. XmlPrefixScope.typeAttribute) on the element just started. */
  rawAttribute(text: string): void {
    if (!this.startOpen) throw new XmlEncodeError("attribute written outside a start tag");
    this.out += text;
  }

  /** What has been written so far (for locating an encode error; see encode-location.ts). */
  written(): string {
    return this.out;
  }

  toString(): string {
    if (this.depth > 0) {
      const close = this.closes[this.closes.length - 1];
      throw new XmlEncodeError(`element ${close === undefined ? "" : close.slice(2, -1)} is not closed`);
    }
    return this.out;
  }

  private end(close: string): void {
    const depth = this.depth--;
    if (this.startOpen) {
      this.out += "/>";
      this.startOpen = false;
    } else this.out += close;
    if (this.declared.length > 0) this.undeclare(depth);
    // The root's bindings end with it: anything written after it declares its own.
    if (depth === 1) this.current = undefined;
  }

  /** The root's declarations (its scope's bindings, URIs aliased), and the scope they start. */
  private declareRoot(): string {
    const scope = this.rootScope!;
    let decl = "";
    for (const [uri, prefix] of scope.bindings) decl += this.declaration(uri, prefix);
    this.current = scope;
    this.counter = Math.max(this.counter, scope.counter);
    return decl;
  }

  private undeclare(depth: number): void {
    while (this.declared.length > 0 && this.declared[this.declared.length - 1]!.depth === depth) {
      const d = this.declared.pop()!;
      const prefix = this.prefixes.get(d.ns);
      if (prefix !== undefined) this.usedPrefixes.delete(prefix);
      if (d.previous === undefined) this.prefixes.delete(d.ns);
      else this.prefixes.set(d.ns, d.previous);
    }
  }

  private prefixFor(ns: string): string {
    // The xml: prefix is bound by definition and must never be declared (Namespaces in XML 1.0 §3).
    if (ns === XML_NS) return "xml";
    const known = this.current?.prefixes.get(ns) ?? this.prefixes.get(ns);
    if (known !== undefined) return known;
    if (!this.startOpen) throw new XmlEncodeError(`namespace ${ns} used outside a start tag`);
    const prefix = ns === XSI_NS ? this.freshPrefix("xsi") : this.freshPrefix("ns");
    this.out += this.bind(ns, prefix);
    return prefix;
  }

  private freshPrefix(wanted: string): string {
    const numbered = wanted === "ns";
    let prefix = numbered ? `ns${++this.counter}` : wanted;
    while (this.usedPrefixes.has(prefix) || this.current?.used.has(prefix) === true || prefix.toLowerCase().startsWith("xml")) prefix = `ns${++this.counter}`;
    return prefix;
  }

  private bind(ns: string, prefix: string): string {
    this.declared.push({ depth: this.depth, ns, previous: this.prefixes.get(ns) });
    this.prefixes.set(ns, prefix);
    this.usedPrefixes.add(prefix);
    return this.declaration(ns, prefix);
  }

  private declaration(ns: string, prefix: string): string {
    const uri = this.aliases === undefined ? ns : (this.aliases.get(ns) ?? ns);
    return ` xmlns:${prefix}="${escapeAttribute(uri)}"`;
  }
}
