import type { Facets, Field, Group, Member, Occurs, OpenContent, RecordType } from "../../ir/model.js";
import { fieldPropertyName, orderedGroupPropertyName } from "../../naming/property-name.js";
import { lookupType, type TypesContext } from "./context.js";
import { extensionChain } from "../../ir/extension-chain.js";

/**
 * A record's members flattened into the properties of one TypeScript object type.
 *
 * Inherited members (complexContent extension, allOf base) come first, like on the wire. Nested sequences and
 * choices are flattened with their occurrence multiplied in (a member of an optional group is optional; a member of
 * a repeating group repeats). Members of an xsd:choice become optional. A proto oneof stays one property.
 *
 * A repeating group whose elements can interleave (an xsd:choice that may occur more than once, or a repeating
 * sequence holding such a choice) becomes one property instead (`ordered`): an array of tagged items
 * `{ kind, value }` in document order, so that decode -> encode writes the elements back in the order read
 * (flattened into one array per element, `<a/><b/><a/>` would come back as `<a/><a/><b/>`).
 */
export type Property =
  | { readonly kind: "field"; readonly field: Field; readonly occurs: Occurs; readonly note?: string; readonly round?: SequenceRound }
  | { readonly kind: "oneof"; readonly group: Group }
  | { readonly kind: "any"; readonly any: OpenContent; readonly occurs: Occurs }
  | OrderedProperty;

/**
 * A field of a repeating xsd:sequence of elements each occurring a bounded number of times (`(x1, x2){2}`), kept as
 * one array per element: the XML encoder writes the arrays in rounds, up to `perRound` items of each field per
 * round, in sequence order (x1 x2 x1 x2), so the output follows the content model (not x1 x1 x2 x2). `start` marks
 * the sequence's first field.
 */
export interface SequenceRound {
  readonly start: boolean;
  readonly perRound: number;
}

/** A repeating group kept in document order: one array of `{ kind, value }` items (see Property). */
export interface OrderedProperty {
  readonly kind: "ordered";
  readonly group: Group;
  /** The group's occurrence with the enclosing groups' multiplied in (max above 1). */
  readonly occurs: Occurs;
  /** The property name wanted (before clashes with the record's other properties are resolved). */
  readonly name: string;
  /** The elements and wildcards of the group (nested groups flattened), each with its item kind, in schema order. */
  readonly items: readonly OrderedItem[];
  /** The fewest items a valid value has (0: the property is optional). */
  readonly minItems: number;
}

export interface OrderedItem {
  /** The `kind` of its items: the member's property name (unique within the group; `$any` for a wildcard). */
  readonly kind: string;
  readonly member: Field | OpenContent;
}

/**
 * The record's attribute wildcard (xsd:anyAttribute): its own, else the nearest one along its extensions, which it
 * inherits (XSD 1.0 3.4.2: an extension's attribute wildcard is the union of its own and its base's; the union's
 * namespaces are worked out by the validator). A restriction has only its own.
 */
export function effectiveAnyAttribute(record: RecordType, ctx: TypesContext): RecordType["anyAttribute"] {
  const seen = new Set<string>();
  for (let r: RecordType | undefined = record; r && !seen.has(r.id); ) {
    if (r.anyAttribute) return r.anyAttribute;
    seen.add(r.id);
    if (r.base?.derivation !== "extension") return undefined;
    const base = lookupType(ctx, r.base.id);
    r = base.kind === "record" ? base : undefined;
  }
  return undefined;
}

export function recordProperties(record: RecordType, ctx: TypesContext): Property[] {
  const out: Property[] = [];
  const chain = extensionChain(record, (id) => lookupType(ctx, id));
  for (const r of chain) flatten(r.members, { min: 1, max: 1 }, undefined, out);
  // A restriction restates its content, but not always its attributes: the base's attribute uses it neither
  // restates nor prohibits are its own too (XSD 1.0 3.4.2 {attribute uses}, complex content and simple content).
  const top = chain[0]!;
  if (top.base?.derivation === "restriction" && !chain.some((r) => r.id === top.base!.id)) {
    const base = lookupType(ctx, top.base.id);
    if (base.kind === "record") {
      const xmlKey = (f: Field) => `{${f.wire.xml?.ns ?? ""}}${f.name}`;
      const own = new Set(out.flatMap((p) => (p.kind === "field" && p.field.wire.xml?.kind === "attribute" ? [xmlKey(p.field)] : [])));
      const prohibited = new Set(top.prohibitedAttributes ?? []);
      const inherited = recordProperties(base, ctx).filter(
        (p) => p.kind === "field" && p.field.wire.xml?.kind === "attribute" && !own.has(xmlKey(p.field)) && !prohibited.has(xmlKey(p.field)),
      );
      out.push(...inherited);
    }
  }
  return out;
}

function flatten(members: readonly Member[], outer: Occurs, note: string | undefined, out: Property[]): void {
  for (const m of members) {
    if (m.kind === "field") out.push({ kind: "field", field: m, occurs: multiply(outer, m.occurs), note });
    else if (m.kind === "any") out.push({ kind: "any", any: m, occurs: multiply(outer, m.occurs) });
    else if (m.oneofName !== undefined) out.push({ kind: "oneof", group: m });
    else if (keepsOrder(m, outer)) out.push(orderedProperty(m, multiply(outer, m.occurs)));
    else if (m.compositor === "choice") {
      const names = m.members.map(memberName).join(", ");
      const occurs = multiply(outer, { min: 0, max: m.occurs.max });
      const what = m.substitutionHead !== undefined ? `the substitution group of ${m.substitutionHead.local}` : "xsd:choice";
      flatten(m.members, occurs, `Choice: at most one of ${names} per occurrence (${what}).`, out);
    } else {
      const occurs = multiply(outer, m.occurs);
      const first = out.length;
      flatten(m.members, occurs, note, out);
      if (m.compositor === "sequence" && isList(occurs) && m.members.length > 1 && m.members.every((x) => x.kind === "field" && x.occurs.max !== "unbounded" && x.occurs.max >= 1)) {
        for (let i = first; i < out.length; i++) {
          const q = out[i]!;
          if (q.kind === "field") out[i] = { ...q, round: { start: i === first, perRound: q.field.occurs.max as number } };
        }
      }
    }
  }
}

/**
 * Whether a group's elements can come in an order that per-element arrays cannot record: it repeats (with the
 * enclosing groups) and it is, or holds, an xsd:choice between two or more particles. Groups holding nothing but one
 * element's repetitions are still flattened.
 */
export function keepsOrder(g: Group, outer: Occurs): boolean {
  if (g.oneofName !== undefined) return false;
  if (!isList(multiply(outer, g.occurs))) return false;
  return leaves(g).length > 1 && hasChoice(g);
}

function hasChoice(g: Group): boolean {
  return (g.compositor === "choice" && g.members.length > 1) || g.members.some((m) => m.kind === "group" && hasChoice(m));
}

function leaves(g: Group): (Field | OpenContent)[] {
  return g.members.flatMap((m) => (m.kind === "group" ? leaves(m) : [m]));
}

export function orderedProperty(g: Group, occurs: Occurs): OrderedProperty {
  const claim = keyClaimer();
  const members = leaves(g);
  const items = members.map((m): OrderedItem => ({ kind: claim(m.kind === "field" ? fieldPropertyName(m) : "$any"), member: m }));
  // `occurs` already counts the group's own minOccurs (with the enclosing groups'): times what one occurrence holds.
  return { kind: "ordered", group: g, occurs, name: orderedGroupPropertyName(g, items.map((i) => i.kind)), items, minItems: occurs.min * minOnce(g) };
}

/** The fewest elements a member stands for: its minOccurs times what one occurrence holds. */
function minCount(m: Member): number {
  return m.kind !== "group" ? m.occurs.min : m.occurs.min * minOnce(m);
}

/** The fewest elements one occurrence of a group holds (a choice: its smallest branch; a sequence or all: the sum). */
function minOnce(g: Group): number {
  const counts = g.members.map(minCount);
  return g.compositor === "choice" ? (counts.length === 0 ? 0 : Math.min(...counts)) : counts.reduce((a, b) => a + b, 0);
}

function memberName(m: Member): string {
  if (m.kind === "group") return m.oneofName ?? `(${m.members.map(memberName).join(", ")})`;
  return m.name;
}

export function multiply(a: Occurs, b: Occurs): Occurs {
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
