import type { ElementId, IrDocument } from "../../ir/model.js";
import { assignNames } from "../../naming/assign-names.js";

/**
 * The identifier part of each element's codec functions (`encode<E>Element`, `decode<E>Element`), as the naming pass
 * gives it (`names.element(id).stem`, see src/naming/assign-names.ts): the element's local name in PascalCase
 * ("login" -> "Login"); collisions get "_2", "_3", ... in declaration order. For callers that hold a document but no
 * names (tests, tools); emitters ask `ctx.names.element`.
 */
export function elementCodecNames(doc: IrDocument): ReadonlyMap<ElementId, string> {
  const names = assignNames(doc);
  return new Map(doc.elements.map((el) => [el.id, names.element(el.id).stem]));
}
