import { stringLiteral } from "../../codegen/escape.js";
import type { IrDocument, TypeExpr } from "../../ir/model.js";
import { soapBindings, xmlTypeName, type QNamePair } from "../soap-client/bound-operations.js";
import { type XmlContext } from "./context.js";

/** A type an rpc-style part names with type=, and its SOAP-ENC array shape when it restricts soapenc:Array. */
export interface RpcPartType {
  readonly name: QNamePair;
  readonly type: TypeExpr;
  /**
   * `itemName`/`itemType` are the leaf items' type; `inner` counts the array ranks between (`xsd:int[][]`: 1, each an
   * anonymous record of repeated `item`s, written as a SOAP-ENC array of its own).
   */
  readonly array?: { readonly key: string; readonly item: string; readonly itemName: QNamePair; readonly itemType: TypeExpr; readonly inner: number };
}

/** Every type the parts of bound rpc operations name (in first-use order), with the array item types they need. */
export function rpcPartTypes(doc: IrDocument, x: XmlContext): RpcPartType[] {
  const out = new Map<string, RpcPartType>();
  for (const s of soapBindings(doc)) {
    for (const op of s.operations) {
      for (const body of [op.input, op.output]) {
        if (body?.kind !== "rpc") continue;
        for (const p of body.parts) {
          const key = `{${p.typeName[0]}}${p.typeName[1]}`;
          if (!out.has(key)) out.set(key, { name: p.typeName, type: p.type, ...arrayOf(p.type, doc, x) });
        }
      }
    }
  }
  return [...out.values()];
}

function arrayOf(t: TypeExpr, doc: IrDocument, x: XmlContext): Pick<RpcPartType, "array"> {
  if (t.kind !== "ref") return {};
  const decl = x.type(t.id);
  if (decl.kind !== "record" || decl.soapEncArray !== true) return {};
  const slot = x.layout(t.id).slots[0];
  if (slot?.kind !== "element" || !slot.list) return {};
  // Arrays of arrays: follow the anonymous inner ranks (src/parsers/xsd/soap-array.ts) down to the leaf items.
  let itemType = slot.field.type;
  let inner = 0;
  for (;;) {
    if (itemType.kind !== "ref") break;
    const d = x.type(itemType.id);
    if (d.kind !== "record" || d.soapEncArray !== true || !d.anonymous) break;
    const s = x.layout(itemType.id).slots[0];
    if (s?.kind !== "element" || !s.list) break;
    itemType = s.field.type;
    inner++;
  }
  const itemName = xmlTypeName(itemType, doc);
  return itemName === undefined ? {} : { array: { key: slot.key, item: slot.local, itemName, itemType, inner } };
}

/** Every namespace the rpc part types name (for xml.ts's namespace constants and declarations). */
export function rpcNamespaces(parts: readonly RpcPartType[]): string[] {
  return parts.flatMap((p) => [p.name[0], ...(p.array ? [p.array.itemName[0]] : [])]);
}

/**
 * The `xmlPartTypes` entries: [ns, name] or [ns, name, key, item, itemNs, itemName] for a SOAP-ENC array, with the
 * count of inner ranks appended for an array of arrays.
 */
export function rpcPartEntries(parts: readonly RpcPartType[], x: XmlContext): string[] {
  return parts.map((p) => {
    const head = `${x.ns(p.name[0])}, ${stringLiteral(p.name[1])}`;
    if (!p.array) return `[${head}],`;
    const a = p.array;
    return `[${head}, ${stringLiteral(a.key)}, ${stringLiteral(a.item)}, ${x.ns(a.itemName[0])}, ${stringLiteral(a.itemName[1])}${a.inner > 0 ? `, ${a.inner}` : ""}],`;
  });
}
