import { escapeAttribute } from "./escape.js";
import { XML_NS, XSI_NS } from "./node.js";

/**
 * The prefixes a document binds on its root element, fixed for the whole document, and the tag strings they make.
 *
 * An encoded element declares its schema's namespaces (and xsi) on the root; the writer never rebinds a prefix in
 * scope nor binds a namespace that has one, so below the root every element and xsi attribute of those namespaces
 * is spelled the same way in every document written with the same declarations. The spellings (`<ns3:Name`,
 * `</ns3:Name>`, `<ns3:Id xsi:nil="true"/>`) are therefore worked out once per declaration list and kept here,
 * instead of a prefix lookup and a template string per element. Namespaces outside the list (open content in a
 * foreign namespace, a caller's own `namespaces` that leave one out) still go through the writer's declarations.
 */

/** The strings of one element name under a scope. */
export interface XmlTag {
  readonly ns: string;
  readonly local: string;
  /** `<p:local`: attributes may follow, then `>` or `/>`. */
  readonly start: string;
  /** `<p:local>`: the start tag of an element without attributes. */
  readonly open: string;
  /** `><p:local>`: the same after a parent's start tag still open (the first child). */
  readonly openAfterStart: string;
  /** `</p:local>`. */
  readonly close: string;
  /** `<p:local xsi:nil="true"/>`, or undefined when xsi has no prefix in the scope. */
  readonly nil: string | undefined;
}

/** Tags kept per scope (names of open content come from data: the cache must stay bounded). */
const MAX_TAGS = 4096;

export class XmlPrefixScope {
  /** Namespace -> prefix of every binding the root makes (a repeated namespace: the last binding wins). */
  readonly prefixes = new Map<string, string>();
  /** Prefixes the root binds: the writer's own declarations below it must pick others. */
  readonly used = new Set<string>();
  /** The root's bindings in order, as [uri, prefix] (the prefixes after renaming, see freshPrefix). */
  readonly bindings: (readonly [string, string])[] = [];
  /** The `nsN` counter after the root's bindings. */
  readonly counter: number;
  /** A copy of the declaration list the scope was made from (a caller may change its array between documents). */
  readonly source: readonly (readonly [string, string])[];
  private readonly nilAttribute: string | undefined;
  private readonly tags = new Map<string, Map<string, XmlTag>>();
  private tagCount = 0;

  constructor(namespaces: readonly (readonly [uri: string, prefix: string])[]) {
    let counter = 0;
    this.source = namespaces.map(([uri, prefix]) => [uri, prefix] as const);
    for (const [uri, wanted] of namespaces) {
      // The xml: prefix is bound by definition and must never be declared (Namespaces in XML 1.0 §3).
      if (uri === XML_NS) {
        this.prefixes.set(uri, "xml");
        continue;
      }
      // The renaming XmlWriter.freshPrefix does: numbered prefixes, and none in use or starting with "xml".
      let prefix = wanted === "ns" ? `ns${++counter}` : wanted;
      while (this.used.has(prefix) || prefix.toLowerCase().startsWith("xml")) prefix = `ns${++counter}`;
      this.prefixes.set(uri, prefix);
      this.used.add(prefix);
      this.bindings.push([uri, prefix]);
    }
    this.counter = counter;
    const xsi = this.prefixes.get(XSI_NS);
    this.nilAttribute = xsi === undefined ? undefined : ` ${xsi}:nil="true"`;
  }

  /** The tags of element {ns}local, or undefined when `ns` has no prefix here (it must be declared where used). */
  tag(ns: string, local: string): XmlTag | undefined {
    let byLocal = this.tags.get(ns);
    if (byLocal !== undefined) {
      const known = byLocal.get(local);
      if (known !== undefined) return known;
    }
    const prefix = ns === "" ? "" : this.prefixes.get(ns);
    if (prefix === undefined) return undefined;
    const qname = prefix === "" ? local : `${prefix}:${local}`;
    const start = `<${qname}`;
    const tag: XmlTag = {
      ns,
      local,
      start,
      open: `${start}>`,
      openAfterStart: `>${start}>`,
      close: `</${qname}>`,
      nil: this.nilAttribute === undefined ? undefined : `${start}${this.nilAttribute}/>`,
    };
    if (this.tagCount < MAX_TAGS) {
      if (byLocal === undefined) this.tags.set(ns, (byLocal = new Map()));
      byLocal.set(local, tag);
      this.tagCount++;
    }
    return tag;
  }

  /** ` xsi:type="p:local"` for a type {ns}local, or undefined when xsi or `ns` has no prefix here. */
  typeAttribute(ns: string, local: string): string | undefined {
    const xsi = this.prefixes.get(XSI_NS);
    const prefix = ns === "" ? "" : this.prefixes.get(ns);
    if (xsi === undefined || prefix === undefined) return undefined;
    return ` ${xsi}:type="${escapeAttribute(prefix === "" ? local : `${prefix}:${local}`)}"`;
  }
}

/** One scope per declaration list (generated code passes the same constant list for every document). */
const scopes = new WeakMap<object, XmlPrefixScope>();

export function prefixScope(namespaces: readonly (readonly [string, string])[]): XmlPrefixScope {
  let scope = scopes.get(namespaces);
  if (scope === undefined || !sameDeclarations(scope.source, namespaces)) scopes.set(namespaces, (scope = new XmlPrefixScope(namespaces)));
  return scope;
}

function sameDeclarations(a: readonly (readonly [string, string])[], b: readonly (readonly [string, string])[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]![0] !== b[i]![0] || a[i]![1] !== b[i]![1]) return false;
  return true;
}
