import { internalized } from "../xml/scan.js";

/**
 * Namespace aliases let one generated server answer clients built from another edition of its contract whose
 * schemas are the same but live in other namespaces (the partner service's real WSDLs use
 * urn:partner.soap.sforce.com where specs/partner.wsdl says urn:partner.api.example).
 *
 * Why in the readers and the writer, and never on text: element and attribute names are namespace + local name
 * pairs, and xsi:type values are QNames resolved through the in-scope prefix bindings. The XML readers map the URI
 * of each xmlns declaration as they read it (their `aliases`), so an aliased request reads exactly as a request in
 * the spec's namespaces would, while character data is left alone: a user's field whose value happens to equal a
 * namespace URI is still that value. Responses go the other way in the XmlWriter, which writes every name through a
 * prefix: only the URI in each xmlns declaration changes.
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
