import { decodeEntitiesIn } from "../../xml/entities.js";
import { resolveLimits, type XmlLimits } from "../../xml/limits.js";
import type { NamespaceScope } from "../../xml/node.js";
import {
  attributeQuotes,
  attributeValueAt,
  checkForbiddenChars,
  checkNamespaceBinding,
  failAt,
  isNameChar,
  isNameStart,
  isSpace,
  namespaceAt,
  refuseDeclaration,
  skipMisc,
} from "../../xml/scan.js";

/**
 * A full-fidelity element tree for what XML Signature needs and the light tree (xml/node.ts) drops: text, comments
 * and processing instructions in document order, each element's own namespace declarations, and the offsets where
 * every element starts and ends (so a signer can splice text into the very document it canonicalized). It is read
 * with the same lexical rules, limits and refusals (no DOCTYPE, so no entity expansion) as the other readers.
 */

export interface DomAttribute {
  readonly prefix: string;
  readonly local: string;
  readonly ns: string;
  readonly value: string;
}

export interface DomElement {
  readonly kind: "element";
  readonly prefix: string;
  readonly local: string;
  readonly ns: string;
  /** Namespace declarations written on this element, in document order ("" is the default namespace). */
  readonly nsDecls: readonly { readonly prefix: string; readonly uri: string }[];
  readonly attrs: readonly DomAttribute[];
  readonly children: readonly DomNode[];
  readonly parent: DomElement | null;
  /** Every binding in scope here (this element's declarations first). */
  readonly scope: NamespaceScope | null;
  /** Offset of `<` of the start tag, and offset just past the end tag (or `/>`). */
  readonly start: number;
  end: number;
}

export type DomNode =
  | DomElement
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "comment"; readonly text: string }
  | { readonly kind: "pi"; readonly target: string; readonly data: string };

interface MutableElement extends DomElement {
  readonly children: DomNode[];
}

/** Parse a whole document; returns its root element. Throws XmlParseError (with line and column). */
export function parseDom(src: string, limits?: Partial<XmlLimits>): DomElement {
  // Security headers carry a handful of attributes per element; this parser's duplicate check is a scan, so it keeps
  // the former bound of 64 unless told otherwise (the XML readers' default grew to 4,096 with a linear check).
  const lim = resolveLimits({ maxAttributes: 64, ...limits });
  if (src.length > lim.maxBytes) failAt(src, `document exceeds ${lim.maxBytes} characters`, lim.maxBytes);
  checkForbiddenChars(src);
  const hasCR = src.includes("\r");
  let pos = skipMisc(src, src.charCodeAt(0) === 0xfeff ? 1 : 0);
  if (src.charCodeAt(pos) !== 0x3c) failAt(src, "expected the root element", pos);
  let root: DomElement | undefined;
  let current: MutableElement | null = null;
  let depth = 0;
  const open: { name: string; el: MutableElement }[] = [];
  while (pos < src.length) {
    if (current === null && root !== undefined) {
      pos = skipMisc(src, pos);
      if (pos < src.length) failAt(src, "content after the root element", pos);
      break;
    }
    const c = src.charCodeAt(pos);
    if (c !== 0x3c) {
      // Character data up to the next markup.
      let lt = src.indexOf("<", pos);
      if (lt < 0) lt = src.length;
      if (current === null) failAt(src, "text outside the root element", pos);
      const gt = src.indexOf("]]>", pos);
      if (gt >= 0 && gt < lt) failAt(src, "']]>' is not allowed in text", gt);
      // Line ends are normalized before references are expanded: &#13; stays a carriage return.
      const decoded = hasCR ? decodeEntitiesIn(lineEnds(src.slice(pos, lt)), 0, Infinity) : decodeEntitiesIn(src, pos, lt);
      if (typeof decoded !== "string") failAt(src, decoded.message, pos + decoded.offset);
      pushText(current, decoded);
      pos = lt;
      continue;
    }
    if (src.startsWith("<!--", pos)) {
      const end = src.indexOf("-->", pos + 4);
      if (end < 0) failAt(src, "unterminated comment", pos);
      current!.children.push({ kind: "comment", text: lineEnds(src.slice(pos + 4, end)) });
      pos = end + 3;
    } else if (src.startsWith("<![CDATA[", pos)) {
      const end = src.indexOf("]]>", pos + 9);
      if (end < 0) failAt(src, "unterminated CDATA section", pos);
      pushText(current!, lineEnds(src.slice(pos + 9, end)));
      pos = end + 3;
    } else if (src.startsWith("<?", pos)) {
      const end = src.indexOf("?>", pos + 2);
      if (end < 0) failAt(src, "unterminated processing instruction", pos);
      const body = src.slice(pos + 2, end);
      const m = /^([^\s?]+)\s*([\s\S]*)$/.exec(body);
      if (!m || m[1]!.toLowerCase() === "xml") failAt(src, "malformed processing instruction", pos);
      current!.children.push({ kind: "pi", target: m[1]!, data: lineEnds(m[2]!) });
      pos = end + 2;
    } else if (src.startsWith("<!", pos)) {
      refuseDeclaration(src, pos);
    } else if (src.charCodeAt(pos + 1) === 0x2f /* / */) {
      const top = open.pop();
      const nameEnd = nameEndAt(src, pos + 2, lim);
      const name = src.slice(pos + 2, nameEnd);
      if (top === undefined || name !== top.name) failAt(src, `mismatched end tag </${name}>`, pos);
      let i = nameEnd;
      while (isSpace(src.charCodeAt(i))) i++;
      if (src.charCodeAt(i) !== 0x3e) failAt(src, "expected '>' after the end tag's name", i);
      top.el.end = i + 1;
      pos = i + 1;
      depth--;
      current = open.length === 0 ? null : open[open.length - 1]!.el;
    } else {
      if (++depth > lim.maxDepth) failAt(src, `elements nest deeper than ${lim.maxDepth}`, pos);
      const { el, name, selfClosing, next } = startTag(src, pos, current, lim);
      if (current === null) root = el;
      else current.children.push(el);
      pos = next;
      if (selfClosing) {
        el.end = next;
        depth--;
      } else {
        open.push({ name, el });
        current = el;
      }
    }
  }
  if (open.length > 0 || root === undefined) failAt(src, "unexpected end of document: unclosed elements", src.length);
  return root;
}

/** XML's end-of-line handling: CRLF and a lone CR are read as LF. */
function lineEnds(text: string): string {
  return text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
}

function pushText(el: MutableElement, text: string): void {
  if (text === "") return;
  const last = el.children[el.children.length - 1];
  if (last !== undefined && last.kind === "text") el.children[el.children.length - 1] = { kind: "text", text: last.text + text };
  else el.children.push({ kind: "text", text });
}

function nameEndAt(src: string, from: number, lim: XmlLimits): number {
  if (!isNameStart(src.charCodeAt(from))) failAt(src, "expected a name", from);
  let i = from + 1;
  while (i < src.length && isNameChar(src.charCodeAt(i))) i++;
  if (i - from > lim.maxNameLength) failAt(src, `name longer than ${lim.maxNameLength} characters`, from);
  return i;
}

function splitName(name: string): [string, string] {
  const colon = name.indexOf(":");
  return colon < 0 ? ["", name] : [name.slice(0, colon), name.slice(colon + 1)];
}

function startTag(
  src: string,
  at: number,
  parent: DomElement | null,
  lim: XmlLimits,
): { el: MutableElement; name: string; selfClosing: boolean; next: number } {
  const nameEnd = nameEndAt(src, at + 1, lim);
  const name = src.slice(at + 1, nameEnd);
  const raw: { name: string; value: string; at: number }[] = [];
  const decls: { prefix: string; uri: string }[] = [];
  let scope: NamespaceScope | null = parent === null ? null : parent.scope;
  const quotes: [number, number] = [0, 0];
  let i = nameEnd;
  let selfClosing = false;
  for (;;) {
    const before = i;
    while (isSpace(src.charCodeAt(i))) i++;
    const c = src.charCodeAt(i);
    if (c === 0x3e) {
      i++;
      break;
    }
    if (c === 0x2f && src.charCodeAt(i + 1) === 0x3e) {
      selfClosing = true;
      i += 2;
      break;
    }
    if (i >= src.length) failAt(src, `unterminated start tag <${name}>`, at);
    if (i === before) failAt(src, "expected whitespace between attributes", i);
    const attrEnd = nameEndAt(src, i, lim);
    const attrName = src.slice(i, attrEnd);
    attributeQuotes(src, attrEnd, attrName, quotes);
    const value = attributeValueAt(src, src.slice(quotes[0] + 1, quotes[1]), quotes[0] + 1);
    if (raw.some((a) => a.name === attrName) || decls.some((d) => (d.prefix === "" ? "xmlns" : `xmlns:${d.prefix}`) === attrName)) {
      failAt(src, `duplicate attribute ${attrName}`, i);
    }
    if (raw.length + decls.length >= lim.maxAttributes) failAt(src, `more than ${lim.maxAttributes} attributes`, i);
    if (attrName === "xmlns" || attrName.startsWith("xmlns:")) {
      const prefix = attrName === "xmlns" ? "" : attrName.slice(6);
      checkNamespaceBinding(src, attrName, prefix, value, i);
      decls.push({ prefix, uri: value });
      scope = { prefix, uri: value, parent: scope };
    } else raw.push({ name: attrName, value, at: i });
    i = quotes[1] + 1;
  }
  const [prefix, local] = splitName(name);
  const ns = namespaceAt(src, prefix, scope, true, at);
  const attrs: DomAttribute[] = [];
  for (const a of raw) {
    const [p, l] = splitName(a.name);
    const attrNs = p === "" ? "" : namespaceAt(src, p, scope, false, a.at);
    if (p !== "" && attrs.some((b) => b.ns === attrNs && b.local === l)) failAt(src, `duplicate attribute {${attrNs}}${l}`, a.at);
    attrs.push({ prefix: p, local: l, ns: attrNs, value: a.value });
  }
  const el: MutableElement = { kind: "element", prefix, local, ns, nsDecls: decls, attrs, children: [], parent, scope, start: at, end: -1 };
  return { el, name, selfClosing, next: i };
}

/** The element children of `el`. */
export function childElements(el: DomElement): DomElement[] {
  const out: DomElement[] = [];
  for (const c of el.children) if (c.kind === "element") out.push(c);
  return out;
}

/** The concatenated text of the element's own text children (no descendants). */
export function ownText(el: DomElement): string {
  let out = "";
  for (const c of el.children) if (c.kind === "text") out += c.text;
  return out;
}

export function domAttr(el: DomElement, ns: string, local: string): string | undefined {
  for (const a of el.attrs) if (a.local === local && a.ns === ns) return a.value;
  return undefined;
}

/** The namespace `prefix` is bound to at `el` ("" when the default namespace is undeclared), or undefined. */
export function domLookup(el: DomElement, prefix: string): string | undefined {
  if (prefix === "xml") return "http://www.w3.org/XML/1998/namespace";
  for (let s = el.scope; s !== null; s = s.parent) if (s.prefix === prefix) return s.uri;
  return prefix === "" ? "" : undefined;
}

/** Every element of the tree, in document order (iterative: the depth is bounded, but a stack is cheap). */
export function* allElements(root: DomElement): Generator<DomElement> {
  const stack: DomElement[] = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    yield el;
    for (let i = el.children.length - 1; i >= 0; i--) {
      const c = el.children[i]!;
      if (c.kind === "element") stack.push(c);
    }
  }
}
