import { KeptInstance } from "./kept-instance.js";
import type { XmlLimits } from "./limits.js";
import type { NamespaceScope, XmlAttribute, XmlElementNode } from "./node.js";
import { parseXmlElementAt } from "./parse.js";
import { XmlPullReader } from "./pull.js";

/**
 * An element met by an XmlPullReader (a SOAP body or header element), handed to code that takes an XmlElementNode.
 * Its name is known at once; its tree (attrs, children, text, scope) is built only if something asks for it. The
 * generated decoders never do: they read the element from the text, through the reader that met it when it is
 * still on the element's start tag (the SOAP body: decoded in the same pass that reads the envelope), else through
 * a new reader started at the element's offset (a header, decoded after the envelope was read and checked).
 */
export class PulledElement implements XmlElementNode {
  readonly ns: string;
  readonly local: string;
  readonly prefix: string;
  /** The namespace as the document wrote it (differs from `ns` only under namespace aliases). */
  readonly declaredNs: string;
  private readonly start: number;
  private readonly tag: number;
  private readonly parentScope: NamespaceScope | null;
  private tree: XmlElementNode | undefined;

  constructor(private readonly reader: XmlPullReader) {
    this.ns = reader.ns;
    this.local = reader.local;
    this.prefix = reader.prefix;
    this.declaredNs = reader.declaredNs;
    this.start = reader.start;
    this.tag = reader.tags;
    this.parentScope = reader.parentScope;
    KEPT_ELEMENT.constructed();
  }

  /** A reader on this element's start tag (the one that met it, if it has not moved on). */
  pullReader(): XmlPullReader {
    const r = this.reader;
    if (r.fresh && r.tags === this.tag) return r;
    return XmlPullReader.element(r.src, this.start, this.parentScope, r.limits, r.aliases);
  }

  private built(): XmlElementNode {
    return (this.tree ??= parseXmlElementAt(this.reader.src, this.start, this.parentScope, this.reader.limits, this.reader.aliases));
  }
  get attrs(): readonly XmlAttribute[] {
    return this.built().attrs;
  }
  get children(): readonly XmlElementNode[] {
    return this.built().children;
  }
  get text(): string {
    return this.built().text;
  }
  get scope(): NamespaceScope | null {
    return this.built().scope;
  }
}

/** A pulled element kept alive, so that optimized code handling them survives full GCs (see KeptInstance). */
const KEPT_ELEMENT = /* @__PURE__ */ new KeptInstance(() => new PulledElement(XmlPullReader.document("<kept/>")));

/** What readers are made from: a pulled element (duck-typed: the runtime may be loaded twice, src and dist). */
interface Pullable {
  pullReader(): XmlPullReader;
}

function isPullable(node: XmlElementNode): node is XmlElementNode & Pullable {
  return typeof (node as Partial<Pullable>).pullReader === "function";
}

/**
 * A reader on `input`'s root element, and whether it reads a whole document (whose rest must be checked after the
 * element). A tree node that was not pulled is written back to text first: one decoding path, and trees handed to
 * decoders are rare (tests, hand-written code).
 */
export function readerOf(input: string | XmlElementNode, limits: Partial<XmlLimits> | undefined): { reader: XmlPullReader; whole: boolean } {
  if (typeof input === "string") return { reader: XmlPullReader.document(input, limits), whole: true };
  if (isPullable(input)) return { reader: input.pullReader(), whole: false };
  return { reader: XmlPullReader.document(nodeText(input), UNBOUNDED), whole: false };
}

/** A reader on a tree node (the codecs' `decode(node)`). */
export function readerOfNode(node: XmlElementNode): XmlPullReader {
  return readerOf(node, undefined).reader;
}

/** A tree was bounded when it was parsed: its text is not bounded again. */
const UNBOUNDED: XmlLimits = { maxBytes: Infinity, maxDepth: Infinity, maxAttributes: Infinity, maxNameLength: Infinity };

/** `node` as XML text that reads back as the same element (names, namespaces, attributes, text, scope). */
export function nodeText(node: XmlElementNode): string {
  const out: string[] = [];
  write(node, undefined, out, 0);
  return out.join("");
}

function write(node: XmlElementNode, parentScope: NamespaceScope | null | undefined, out: string[], depth: number): void {
  const decls = new Map<string, string>();
  // Bindings the element adds to its parent's (all of them at the root, or when the scope chain is not shared).
  let reached = parentScope === undefined;
  for (let s = node.scope; s !== null; s = s.parent) {
    if (s === parentScope) {
      reached = true;
      break;
    }
    if (!decls.has(s.prefix)) decls.set(s.prefix, s.uri);
  }
  if (!reached && parentScope !== undefined) {
    // A hand-built tree whose child scope does not extend its parent's: declare the child's whole chain.
    for (let s = node.scope; s !== null; s = s.parent) if (!decls.has(s.prefix)) decls.set(s.prefix, s.uri);
  }
  const bound = (prefix: string): string | undefined => {
    if (decls.has(prefix)) return decls.get(prefix);
    for (let s = node.scope; s !== null; s = s.parent) if (s.prefix === prefix) return s.uri;
    return prefix === "" ? "" : undefined;
  };
  // The element's own prefix must name its namespace; declare it here when the scope says otherwise.
  if (bound(node.prefix) !== node.ns && node.prefix !== "xml") decls.set(node.prefix, node.ns);
  let tag = (node.prefix === "" ? "" : node.prefix + ":") + node.local;
  const name = tag;
  let extra = 0;
  const attrs: string[] = [];
  for (const a of node.attrs) {
    let prefix = a.ns === "" ? "" : a.prefix;
    if (a.ns !== "" && prefix !== "xml" && (prefix === "" || bound(prefix) !== a.ns)) {
      prefix = `sfa${extra++}`;
      decls.set(prefix, a.ns);
    }
    attrs.push(` ${prefix === "" ? "" : prefix + ":"}${a.local}="${escapeValue(a.value)}"`);
  }
  for (const [prefix, uri] of decls) tag += ` ${prefix === "" ? "xmlns" : "xmlns:" + prefix}="${escapeValue(uri)}"`;
  out.push("<", tag, ...attrs, ">", escapeContent(node.text));
  for (const c of node.children) write(c, node.scope, out, depth + 1);
  out.push("</", name, ">");
}

function escapeContent(text: string): string {
  return /[&<>\r]/.test(text) ? text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#13;") : text;
}

function escapeValue(text: string): string {
  return /[&<"\t\n\r]/.test(text)
    ? text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;").replace(/\t/g, "&#9;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;")
    : text;
}
