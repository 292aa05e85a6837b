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
  const same = el.parent.children.filter((c) => c.name.ns === el.name.ns && c.name.local === el.name.local);
  // Schemas are always indexed (a WSDL may hold several); other unnamed elements only when ambiguous.
  if (same.length > 1 || el.name.local === "schema") return `${qn}[${same.indexOf(el) + 1}]`;
  return qn;
}

/** An XPath locating the element in its file, e.g. /wsdl:definitions/wsdl:types/xsd:schema[1]/xsd:complexType[@name='X']. */
export function xpath(el: XmlElement): string {
  const steps: string[] = [];
  for (let e: XmlElement | undefined = el; e; e = e.parent) steps.push(step(e));
  return "/" + steps.reverse().join("/");
}

/** Documentation text: lines trimmed, inner runs of blanks collapsed, blank edges removed. */
export function normalizeDoc(text: string): string | undefined {
  const lines = text.split(/\r\n|\r|\n/).map((l) => l.replace(/[ \t]+/g, " ").trim());
  while (lines.length && lines[0] === "") lines.shift();
  while (lines.length && lines[lines.length - 1] === "") lines.pop();
  const out = lines.join("\n");
  return out === "" ? undefined : out;
}
