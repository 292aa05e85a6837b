import type { ElementId, IrDocument } from "../../ir/model.js";
import { assignNames, type ElementNames } from "../../naming/assign-names.js";

/**
 * Each element's codec functions (`encode<E>Element`, `decode<E>Element`) and their `stem` E, as the naming pass
 * gives them (`names.element(id)`, see src/naming/assign-names.ts): E is the element's local name in PascalCase
 * ("login" -> "Login"); collisions get "_2", "_3", ... in declaration order. For callers that hold a document but no
 * names (tests, tools); emitters ask `ctx.names.element`.
 */
export function elementCodecNames(doc: IrDocument): ReadonlyMap<ElementId, ElementNames> {
  const names = assignNames(doc);
  return new Map(doc.elements.map((el) => [el.id, names.element(el.id)]));
}
