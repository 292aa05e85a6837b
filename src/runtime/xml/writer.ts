import { escapeAttribute, escapeText } from "./escape.js";
import { XmlEncodeError } from "./errors.js";
import { XSI_NS } from "./node.js";
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
 */
export class XmlWriter {
  private out = "";
  private startOpen = false;
  private readonly names: string[] = [];
  private readonly prefixes = new Map<string, string>();
  private readonly usedPrefixes = new Set<string>();
  private readonly declared: Declared[] = [];
  private pending: readonly (readonly [string, string])[] | undefined;
  private counter = 0;
  private readonly aliases: ReadonlyMap<string, string> | undefined;

  constructor(options: XmlWriterOptions = {}) {
    this.pending = options.namespaces;
    this.aliases = options.namespaceAliases;
  }

  startElement(ns: string, local: string): void {
    if (this.startOpen) this.out += ">";
    this.names.push("");
    let decl = "";
    if (this.pending !== undefined) {
      for (const [uri, prefix] of this.pending) decl += this.bind(uri, this.freshPrefix(prefix));
      this.pending = undefined;
    }
    let qname = local;
    if (ns !== "") {
      let prefix = this.prefixes.get(ns);
      if (prefix === undefined) {
        prefix = this.freshPrefix("ns");
        decl += this.bind(ns, prefix);
      }
      qname = `${prefix}:${local}`;
    }
    this.names[this.names.length - 1] = qname;
    this.out += `<${qname}${decl}`;
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
    const qname = this.names.pop();
    if (qname === undefined) throw new XmlEncodeError("endElement without an open element");
    if (this.startOpen) {
      this.out += "/>";
      this.startOpen = false;
    } else this.out += `</${qname}>`;
    const depth = this.names.length + 1;
    while (this.declared.length > 0 && this.declared[this.declared.length - 1]!.depth === depth) {
      const d = this.declared.pop()!;
      const prefix = this.prefixes.get(d.ns);
      if (prefix !== undefined) this.usedPrefixes.delete(prefix);
      if (d.previous === undefined) this.prefixes.delete(d.ns);
      else this.prefixes.set(d.ns, d.previous);
    }
  }

  /** Shorthand: an element holding only text. */
  simpleElement(ns: string, local: string, text: string): void {
    this.startElement(ns, local);
    this.text(text);
    this.endElement();
  }

  /** What has been written so far (for locating an encode error; see encode-location.ts). */
  written(): string {
    return this.out;
  }

  toString(): string {
    if (this.names.length > 0) throw new XmlEncodeError(`element ${this.names[this.names.length - 1]} is not closed`);
    return this.out;
  }

  private prefixFor(ns: string): string {
    const known = this.prefixes.get(ns);
    if (known !== undefined) return known;
    if (!this.startOpen) throw new XmlEncodeError(`namespace ${ns} used outside a start tag`);
    const prefix = ns === XSI_NS ? this.freshPrefix("xsi") : this.freshPrefix("ns");
    this.out += this.bind(ns, prefix);
    return prefix;
  }

  private freshPrefix(wanted: string): string {
    const numbered = wanted === "ns";
    let prefix = numbered ? `ns${++this.counter}` : wanted;
    while (this.usedPrefixes.has(prefix) || prefix.toLowerCase().startsWith("xml")) prefix = `ns${++this.counter}`;
    return prefix;
  }

  private bind(ns: string, prefix: string): string {
    this.declared.push({ depth: this.names.length, ns, previous: this.prefixes.get(ns) });
    this.prefixes.set(ns, prefix);
    this.usedPrefixes.add(prefix);
    const uri = this.aliases === undefined ? ns : (this.aliases.get(ns) ?? ns);
    return ` xmlns:${prefix}="${escapeAttribute(uri)}"`;
  }
}
