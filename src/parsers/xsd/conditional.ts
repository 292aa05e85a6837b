/**
 * Conditional inclusion (XSD 1.1 Part 1, 4.2.1 "Conditional inclusion", the `vc:` attributes of
 * http://www.w3.org/2007/XMLSchema-versioning, which XSD 1.0 processors are asked to honour too): an element of a
 * schema document carrying `vc:minVersion`, `vc:maxVersion`, `vc:typeAvailable`, `vc:typeUnavailable`,
 * `vc:facetAvailable` or `vc:facetUnavailable` is left out, with everything inside it, when the condition does not
 * hold for specforge, an XSD 1.0 processor with the builtin types and facets of XSD 1.0 (builtins.ts). So
 * `<xs:assert vc:minVersion="1.1"/>` is ignored and `type="xs:error" vc:typeAvailable="xs:error"` gives way to its
 * `vc:typeUnavailable` alternative.
 */
import { type XmlElement, resolveQName } from "../xml/dom.js";
import { builtinScalar, FACETS, XSD_NS } from "./builtins.js";

export const VC_NS = "http://www.w3.org/2007/XMLSchema-versioning";

/** The XSD version specforge processes schema documents as. */
const VERSION = 1.0;

/**
 * Removes, in place, every element under `root` whose conditional-inclusion attributes exclude it. Loops, not
 * spreads: a schema may have hundreds of thousands of children under one element (no call-stack limit, linear time).
 */
export function pruneConditional(root: XmlElement): void {
  const stack = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    if (el.children.some(excluded)) {
      const dropped = new Set(el.children.filter(excluded));
      keepOnly(el.children, (c) => !dropped.has(c));
      keepOnly(el.nodes, (n) => typeof n === "string" || !dropped.has(n));
    }
    for (const child of el.children) stack.push(child);
  }
}

/** Filters an array in place. */
function keepOnly<T>(list: T[], keep: (item: T) => boolean): void {
  let n = 0;
  for (const item of list) if (keep(item)) list[n++] = item;
  list.length = n;
}

function excluded(el: XmlElement): boolean {
  for (const a of el.attrs) {
    if (a.name.ns !== VC_NS) continue;
    const tokens = a.value.trim().split(/\s+/).filter(Boolean);
    switch (a.name.local) {
      case "minVersion":
        if (VERSION < Number(a.value)) return true;
        break;
      case "maxVersion":
        if (VERSION >= Number(a.value)) return true;
        break;
      case "typeAvailable":
        if (!tokens.every((t) => typeAvailable(el, t))) return true;
        break;
      case "typeUnavailable":
        if (tokens.length > 0 && tokens.every((t) => typeAvailable(el, t))) return true;
        break;
      case "facetAvailable":
        if (!tokens.every((t) => facetAvailable(el, t))) return true;
        break;
      case "facetUnavailable":
        if (tokens.length > 0 && tokens.every((t) => facetAvailable(el, t))) return true;
        break;
    }
  }
  return false;
}

function typeAvailable(el: XmlElement, qname: string): boolean {
  const q = resolve(el, qname);
  return q !== undefined && (builtinScalar(q.ns, q.local) !== undefined || (q.ns === XSD_NS && (q.local === "anyType" || q.local === "anySimpleType")));
}

function facetAvailable(el: XmlElement, qname: string): boolean {
  const q = resolve(el, qname);
  return q !== undefined && q.ns === XSD_NS && FACETS.has(q.local);
}

/** A QName of a condition; an unknown prefix names nothing available. */
function resolve(el: XmlElement, qname: string): { ns: string; local: string } | undefined {
  try {
    return resolveQName(el, qname);
  } catch {
    return undefined;
  }
}
