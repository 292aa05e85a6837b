/**
 * The item type of a SOAP-encoded array from its wsdl:arrayType ("xsd:int[]", "xsd:base64Binary[][]", "xsd:int[,]").
 *
 * SOAP 1.1 section 5.4.2: the last bracket group is the array itself, the ones before it belong to the item type, so
 * `xsd:int[][]` is an array whose items are `xsd:int[]` (a jagged array: Java's and C#'s `byte[][]` as Axis writes
 * it). Each inner rank becomes an anonymous record with a repeated `item`, as the outer array is; on the wire every
 * inner array is an element whose children are its items. A rank with commas (`[,]`, a rectangular array) is sent
 * as its items in row-major order: it is read as that flat list, with a warning, since its shape is not kept.
 */
import type { RecordType, TypeExpr } from "../../ir/model.js";
import { type XmlElement, specError } from "../xml/dom.js";
import type { Ctx, Scope } from "./context.js";

export function soapArrayItemType(ctx: Ctx, scope: Scope, at: XmlElement, arrayType: string): TypeExpr {
  const m = /^(.*?)((?:\[[^\]]*\])+)$/.exec(arrayType.trim());
  if (!m || m[1]!.trim() === "") {
    throw specError(at, `invalid wsdl:arrayType '${arrayType}' (a type name and its dimensions, e.g. "xsd:int[]" or "xsd:int[][]")`);
  }
  const ranks = m[2]!.match(/\[[^\]]*\]/g)!;
  for (const r of ranks) {
    if (!/^\[\s*(\d+\s*)?(,\s*(\d+\s*)?)*\]$/.test(r)) throw specError(at, `invalid dimension '${r}' in wsdl:arrayType '${arrayType}'`);
  }
  if (ranks.some((r) => r.includes(","))) {
    ctx.warn(at, `wsdl:arrayType '${arrayType.trim()}' has a multi-dimensional rank: its items are read and written as one flat list in row-major order (the dimensions are not kept)`);
  }
  let item = ctx.typeByName(scope.schema, at, m[1]!);
  // Innermost first: with ranks [][][], the outer array's items are records whose items are records of `item`s.
  for (let depth = ranks.length - 1; depth >= 1; depth--) item = innerArray(ctx, scope, at, depth, item);
  return item;
}

/** The anonymous record for the array `depth` ranks inside the declared one: a repeated, nillable `item`. */
function innerArray(ctx: Ctx, scope: Scope, at: XmlElement, depth: number, item: TypeExpr): TypeExpr {
  const a = ctx.anonymous(`${at.file}:${at.line}:${at.column}#rank${depth}`, scope.schema.tns, `${scope.path}${".item".repeat(depth)}`, `${scope.name}${"Item".repeat(depth)}`);
  if (a.fresh) {
    const slot = ctx.reserve();
    const rec: RecordType = {
      kind: "record",
      id: a.id,
      name: a.name,
      scope: scope.schema.tns,
      anonymous: true,
      // An array too (its items are the next rank's): rpc/encoded writes it with its own soapenc:arrayType.
      soapEncArray: true,
      origin: ctx.origin(at, `soapenc Array {${scope.schema.tns}}${scope.path}${".item".repeat(depth)} (items that are arrays themselves)`),
      members: [
        {
          kind: "field",
          name: "item",
          type: item,
          occurs: { min: 0, max: "unbounded" },
          nullable: true,
          origin: ctx.origin(at, `soapenc Array item of {${scope.schema.tns}}${scope.path}${".item".repeat(depth)}`),
          wire: { xml: { kind: "element", ns: "", form: "unqualified" } },
        },
      ],
    };
    ctx.fill(slot, rec);
  }
  return { kind: "ref", id: a.id };
}
