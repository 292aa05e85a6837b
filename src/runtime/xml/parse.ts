import { decodeEntities, decodeEntitiesIn } from "./entities.js";
import { resolveLimits, SCAN_ATTRIBUTES, type XmlLimits } from "./limits.js";
import type { NamespaceScope, XmlAttribute, XmlElementNode } from "./node.js";
import { attributeQuotes, attributeValueAt, checkNamespaceBinding, checkForbiddenChars, failAt, indexOrEnd, internalized, isNameChar, isNameStart, isSpace, namespaceAt, refuseDeclaration, skipMisc, skipPast } from "./scan.js";

/** The quotes of the attribute value being read (see attributeQuotes). */
const QUOTES: [number, number] = [0, 0];

/**
 * A namespace-aware XML parser for payloads (SOAP envelopes and the elements inside them), written for untrusted
 * input: DOCTYPE (and with it every entity declaration) is refused, only predefined entities and character
 * references are expanded, and size, depth, attribute count and name length are bounded. It builds the light
 * `XmlElementNode` tree the generated decoders walk. Comments and processing instructions are skipped.
 */
export function parseXml(text: string, limits?: Partial<XmlLimits>): XmlElementNode {
  return new Parser(text, resolveLimits(limits)).document();
}

/**
 * The tree of one element of a document already read (and checked) by an XmlPullReader: the element whose start tag
 * is at `offset`, in the bindings `scope`, namespaces mapped through `aliases`. What a pulled element builds when
 * code asks it for its children.
 */
export function parseXmlElementAt(
  text: string,
  offset: number,
  scope: NamespaceScope | null,
  limits: XmlLimits,
  aliases?: ReadonlyMap<string, string>,
): XmlElementNode {
  return new Parser(text, limits, scope, aliases).elementAt(offset);
}

const EMPTY_ATTRS: readonly XmlAttribute[] = /* @__PURE__ */ Object.freeze([]);
const EMPTY_CHILDREN: readonly XmlElementNode[] = /* @__PURE__ */ Object.freeze([]);

/** The tree node under construction: XmlElementNode with writable children and text. */
interface BuildingNode {
  ns: string;
  local: string;
  prefix: string;
  attrs: readonly XmlAttribute[];
  children: XmlElementNode[];
  text: string;
  scope: NamespaceScope | null;
}


class Parser {
  private pos = 0;

  constructor(
    private readonly src: string,
    private readonly limits: XmlLimits,
    /** The bindings in scope at the root (parseXmlElementAt). */
    private readonly rootScope: NamespaceScope | null = null,
    /** A declared namespace URI -> the URI to report instead (the SOAP server's namespace aliases). */
    private readonly aliases?: ReadonlyMap<string, string>,
  ) {}

  elementAt(offset: number): XmlElementNode {
    this.pos = offset;
    return this.elements();
  }

  document(): XmlElementNode {
    const src = this.src;
    if (src.length > this.limits.maxBytes) this.fail(`document larger than ${this.limits.maxBytes} characters`, 0);
    checkForbiddenChars(src);
    if (src.charCodeAt(0) === 0xfeff) this.pos = 1;
    this.misc();
    if (this.pos >= src.length || src.charCodeAt(this.pos) !== 0x3c) this.fail("expected the root element", this.pos);
    const root = this.elements();
    this.misc();
    if (this.pos < src.length) this.fail("content after the root element", this.pos);
    return root;
  }

  private fail(message: string, offset: number): never {
    return failAt(this.src, message, offset);
  }

  /** Whitespace, comments, processing instructions (and the XML declaration) outside the root element. */
  private misc(): void {
    this.pos = skipMisc(this.src, this.pos);
  }

  private refuseDeclaration(): never {
    return refuseDeclaration(this.src, this.pos);
  }

  private skipPast(end: string, message: string): void {
    this.pos = skipPast(this.src, this.pos, end, message);
  }

  /**
   * The root element and everything inside it, iteratively (depth is bounded by the limits, not the JS stack).
   * This loop is the hot path of every SOAP decode: it allocates nothing per element beyond the node itself and the
   * strings it keeps, and end tags are matched in place rather than sliced out.
   */
  private elements(): XmlElementNode {
    const src = this.src;
    const open: BuildingNode[] = [];
    const qnames: string[] = [];
    let root: XmlElementNode | undefined;
    for (;;) {
      const lt = src.indexOf("<", this.pos);
      const depth = open.length;
      const top = depth > 0 ? open[depth - 1] : undefined;
      if (lt !== this.pos) {
        if (top === undefined) break;
        if (lt < 0) this.fail(`element <${qnames[depth - 1]}> is not closed`, src.length);
        this.appendText(top, this.pos, lt);
        this.pos = lt;
      }
      const next = src.charCodeAt(lt + 1);
      if (next === 0x2f /* / */) {
        if (top === undefined) this.fail("unexpected end tag", lt);
        this.pos = this.endTag(lt, qnames[depth - 1]!);
        open.pop();
        qnames.pop();
        if (depth === 1) break;
      } else if (next === 0x21 /* ! */) {
        if (top === undefined) break;
        if (src.startsWith("<!--", lt)) this.skipPast("-->", "unterminated comment");
        else if (src.startsWith("<![CDATA[", lt)) {
          const end = src.indexOf("]]>", lt + 9);
          if (end < 0) this.fail("unterminated CDATA section", lt);
          const raw = src.slice(lt + 9, end);
          top.text += raw.includes("\r") ? raw.replace(/\r\n?/g, "\n") : raw;
          this.pos = end + 3;
        } else this.refuseDeclaration();
      } else if (next === 0x3f /* ? */) {
        if (top === undefined) break;
        this.skipPast("?>", "unterminated processing instruction");
      } else {
        if (top === undefined && root !== undefined) break;
        if (depth >= this.limits.maxDepth) this.fail(`elements nested deeper than ${this.limits.maxDepth}`, lt);
        const node = this.startTag(lt, top === undefined ? this.rootScope : top.scope);
        if (top !== undefined) {
          if (top.children === EMPTY_CHILDREN) top.children = [];
          top.children.push(node);
        } else root = node;
        if (!this.selfClosing) {
          open.push(node);
          qnames.push(this.qname);
        } else if (top === undefined) break;
      }
    }
    if (open.length > 0) this.fail(`element <${qnames[qnames.length - 1]}> is not closed`, src.length);
    return root!;
  }

  /** The end tag at `lt` must close `qname`; returns the offset after it. */
  private endTag(lt: number, qname: string): number {
    const src = this.src;
    // One substring compared whole: measurably faster here than startsWith at an offset or a code-unit loop.
    const after = lt + 2 + qname.length;
    if (src.substring(lt + 2, after) === qname) {
      let i = after;
      while (isSpace(src.charCodeAt(i))) i++;
      if (src.charCodeAt(i) === 0x3e /* > */) return i + 1;
    }
    // The slow path, only for errors (and exotic trailing whitespace): read the whole name to report it.
    const gt = src.indexOf(">", lt + 2);
    if (gt < 0) this.fail("unterminated end tag", lt);
    const name = src.slice(lt + 2, gt).trimEnd();
    if (name !== qname) this.fail(`end tag </${name}> does not match <${qname}>`, lt);
    return gt + 1;
  }

  /**
   * Append the character data between `start` and `end`. The next '&', CR and ']]>' are found by one forward search
   * each, remembered across calls, so plain text (nearly all of it) costs a single slice.
   */
  private appendText(top: BuildingNode, start: number, end: number): void {
    const src = this.src;
    if (this.nextCdataEnd < start) this.nextCdataEnd = indexOrEnd(src, "]]>", start);
    if (this.nextCdataEnd < end) this.fail("']]>' is not allowed in text", this.nextCdataEnd);
    if (this.nextCr < start) this.nextCr = indexOrEnd(src, "\r", start);
    if (this.nextAmp < start) this.nextAmp = indexOrEnd(src, "&", start);
    let text: string;
    if (this.nextCr < end) {
      const decoded = decodeEntities(src.slice(start, end).replace(/\r\n?/g, "\n"));
      // Offsets after a folded CRLF are off by one per fold; close enough for a message that quotes the reference.
      if (typeof decoded !== "string") this.fail(decoded.message, start + decoded.offset);
      text = decoded;
    } else if (this.nextAmp < end) {
      const decoded = decodeEntitiesIn(src, start, end);
      if (typeof decoded !== "string") this.fail(decoded.message, start + decoded.offset);
      text = decoded;
    } else text = src.slice(start, end);
    top.text = top.text === "" ? text : top.text + text;
  }

  /** Where the next ']]>', CR and '&' at or after the last text read are (src.length when there is none). */
  private nextCdataEnd = -1;
  private nextCr = -1;
  private nextAmp = -1;

  /** Set by name(): the offset of the name's colon in the source, or -1. */
  private colonAt = -1;

  /** The (qualified) name at `offset`, checked: one colon at most, not first or last. */
  private name(offset: number): string {
    const src = this.src;
    let i = offset;
    if (!isNameStart(src.charCodeAt(i))) this.fail("expected a name", i);
    let colon = -1;
    let colons = 0;
    for (;;) {
      const c = src.charCodeAt(i);
      if (c === 0x3a /* : */) {
        colon = i;
        colons++;
      } else if (!isNameChar(c)) break;
      i++;
    }
    if (i - offset > this.limits.maxNameLength) this.fail(`name longer than ${this.limits.maxNameLength} characters`, offset);
    const name = src.slice(offset, i);
    if (colons > 1 || colon === offset || colon === i - 1) this.fail(`'${name}' is not a valid qualified name`, offset);
    this.colonAt = colon < 0 ? -1 : colon - offset;
    return name;
  }

  /** Set by startTag: whether the tag just read was `<.../>`, and its qualified name (for matching the end tag). */
  private selfClosing = false;
  private qname = "";
  /** The last element prefix resolved and the scope it was resolved in: siblings nearly always repeat both. */
  private lastScope: NamespaceScope | null | undefined = undefined;
  private lastPrefix = "";
  private lastUri = "";

  private startTag(lt: number, parentScope: NamespaceScope | null): BuildingNode {
    const src = this.src;
    const qname = this.name(lt + 1);
    const colon = this.colonAt; // read now: attribute names overwrite it
    let i = lt + 1 + qname.length;
    let raw: [string, string, number][] | undefined;
    let seenRaw: Set<string> | undefined;
    let seenExpanded: Set<string> | undefined;
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
      attributeQuotes(src, i, attrName, QUOTES);
      i = QUOTES[0];
      const end = QUOTES[1];
      const value = attributeValueAt(src, src.slice(i + 1, end), i + 1);
      raw ??= [];
      if (raw.length >= this.limits.maxAttributes) this.fail(`more than ${this.limits.maxAttributes} attributes`, i);
      if (raw.length < SCAN_ATTRIBUTES) {
        for (const r of raw) if (r[0] === attrName) this.fail(`duplicate attribute ${attrName}`, i);
      } else {
        // Many attributes: a set keeps the duplicate check linear (a scan per attribute would be quadratic).
        if (raw.length === SCAN_ATTRIBUTES) seenRaw = new Set(raw.map((r) => r[0]));
        if (seenRaw!.has(attrName)) this.fail(`duplicate attribute ${attrName}`, i);
        seenRaw!.add(attrName);
      }
      if (attrName === "xmlns" || attrName.startsWith("xmlns:")) {
        const prefix = attrName.length === 5 ? "" : attrName.slice(6);
        checkNamespaceBinding(src, attrName, prefix, value, i);
        const uri = internalized(value);
        scope = { prefix, uri: this.aliases?.get(uri) ?? uri, parent: scope };
        // Declarations are also kept in `raw` until the loop ends, so a repeated xmlns:p is a duplicate attribute.
        raw.push([attrName, "", -1]);
      } else raw.push([attrName, value, i]);
      i = end + 1;
    }
    this.pos = i;
    this.selfClosing = selfClosing;
    this.qname = qname;
    const prefix = colon < 0 ? "" : qname.slice(0, colon);
    const local = colon < 0 ? qname : qname.slice(colon + 1);
    let ns: string;
    if (scope === this.lastScope && prefix === this.lastPrefix) ns = this.lastUri;
    else {
      ns = this.namespaceOf(prefix, scope, true, lt);
      this.lastScope = scope;
      this.lastPrefix = prefix;
      this.lastUri = ns;
    }
    let attrs = EMPTY_ATTRS;
    if (raw !== undefined) {
      let list: XmlAttribute[] | undefined;
      for (const [name, value, at] of raw) {
        if (at < 0) continue;
        const a = splitName(name);
        const ans = a.prefix === "" ? "" : this.namespaceOf(a.prefix, scope, false, at);
        list ??= [];
        if (list.length < SCAN_ATTRIBUTES) {
          for (const b of list) if (b.local === a.local && b.ns === ans) this.fail(`duplicate attribute {${ans}}${a.local}`, at);
        } else {
          if (list.length === SCAN_ATTRIBUTES) seenExpanded = new Set(list.map((b) => `{${b.ns}}${b.local}`));
          if (seenExpanded!.has(`{${ans}}${a.local}`)) this.fail(`duplicate attribute {${ans}}${a.local}`, at);
          seenExpanded!.add(`{${ans}}${a.local}`);
        }
        list.push({ ns: ans, local: a.local, prefix: a.prefix, value });
      }
      if (list !== undefined) attrs = list;
    }
    return { ns, local, prefix, attrs, children: EMPTY_CHILDREN as XmlElementNode[], text: "", scope };
  }

  private namespaceOf(prefix: string, scope: NamespaceScope | null, element: boolean, at: number): string {
    return namespaceAt(this.src, prefix, scope, element, at);
  }
}



function splitName(qname: string): { prefix: string; local: string } {
  const colon = qname.indexOf(":");
  return colon < 0 ? { prefix: "", local: qname } : { prefix: qname.slice(0, colon), local: qname.slice(colon + 1) };
}
