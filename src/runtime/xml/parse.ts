import { decodeEntities } from "./entities.js";
import { XmlParseError } from "./errors.js";
import { resolveLimits, type XmlLimits } from "./limits.js";
import { XML_NS, XMLNS_NS, type NamespaceScope, type XmlAttribute, type XmlElementNode } from "./node.js";

/**
 * A namespace-aware XML parser for payloads (SOAP envelopes and the elements inside them), written for untrusted
 * input: DOCTYPE (and with it every entity declaration) is refused, only predefined entities and character
 * references are expanded, and size, depth, attribute count and name length are bounded. It builds the light
 * `XmlElementNode` tree the generated decoders walk. Comments and processing instructions are skipped.
 */
export function parseXml(text: string, limits?: Partial<XmlLimits>): XmlElementNode {
  return new Parser(text, resolveLimits(limits)).document();
}

/** Characters XML 1.0 cannot carry (besides lone surrogates, which a decoded byte stream never contains). */
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;
const EMPTY_ATTRS: readonly XmlAttribute[] = Object.freeze([]);
const EMPTY_CHILDREN: readonly XmlElementNode[] = Object.freeze([]);

interface OpenElement {
  node: { ns: string; local: string; prefix: string; attrs: readonly XmlAttribute[]; children: XmlElementNode[]; text: string; scope: NamespaceScope | null };
  qname: string;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

/** Name characters, simplified to what matters for rejecting garbage: no markup, quotes, spaces or '=' in names. */
function isNameChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x3a ||
    c === 0x2d || c === 0x2e || c === 0xb7 || (c >= 0xc0 && c !== 0xd7 && c !== 0xf7)
  );
}

function isNameStart(c: number): boolean {
  return isNameChar(c) && !(c >= 0x30 && c <= 0x39) && c !== 0x2d && c !== 0x2e && c !== 0xb7;
}

class Parser {
  private pos = 0;

  constructor(
    private readonly src: string,
    private readonly limits: XmlLimits,
  ) {}

  document(): XmlElementNode {
    const src = this.src;
    if (src.length > this.limits.maxBytes) this.fail(`document larger than ${this.limits.maxBytes} characters`, 0);
    const bad = FORBIDDEN.exec(src);
    if (bad) this.fail(`character U+${bad[0].charCodeAt(0).toString(16).padStart(4, "0")} is not allowed in XML`, bad.index);
    if (src.charCodeAt(0) === 0xfeff) this.pos = 1;
    this.misc();
    if (this.pos >= src.length || src.charCodeAt(this.pos) !== 0x3c) this.fail("expected the root element", this.pos);
    const root = this.elements();
    this.misc();
    if (this.pos < src.length) this.fail("content after the root element", this.pos);
    return root;
  }

  private fail(message: string, offset: number): never {
    let line = 1;
    let lineStart = 0;
    const end = Math.min(offset, this.src.length);
    for (let i = this.src.indexOf("\n"); i >= 0 && i < end; i = this.src.indexOf("\n", i + 1)) {
      line++;
      lineStart = i + 1;
    }
    throw new XmlParseError(message, line, end - lineStart + 1);
  }

  /** Whitespace, comments, processing instructions (and the XML declaration) outside the root element. */
  private misc(): void {
    const src = this.src;
    for (;;) {
      while (this.pos < src.length && isSpace(src.charCodeAt(this.pos))) this.pos++;
      if (src.startsWith("<?", this.pos)) this.skipPast("?>", "unterminated processing instruction");
      else if (src.startsWith("<!--", this.pos)) this.skipPast("-->", "unterminated comment");
      else if (src.startsWith("<!", this.pos)) this.refuseDeclaration();
      else return;
    }
  }

  private refuseDeclaration(): never {
    const word = /^<!([A-Za-z]*)/.exec(this.src.slice(this.pos, this.pos + 12))?.[1] ?? "";
    if (word === "DOCTYPE" || word === "ENTITY") this.fail(`${word} declarations are not allowed`, this.pos);
    this.fail("unexpected markup declaration", this.pos);
  }

  private skipPast(end: string, message: string): void {
    const i = this.src.indexOf(end, this.pos + 2);
    if (i < 0) this.fail(message, this.pos);
    this.pos = i + end.length;
  }

  /** The root element and everything inside it, iteratively (depth is bounded by the limits, not the JS stack). */
  private elements(): XmlElementNode {
    const src = this.src;
    const stack: OpenElement[] = [];
    let root: XmlElementNode | undefined;
    for (;;) {
      const lt = src.indexOf("<", this.pos);
      const top = stack[stack.length - 1];
      if (lt !== this.pos) {
        if (top === undefined) break;
        if (lt < 0) this.fail(`element <${top.qname}> is not closed`, src.length);
        this.appendText(top, src.slice(this.pos, lt), this.pos);
        this.pos = lt;
      }
      const next = src.charCodeAt(lt + 1);
      if (next === 0x2f /* / */) {
        if (top === undefined) this.fail("unexpected end tag", lt);
        const gt = src.indexOf(">", lt + 2);
        if (gt < 0) this.fail("unterminated end tag", lt);
        const name = src.slice(lt + 2, gt).trimEnd();
        if (name !== top.qname) this.fail(`end tag </${name}> does not match <${top.qname}>`, lt);
        this.pos = gt + 1;
        stack.pop();
        if (stack.length === 0) break;
      } else if (next === 0x21 /* ! */) {
        if (top === undefined) break;
        if (src.startsWith("<!--", lt)) this.skipPast("-->", "unterminated comment");
        else if (src.startsWith("<![CDATA[", lt)) {
          const end = src.indexOf("]]>", lt + 9);
          if (end < 0) this.fail("unterminated CDATA section", lt);
          const raw = src.slice(lt + 9, end);
          top.node.text += raw.includes("\r") ? raw.replace(/\r\n?/g, "\n") : raw;
          this.pos = end + 3;
        } else this.refuseDeclaration();
      } else if (next === 0x3f /* ? */) {
        if (top === undefined) break;
        this.skipPast("?>", "unterminated processing instruction");
      } else {
        if (top === undefined && root !== undefined) break;
        if (stack.length >= this.limits.maxDepth) this.fail(`elements nested deeper than ${this.limits.maxDepth}`, lt);
        const { open, selfClosing } = this.startTag(lt, top?.node.scope ?? null);
        if (top !== undefined) {
          if (top.node.children === EMPTY_CHILDREN) top.node.children = [];
          top.node.children.push(open.node);
        } else root = open.node;
        if (!selfClosing) stack.push(open);
        else if (top === undefined) break;
      }
    }
    if (stack.length > 0) this.fail(`element <${stack[stack.length - 1]!.qname}> is not closed`, src.length);
    return root!;
  }

  private appendText(top: OpenElement, raw: string, offset: number): void {
    if (raw.includes("]]>")) this.fail("']]>' is not allowed in text", offset + raw.indexOf("]]>"));
    let text = raw.includes("\r") ? raw.replace(/\r\n?/g, "\n") : raw;
    if (text.includes("&")) {
      const decoded = decodeEntities(text);
      if (typeof decoded !== "string") this.fail(decoded.message, offset + decoded.offset);
      text = decoded;
    }
    top.node.text += text;
  }

  private name(offset: number): string {
    const src = this.src;
    let i = offset;
    if (!isNameStart(src.charCodeAt(i))) this.fail("expected a name", i);
    while (i < src.length && isNameChar(src.charCodeAt(i))) i++;
    if (i - offset > this.limits.maxNameLength) this.fail(`name longer than ${this.limits.maxNameLength} characters`, offset);
    const name = src.slice(offset, i);
    const colon = name.indexOf(":");
    if (colon >= 0 && (colon === 0 || colon === name.length - 1 || name.indexOf(":", colon + 1) >= 0)) {
      this.fail(`'${name}' is not a valid qualified name`, offset);
    }
    return name;
  }

  private startTag(lt: number, parentScope: NamespaceScope | null): { open: OpenElement; selfClosing: boolean } {
    const src = this.src;
    const qname = this.name(lt + 1);
    let i = lt + 1 + qname.length;
    let raw: [string, string, number][] | undefined;
    let scope = parentScope;
    let selfClosing = false;
    for (;;) {
      const before = i;
      while (i < src.length && isSpace(src.charCodeAt(i))) i++;
      const c = src.charCodeAt(i);
      if (c === 0x3e /* > */) {
        i++;
        break;
      }
      if (c === 0x2f /* / */ && src.charCodeAt(i + 1) === 0x3e) {
        i += 2;
        selfClosing = true;
        break;
      }
      if (i >= src.length) this.fail(`unterminated start tag <${qname}>`, lt);
      if (i === before) this.fail("expected whitespace before an attribute", i);
      const attrName = this.name(i);
      i += attrName.length;
      while (isSpace(src.charCodeAt(i))) i++;
      if (src.charCodeAt(i) !== 0x3d /* = */) this.fail(`expected '=' after attribute ${attrName}`, i);
      i++;
      while (isSpace(src.charCodeAt(i))) i++;
      const quote = src.charCodeAt(i);
      if (quote !== 0x22 && quote !== 0x27) this.fail(`expected a quoted value for attribute ${attrName}`, i);
      const end = src.indexOf(quote === 0x22 ? '"' : "'", i + 1);
      if (end < 0) this.fail(`unterminated value of attribute ${attrName}`, i);
      const value = this.attributeValue(src.slice(i + 1, end), i + 1);
      raw ??= [];
      if (raw.length >= this.limits.maxAttributes) this.fail(`more than ${this.limits.maxAttributes} attributes`, i);
      for (const r of raw) if (r[0] === attrName) this.fail(`duplicate attribute ${attrName}`, i);
      if (attrName === "xmlns" || attrName.startsWith("xmlns:")) {
        const prefix = attrName.length === 5 ? "" : attrName.slice(6);
        if (prefix === "xmlns" || (prefix === "xml") !== (value === XML_NS) || value === XMLNS_NS) {
          this.fail(`reserved namespace binding ${attrName}="${value}"`, i);
        }
        if (prefix !== "" && value === "") this.fail(`prefix ${prefix} cannot be bound to the empty namespace`, i);
        scope = { prefix, uri: value, parent: scope };
      } else raw.push([attrName, value, i]);
      i = end + 1;
    }
    this.pos = i;
    const { prefix, local } = splitName(qname);
    const ns = this.namespaceOf(prefix, scope, true, lt);
    let attrs = EMPTY_ATTRS;
    if (raw !== undefined && raw.length > 0) {
      const list: XmlAttribute[] = [];
      for (const [name, value, at] of raw) {
        const a = splitName(name);
        const ans = a.prefix === "" ? "" : this.namespaceOf(a.prefix, scope, false, at);
        for (const b of list) if (b.local === a.local && b.ns === ans) this.fail(`duplicate attribute {${ans}}${a.local}`, at);
        list.push({ ns: ans, local: a.local, prefix: a.prefix, value });
      }
      attrs = list;
    }
    return { open: { node: { ns, local, prefix, attrs, children: EMPTY_CHILDREN as XmlElementNode[], text: "", scope }, qname }, selfClosing };
  }

  /** Attribute-value normalization (line ends and tabs become spaces) before references are expanded, as XML says. */
  private attributeValue(raw: string, offset: number): string {
    if (raw.includes("<")) this.fail("'<' is not allowed in an attribute value", offset + raw.indexOf("<"));
    const normalized = /[\t\n\r]/.test(raw) ? raw.replace(/\r\n|[\t\n\r]/g, " ") : raw;
    if (!normalized.includes("&")) return normalized;
    const decoded = decodeEntities(normalized);
    if (typeof decoded !== "string") this.fail(decoded.message, offset + decoded.offset);
    return decoded;
  }

  private namespaceOf(prefix: string, scope: NamespaceScope | null, element: boolean, at: number): string {
    if (prefix === "xml") return XML_NS;
    if (prefix === "xmlns") this.fail("the xmlns prefix cannot name an element or attribute", at);
    for (let s = scope; s !== null; s = s.parent) if (s.prefix === prefix) return s.uri;
    if (prefix === "" && element) return "";
    return this.fail(`unbound namespace prefix '${prefix}'`, at);
  }
}

function splitName(qname: string): { prefix: string; local: string } {
  const colon = qname.indexOf(":");
  return colon < 0 ? { prefix: "", local: qname } : { prefix: qname.slice(0, colon), local: qname.slice(colon + 1) };
}
