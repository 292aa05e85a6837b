import type { NamedType, RecordType, TypeId } from "./model.js";

/**
 * A record and the records it extends, base first: the content a record has along xsd:extension (a restriction
 * restates the content it keeps, so inheritance stops there). A cycle in a malformed base chain ends the walk.
 */
export function extensionChain(record: RecordType, lookup: (id: TypeId) => NamedType | undefined): RecordType[] {
  const chain: RecordType[] = [];
  const seen = new Set<string>();
  for (let r: RecordType | undefined = record; r && !seen.has(r.id); ) {
    seen.add(r.id);
    chain.unshift(r);
    if (!r.base || r.base.derivation === "restriction") break;
    const base = lookup(r.base.id);
    r = base?.kind === "record" ? base : undefined;
  }
  return chain;
}
