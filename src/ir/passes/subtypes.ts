import type { IrDocument, TypeId } from "../model.js";

/**
 * For each record type, the records derived from it (directly or indirectly), in declaration order.
 * These are the types an element of the base type may carry via `xsi:type` (or an allOf-derived schema), so the
 * emitters treat a base with subtypes as a polymorphic family.
 */
export function collectSubtypes(doc: IrDocument): ReadonlyMap<TypeId, readonly TypeId[]> {
  const baseOf = new Map<TypeId, TypeId>();
  for (const t of doc.types) if (t.kind === "record" && t.base) baseOf.set(t.id, t.base.id);

  const result = new Map<TypeId, TypeId[]>();
  for (const t of doc.types) {
    const seen = new Set<TypeId>([t.id]);
    let base = baseOf.get(t.id);
    while (base !== undefined && !seen.has(base)) {
      seen.add(base);
      const list = result.get(base) ?? [];
      list.push(t.id);
      result.set(base, list);
      base = baseOf.get(base);
    }
  }
  return result;
}
