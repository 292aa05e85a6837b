import type { NamespaceScope, XmlAttribute, XmlElementNode } from "../xml/node.js";

/**
 * Namespace aliases let one generated server answer clients built from another edition of its contract whose
 * schemas are the same but live in other namespaces (the partner service's real WSDLs use
 * urn:partner.soap.sforce.com where specs/partner.wsdl says urn:partner.api.example).
 *
 * Why on the parsed tree and in the writer, and never on text: element and attribute names are namespace + local
 * name pairs, and xsi:type values are QNames resolved through the in-scope prefix bindings. Rewriting those three
 * things (each element's and attribute's namespace, and the URIs the scope chain binds prefixes to) makes an aliased
 * request exactly the tree a request in the spec's namespaces would have parsed into, while character data is left
 * alone: a user's field whose value happens to equal a namespace URI is still that value. Responses go the other way
 * in the XmlWriter, which writes every name through a prefix: only the URI in each xmlns declaration changes.
 */

/** One family: the spec's namespace URI -> the URI the other edition uses for it. */
export type SoapNamespaceFamily = { readonly [specNamespace: string]: string };

/** The families of a server, indexed for requests (alias -> spec) and responses (alias -> its family). */
export interface NamespaceAliasTable {
  readonly toSpec: ReadonlyMap<string, string>;
  readonly familyOf: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/**
 * Index the families; undefined when there are none (the server then never looks at aliases). An alias that would
 * stand for two spec namespaces, or that is itself one of the spec namespaces some family maps, is ambiguous: a
 * TypeError when the server is built, not a surprise on some request.
 */
export function namespaceAliasTable(families: readonly SoapNamespaceFamily[] | undefined): NamespaceAliasTable | undefined {
  if (families === undefined || families.length === 0) return undefined;
  const toSpec = new Map<string, string>();
  const familyOf = new Map<string, ReadonlyMap<string, string>>();
  const specNamespaces = new Set(families.flatMap((f) => Object.keys(f)));
  for (const family of families) {
    const forward = new Map<string, string>();
    for (const [spec, alias] of Object.entries(family)) {
      if (typeof alias !== "string" || alias === "") throw new TypeError(`namespace alias of ${spec} must be a non-empty URI`);
      if (alias === spec) continue;
      if (specNamespaces.has(alias)) throw new TypeError(`namespace alias ${alias} is also a spec namespace`);
      const known = toSpec.get(alias);
      if (known !== undefined && known !== spec) throw new TypeError(`namespace alias ${alias} stands for both ${known} and ${spec}`);
      toSpec.set(alias, internalized(spec));
      forward.set(spec, alias);
    }
    for (const alias of forward.values()) familyOf.set(alias, forward);
  }
  return toSpec.size === 0 ? undefined : { toSpec, familyOf };
}

/**
 * The same tree with every alias namespace replaced by its spec namespace (elements, attributes and the prefix
 * bindings xsi:type values resolve through). Subtrees with nothing to rename are returned as they are, so a request
 * already in the spec's namespaces costs one walk and no copies.
 */
export class NamespaceCanonicalizer {
  /** Scope chains are shared by siblings: map each scope object once. */
  private readonly scopes = new Map<NamespaceScope, NamespaceScope>();

  constructor(private readonly toSpec: ReadonlyMap<string, string>) {}

  element(node: XmlElementNode): XmlElementNode {
    const ns = this.toSpec.get(node.ns) ?? node.ns;
    const scope = this.scope(node.scope);
    let attrs = node.attrs;
    for (let i = 0; i < attrs.length; i++) {
      const a = attrs[i]!;
      const mapped = a.ns === "" ? undefined : this.toSpec.get(a.ns);
      if (mapped === undefined) continue;
      if (attrs === node.attrs) attrs = attrs.slice();
      (attrs as XmlAttribute[])[i] = { ...a, ns: mapped };
    }
    let children = node.children;
    for (let i = 0; i < children.length; i++) {
      // Depth is bounded by the parser's maxDepth, so recursion here is bounded too.
      const c = this.element(children[i]!);
      if (c === children[i]) continue;
      if (children === node.children) children = children.slice();
      (children as XmlElementNode[])[i] = c;
    }
    if (ns === node.ns && scope === node.scope && attrs === node.attrs && children === node.children) return node;
    return { ns, local: node.local, prefix: node.prefix, attrs, children, text: node.text, scope };
  }

  /** Iterative: a chain may be as long as maxDepth x maxAttributes declarations. */
  private scope(scope: NamespaceScope | null): NamespaceScope | null {
    if (scope === null) return null;
    const pending: NamespaceScope[] = [];
    let s: NamespaceScope | null = scope;
    while (s !== null && !this.scopes.has(s)) {
      pending.push(s);
      s = s.parent;
    }
    let mappedParent = s === null ? null : this.scopes.get(s)!;
    for (let i = pending.length - 1; i >= 0; i--) {
      const original = pending[i]!;
      const uri = this.toSpec.get(original.uri) ?? original.uri;
      const mapped = uri === original.uri && mappedParent === original.parent ? original : { prefix: original.prefix, uri, parent: mappedParent };
      this.scopes.set(original, mapped);
      mappedParent = mapped;
    }
    return mappedParent;
  }
}

/** The engine's internalized copy of a URI (generated decoders compare namespaces by identity first; see parse.ts). */
function internalized(value: string): string {
  return Object.keys({ [value]: 0 })[0] ?? value;
}
