import type { Facets, Field, Group, Member, Occurs, OpenContent, RecordType } from "../../ir/model.js";
import { lookupType, type TypesContext } from "./context.js";

/**
 * A record's members flattened into the properties of one TypeScript object type.
 *
 * Inherited members (complexContent extension, allOf base) come first, like on the wire. Nested sequences and
 * choices are flattened with their occurrence multiplied in (a member of an optional group is optional; a member of
 * a repeating group repeats). Members of an xsd:choice become optional. A proto oneof stays one property.
 */
export type Property =
  | { readonly kind: "field"; readonly field: Field; readonly occurs: Occurs; readonly note?: string }
  | { readonly kind: "oneof"; readonly group: Group }
  | { readonly kind: "any"; readonly any: OpenContent; readonly occurs: Occurs };

export function recordProperties(record: RecordType, ctx: TypesContext): Property[] {
  const out: Property[] = [];
  const chain: RecordType[] = [];
  const seen = new Set<string>();
  for (let r: RecordType | undefined = record; r && !seen.has(r.id); ) {
    seen.add(r.id);
    chain.unshift(r);
    if (!r.base) break;
    // A restriction restates the content it keeps, so inheritance stops there.
    if (r.base.derivation === "restriction") break;
    const base = lookupType(ctx, r.base.id);
    r = base.kind === "record" ? base : undefined;
  }
  for (const r of chain) flatten(r.members, { min: 1, max: 1 }, undefined, out);
  return out;
}

function flatten(members: readonly Member[], outer: Occurs, note: string | undefined, out: Property[]): void {
  for (const m of members) {
    if (m.kind === "field") out.push({ kind: "field", field: m, occurs: multiply(outer, m.occurs), note });
    else if (m.kind === "any") out.push({ kind: "any", any: m, occurs: multiply(outer, m.occurs) });
    else if (m.oneofName !== undefined) out.push({ kind: "oneof", group: m });
    else if (m.compositor === "choice") {
      const names = m.members.map(memberName).join(", ");
      const occurs = multiply(outer, { min: 0, max: m.occurs.max });
      flatten(m.members, occurs, `Choice: at most one of ${names} per occurrence (xsd:choice).`, out);
    } else flatten(m.members, multiply(outer, m.occurs), note, out);
  }
}

function memberName(m: Member): string {
  if (m.kind === "group") return m.oneofName ?? `(${m.members.map(memberName).join(", ")})`;
  return m.name;
}

function multiply(a: Occurs, b: Occurs): Occurs {
  const max = a.max === "unbounded" || b.max === "unbounded" ? "unbounded" : a.max * b.max;
  return { min: a.min * b.min, max: a.max === 0 || b.max === 0 ? 0 : max };
}

export function isList(o: Occurs): boolean {
  return o.max === "unbounded" || o.max > 1;
}

/** JSDoc tags for facets, so constraints are visible where the type is used. */
export function facetTags(f: Facets | undefined): string[] {
  if (!f) return [];
  const tags: string[] = [];
  for (const p of f.patterns ?? []) tags.push(`@pattern ${p}`);
  for (const p of f.uncheckedPatterns ?? []) tags.push(`@pattern ${p} (not checked: not a JavaScript regular expression)`);
  const simple: (keyof Facets)[] = [
    "length", "minLength", "maxLength", "minInclusive", "maxInclusive", "minExclusive", "maxExclusive",
    "totalDigits", "fractionDigits", "multipleOf", "format", "minItems", "maxItems",
  ];
  for (const k of simple) if (f[k] !== undefined) tags.push(`@${k} ${String(f[k])}`);
  if (f.uniqueItems) tags.push("@uniqueItems");
  if (f.enumeration) tags.push(`@enum ${f.enumeration.map((v) => JSON.stringify(v)).join(", ")}`);
  return tags;
}

/**
 * Claims property keys the way the types emitter does: first come keeps the name, later clashes get "_2", "_3", ...
 * Codecs that address the same properties must use this too, so their keys match types.ts exactly.
 */
export function keyClaimer(keys: Set<string> = new Set()): (wanted: string) => string {
  return (wanted) => {
    let key = wanted;
    for (let i = 2; keys.has(key); i++) key = `${wanted}_${i}`;
    keys.add(key);
    return key;
  };
}
