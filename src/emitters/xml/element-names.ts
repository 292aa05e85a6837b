import type { ElementId, IrDocument } from "../../ir/model.js";
import { typeIdentifier } from "../../naming/identifier.js";

/**
 * The identifier part of an element's codec functions (`encode<E>Element`, `decode<E>Element`): the element's local
 * name in PascalCase ("login" -> "Login", "fault" -> "Fault"). Elements whose names collide (same local name in two
 * namespaces, or "foo" and "Foo") keep declaration order: the first keeps the name, later ones get "_2", "_3", ...
 * The reserved-word `$` suffix is dropped, since the name is always wrapped in a prefix and a suffix.
 */
export function elementCodecNames(doc: IrDocument): ReadonlyMap<ElementId, string> {
  const used = new Set<string>();
  const out = new Map<ElementId, string>();
  for (const el of doc.elements) {
    const base = typeIdentifier(el.name.local).replace(/\$$/, "");
    let name = base;
    for (let i = 2; used.has(name); i++) name = `${base}_${i}`;
    used.add(name);
    out.set(el.id, name);
  }
  return out;
}
