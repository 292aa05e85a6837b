/** The light element tree `parseXml` produces: namespaces resolved, text of each element concatenated. */

/** In-scope namespace bindings: a linked list, shared by every element that declares nothing new. */
export interface NamespaceScope {
  readonly prefix: string;
  readonly uri: string;
  readonly parent: NamespaceScope | null;
}

export interface XmlAttribute {
  /** Namespace URI ("" for an unprefixed attribute: attributes never take the default namespace). */
  readonly ns: string;
  readonly local: string;
  readonly prefix: string;
  readonly value: string;
}

export interface XmlElementNode {
  readonly ns: string;
  readonly local: string;
  readonly prefix: string;
  /** Attributes other than namespace declarations, in document order. */
  readonly attrs: readonly XmlAttribute[];
  readonly children: readonly XmlElementNode[];
  /** The element's own character data (text and CDATA between its children), entity references resolved. */
  readonly text: string;
  /** Namespace bindings in scope at this element (for QName values such as xsi:type). */
  readonly scope: NamespaceScope | null;
}

export const XML_NS = "http://www.w3.org/XML/1998/namespace";
export const XMLNS_NS = "http://www.w3.org/2000/xmlns/";
export const XSI_NS = "http://www.w3.org/2001/XMLSchema-instance";
export const XSD_NS = "http://www.w3.org/2001/XMLSchema";

/** The namespace a prefix ("" = default namespace) is bound to at `node`, or undefined. */
export function lookupNamespace(node: XmlElementNode, prefix: string): string | undefined {
  if (prefix === "xml") return XML_NS;
  for (let s = node.scope; s !== null; s = s.parent) if (s.prefix === prefix) return s.uri;
  return prefix === "" ? "" : undefined;
}

/** Resolve a QName value written in `node`'s scope ("ens:sObject", or "sObject" in the default namespace). */
export function resolveQName(node: XmlElementNode, qname: string): { ns: string; local: string } | undefined {
  const value = qname.trim();
  const colon = value.indexOf(":");
  const prefix = colon < 0 ? "" : value.slice(0, colon);
  const ns = lookupNamespace(node, prefix);
  if (ns === undefined) return undefined;
  return { ns, local: colon < 0 ? value : value.slice(colon + 1) };
}

export function attrValue(node: XmlElementNode, ns: string, local: string): string | undefined {
  const attrs = node.attrs;
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs[i]!;
    if (a.local === local && a.ns === ns) return a.value;
  }
  return undefined;
}

/** True when the element carries xsi:nil="true" (or "1"). */
export function isNil(node: XmlElementNode): boolean {
  if (node.attrs.length === 0) return false;
  const v = attrValue(node, XSI_NS, "nil");
  return v !== undefined && (v.trim() === "true" || v.trim() === "1");
}

/** The element's xsi:type as a resolved name; undefined when absent. An unbound prefix resolves to ns "?prefix". */
export function xsiType(node: XmlElementNode): { ns: string; local: string } | undefined {
  if (node.attrs.length === 0) return undefined;
  const v = attrValue(node, XSI_NS, "type");
  if (v === undefined) return undefined;
  return resolveQName(node, v) ?? { ns: `?${v.slice(0, Math.max(0, v.indexOf(":")))}`, local: v.slice(v.indexOf(":") + 1) };
}

/** "{ns}local" (Clark notation), the key of the generated `xmlElements` / `xmlTypes` maps. */
export function clarkName(ns: string, local: string): string {
  return `{${ns}}${local}`;
}
