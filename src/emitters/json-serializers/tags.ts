import type { TypeExpr } from "../../ir/model.js";
import type { TypesContext } from "../types/context.js";
import { recordProperties } from "../types/properties.js";

/**
 * Whether a discriminated union's variant can carry `tag` in its discriminator property. A document may map a tag to
 * a variant whose own enum leaves the tag out (DigitalOcean maps `change_backup_policy` to a droplet action whose
 * `type` enum does not list it): no valid value has that tag, TypeScript narrows the case to nothing and refuses a
 * `case` for it, so the encoder leaves it out (the validator rejects such a value anyway).
 */
export function variantAllowsTag(types: TypesContext, variant: TypeExpr, property: string, tag: string): boolean {
  if (variant.kind !== "ref") return true;
  let record = types.types.get(variant.id);
  // A schema that only extends another is an alias of it (its family's name on a reference).
  for (let hops = 0; record?.kind === "alias" && record.target.kind === "ref" && hops < 16; hops++) record = types.types.get(record.target.id);
  if (record?.kind !== "record") return true;
  for (const p of recordProperties(record, types)) {
    if (p.kind === "field" && (p.field.wire.json?.key ?? p.field.name) === property) return valueAllows(types, p.field.type, tag, new Set());
  }
  return true;
}

function valueAllows(types: TypesContext, t: TypeExpr, tag: string, seen: Set<string>): boolean {
  switch (t.kind) {
    case "literal":
      return t.value === tag;
    case "union":
      return t.of.some((m) => valueAllows(types, m, tag, seen));
    case "ref": {
      const named = types.types.get(t.id);
      if (!named || seen.has(t.id)) return true;
      seen.add(t.id);
      if (named.kind === "enum") return named.values.some((v) => v.value === tag);
      if (named.kind === "alias") return valueAllows(types, named.target, tag, seen);
      return true;
    }
    default:
      return true;
  }
}
