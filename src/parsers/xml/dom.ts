/**
 * A tiny namespace-aware DOM: just enough to lower WSDL/XSD. Every element remembers its file, its position and its
 * in-scope prefix map, because XSD/WSDL put QNames inside attribute *values* (type="tns:Foo") and those can only be
 * resolved against the declarations in scope at that element.
 */
import { SpecError } from "../../errors.js";

export const XML_NS = "http://www.w3.org/XML/1998/namespace";

export interface XmlName {
  readonly ns: string;
  readonly local: string;
  readonly prefix: string;
}

export interface XmlAttr {
  readonly name: XmlName;
  readonly value: string;
}

export interface XmlElement {
  readonly name: XmlName;
  readonly attrs: readonly XmlAttr[];
  readonly children: XmlElement[];
  /** Text and child elements in document order (documentation may contain markup such as <br/>). */
  readonly nodes: (string | XmlElement)[];
  /** Absolute path of the file the element was read from. */
  readonly file: string;
  /** Where the display path for errors comes from (host.displayPath of `file`). */
  readonly displayFile: string;
  /** 1-based position of the element's `<`. */
  readonly line: number;
  readonly column: number;
  /** prefix -> namespace in scope at this element; "" is the default namespace. */
  readonly scope: Readonly<Record<string, string>>;
  readonly parent: XmlElement | undefined;
}

/** An unqualified attribute's value (XSD/WSDL attributes are all unqualified). */
export function attr(el: XmlElement, local: string): string | undefined {
  for (const a of el.attrs) if (a.name.local === local && a.name.ns === "") return a.value;
  return undefined;
}

export function attrNs(el: XmlElement, ns: string, local: string): string | undefined {
  for (const a of el.attrs) if (a.name.local === local && a.name.ns === ns) return a.value;
  return undefined;
}

export function childrenNs(el: XmlElement, ns: string, local?: string): XmlElement[] {
  return el.children.filter((c) => c.name.ns === ns && (local === undefined || c.name.local === local));
}

export function firstChild(el: XmlElement, ns: string, local: string): XmlElement | undefined {
  return el.children.find((c) => c.name.ns === ns && c.name.local === local);
}

export function specError(el: XmlElement, detail: string): SpecError {
  return new SpecError(el.displayFile, el.line, el.column, detail);
}

/** All descendant text in document order. */
export function textContent(el: XmlElement): string {
  let out = "";
  for (const n of el.nodes) out += typeof n === "string" ? n : textContent(n);
  return out;
}

/** Resolves a QName-valued attribute ("tns:Foo" or "Foo") against the element's in-scope namespaces. */
export function resolveQName(el: XmlElement, value: string): { ns: string; local: string } {
  const v = value.trim();
  const colon = v.indexOf(":");
  if (colon < 0) return { ns: el.scope[""] ?? "", local: v };
  const prefix = v.slice(0, colon);
  const local = v.slice(colon + 1);
  if (prefix === "xml") return { ns: XML_NS, local };
  const ns = el.scope[prefix];
  if (ns === undefined) throw specError(el, `unknown namespace prefix '${prefix}' in '${v}'`);
  return { ns, local };
}

/** Well-known namespaces get a fixed prefix in pointers, so pointers do not depend on the spec's own prefixes. */
const CANONICAL_PREFIX: Readonly<Record<string, string>> = {
  "http://www.w3.org/2001/XMLSchema": "xsd",
  "http://schemas.xmlsoap.org/wsdl/": "wsdl",
  "http://schemas.xmlsoap.org/wsdl/soap/": "soap",
  "http://schemas.xmlsoap.org/wsdl/soap12/": "soap12",
};

function step(el: XmlElement): string {
  const prefix = CANONICAL_PREFIX[el.name.ns] ?? el.name.prefix;
  const qn = prefix ? `${prefix}:${el.name.local}` : el.name.local;
  const name = attr(el, "name");
  if (name !== undefined) return `${qn}[@name='${name}']`;
  if (!el.parent) return qn;
  const { index, of } = positionAmongSame(el, el.parent);
  // Schemas are always indexed (a WSDL may hold several); other unnamed elements only when ambiguous.
  if (of > 1 || el.name.local === "schema") return `${qn}[${index}]`;
  return qn;
}

/** Each element's 1-based position among its parent's children of the same name, and how many those are. */
const POSITIONS = new WeakMap<XmlElement, Map<XmlElement, { index: number; of: number }>>();

/**
 * The position of `el` among the children of `parent` with its name. Worked out for all of the parent's children at
 * once and kept: a WSDL holding N schemas asks for each schema's position once per origin inside it. Counting the
 * siblings each time, the partner schemas repeated 40x generated in process at 134 ms a copy; without, 106 ms
 * (1x: 117 ms).
 */
function positionAmongSame(el: XmlElement, parent: XmlElement): { index: number; of: number } {
  let positions = POSITIONS.get(parent);
  if (positions === undefined) {
    positions = new Map();
    const byName = new Map<string, XmlElement[]>();
    for (const child of parent.children) {
      const key = `{${child.name.ns}}${child.name.local}`;
      const same = byName.get(key) ?? byName.set(key, []).get(key)!;
      same.push(child);
    }
    for (const same of byName.values()) same.forEach((child, i) => positions!.set(child, { index: i + 1, of: same.length }));
    POSITIONS.set(parent, positions);
  }
  return positions.get(el)!;
}

/** Each element's XPath, once made (every origin inside an element repeats its ancestors' steps). */
const XPATHS = new WeakMap<XmlElement, string>();

/** An XPath locating the element in its file, e.g. /wsdl:definitions/wsdl:types/xsd:schema[1]/xsd:complexType[@name='X']. */
export function xpath(el: XmlElement): string {
  const known = XPATHS.get(el);
  if (known !== undefined) return known;
  // The ancestors up to the nearest one whose path is known, then their paths from there down (no recursion: the
  // depth is the document's).
  const chain: XmlElement[] = [];
  let path = "";
  for (let e: XmlElement | undefined = el; e; e = e.parent) {
    const cached = XPATHS.get(e);
    if (cached !== undefined) {
      path = cached;
      break;
    }
    chain.push(e);
  }
  for (let i = chain.length - 1; i >= 0; i--) {
    path = `${path}/${step(chain[i]!)}`;
    XPATHS.set(chain[i]!, path);
  }
  return path;
}

/** Documentation text: lines trimmed, inner runs of blanks collapsed, blank edges removed. */
export function normalizeDoc(text: string): string | undefined {
  const lines = text.split(/\r\n|\r|\n/).map((l) => l.replace(/[ \t]+/g, " ").trim());
  while (lines.length && lines[0] === "") lines.shift();
  while (lines.length && lines[lines.length - 1] === "") lines.pop();
  const out = lines.join("\n");
  return out === "" ? undefined : out;
}
