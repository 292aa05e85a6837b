import type { ElementDecl, Field, IrDocument, Member, NamedType, Occurs, OpenContent, RecordType, TypeId } from "../../ir/model.js";
import { wildcard } from "../../runtime/xml/record-codec.js";
import { fieldPropertyName } from "../../naming/property-name.js";
import { lookupType, type TypesContext } from "../types/context.js";
import { XSI_TYPE_PROPERTY } from "../types/declarations.js";
import { effectiveAnyAttribute, isList, recordProperties, type OrderedProperty, type SequenceRound } from "../types/properties.js";
import { extensionChain } from "../../ir/extension-chain.js";

/**
 * A record as the codecs and validators see it: every property with the key the types emitter gave it (the same
 * clash rules, so `v[key]` always names the declared property), split by where it lives in XML.
 */
export interface FieldSlot {
  readonly kind: "element" | "attribute" | "text";
  readonly key: string;
  readonly field: Field;
  readonly occurs: Occurs;
  readonly list: boolean;
  /** Element/attribute namespace ("" = none) and local name on the wire. */
  readonly ns: string;
  readonly local: string;
  /** Set when the field sits in an xsd:choice (its note from the types emitter). */
  readonly inChoice: boolean;
  /** A field of a repeating sequence written in rounds (see SequenceRound). */
  readonly round?: SequenceRound;
}

export interface AnySlot {
  readonly kind: "any";
  readonly key: string;
  readonly any: OpenContent;
  readonly occurs: Occurs;
  /** The target namespace of the record that declared the wildcard (for ##targetNamespace / ##other). */
  readonly tns: string;
}

/**
 * A repeating group kept in document order (see OrderedProperty): one property holding `{ kind, value }` items, each
 * item's element or wildcard described by a slot whose key is the group's property.
 */
export interface OrderedSlot {
  readonly kind: "ordered";
  readonly key: string;
  readonly ordered: OrderedProperty;
  readonly occurs: Occurs;
  readonly items: readonly OrderedSlotItem[];
}

export interface OrderedSlotItem {
  /** The item's `kind`. */
  readonly kind: string;
  readonly slot: FieldSlot | AnySlot;
}

export type Slot = FieldSlot | AnySlot | OrderedSlot;

export interface RecordLayout {
  readonly record: RecordType;
  /** The family root when the record has a `$type` property. */
  readonly familyRoot?: TypeId;
  readonly slots: readonly Slot[];
  readonly attributesKey?: string;
  /**
   * Each element's and wildcard's position in the record's content model read as one sequence (sequenceRanks): a
   * child whose element ranks below the last one read came out of order.
   */
  readonly ranks: ReadonlyMap<Field | OpenContent, number>;
}

export function recordLayout(t: RecordType, ctx: TypesContext): RecordLayout {
  const root = familyRootOf(t, ctx);
  const keys = new Set<string>(root ? [XSI_TYPE_PROPERTY] : []);
  const unique = (wanted: string): string => {
    let key = wanted;
    for (let i = 2; keys.has(key); i++) key = `${wanted}_${i}`;
    keys.add(key);
    return key;
  };
  const owners = ownerScopes(t, ctx);
  const slots: Slot[] = [];
  const fieldSlot = (field: Field, key: string, occurs: Occurs, inChoice: boolean, round?: SequenceRound): FieldSlot => {
    const xml = field.wire.xml;
    return { kind: xml?.kind ?? "element", key, field, occurs, list: isList(occurs), ns: xml?.ns ?? "", local: field.name, inChoice, ...(round ? { round } : {}) };
  };
  for (const p of recordProperties(t, ctx)) {
    if (p.kind === "oneof") throw new Error(`internal: proto oneof in XML record ${t.id}`);
    if (p.kind === "any") {
      slots.push({ kind: "any", key: unique("$any"), any: p.any, occurs: p.occurs, tns: owners.get(p.any) ?? t.scope });
      continue;
    }
    if (p.kind === "ordered") {
      const key = unique(p.name);
      const items = p.items.map((i): OrderedSlotItem => ({
        kind: i.kind,
        slot: i.member.kind === "any"
          ? { kind: "any", key, any: i.member, occurs: p.occurs, tns: owners.get(i.member) ?? t.scope }
          : fieldSlot(i.member, key, { min: 0, max: "unbounded" }, true),
      }));
      slots.push({ kind: "ordered", key, ordered: p, occurs: p.occurs, items });
      continue;
    }
    slots.push(fieldSlot(p.field, unique(fieldPropertyName(p.field)), p.occurs, p.note !== undefined, p.round));
  }
  return {
    record: t,
    ...(root ? { familyRoot: root } : {}),
    slots,
    ...(effectiveAnyAttribute(t, ctx) ? { attributesKey: unique("$attributes") } : {}),
    ranks: sequenceRanks(t, ctx),
  };
}

/**
 * The position of each element and wildcard of a record in its content model, for the order check of the decoder
 * (XSD 1.0 3.4.4 cvc-complex-type 2.4: the children must match the content model in order). The record's content
 * (its base's first along extensions, as recordProperties flattens them) is read as one sequence: each particle of a
 * once-occurring sequence (nested ones included) ranks above the one before it; everything inside an xsd:choice, an
 * xsd:all or a repeating group (maxOccurs > 1, whose rounds start over) shares the group's rank, as does a record's
 * top-level xsd:all (allContent), so nothing there is ever out of order. Ranks never decrease along the members.
 */
export function sequenceRanks(t: RecordType, ctx: TypesContext): ReadonlyMap<Field | OpenContent, number> {
  const chain = extensionChain(t, (id) => lookupType(ctx, id));
  const out = new Map<Field | OpenContent, number>();
  let rank = -1;
  const frozen = (members: readonly Member[], at: number): void => {
    for (const m of members) {
      if (m.kind === "group") frozen(m.members, at);
      else out.set(m, at);
    }
  };
  const sequence = (members: readonly Member[]): void => {
    for (const m of members) {
      if (m.kind === "field" && m.wire.xml?.kind !== undefined && m.wire.xml.kind !== "element") continue;
      if (m.kind === "group" && m.compositor === "sequence" && m.occurs.max === 1 && m.oneofName === undefined) sequence(m.members);
      else if (m.kind === "group") frozen(m.members, ++rank);
      else out.set(m, ++rank);
    }
  };
  for (const r of chain) {
    if (r.allContent === true) frozen(r.members, ++rank);
    else sequence(r.members);
  }
  return out;
}

/** Same rule as the types emitter: the topmost ancestor (or self) that has subtypes. */
export function familyRootOf(t: RecordType, ctx: TypesContext): TypeId | undefined {
  let root: TypeId | undefined;
  const seen = new Set<string>();
  for (let r: RecordType | undefined = t; r && !seen.has(r.id); ) {
    seen.add(r.id);
    if ((ctx.subtypes.get(r.id)?.length ?? 0) > 0) root = r.id;
    const base: NamedType | undefined = r.base ? ctx.types.get(r.base.id) : undefined;
    r = base?.kind === "record" ? base : undefined;
  }
  return root;
}

/** Which record's namespace each wildcard was declared in (inherited wildcards keep their base's namespace). */
function ownerScopes(t: RecordType, ctx: TypesContext): Map<OpenContent, string> {
  const out = new Map<OpenContent, string>();
  const seen = new Set<string>();
  const visit = (members: RecordType["members"], scope: string): void => {
    for (const m of members) {
      if (m.kind === "any") out.set(m, scope);
      else if (m.kind === "group") visit(m.members, scope);
    }
  };
  for (let r: RecordType | undefined = t; r && !seen.has(r.id); ) {
    seen.add(r.id);
    visit(r.members, r.scope);
    const base: NamedType | undefined = r.base ? lookupType(ctx, r.base.id) : undefined;
    r = base?.kind === "record" ? base : undefined;
  }
  return out;
}

/**
 * The global elements a strict wildcard reads by their declarations (XSD 1.0 3.10.1: an element a strict wildcard
 * matches must be valid against its global declaration): those whose namespace the wildcard admits. None for lax
 * and skip wildcards (their content stays generic open content).
 */
export function strictDeclarations(s: AnySlot, doc: IrDocument): readonly ElementDecl[] {
  if (s.any.processContents !== "strict") return [];
  const admits = wildcard(s.any.namespace, s.tns);
  return doc.elements.filter((e) => admits(e.name.ns));
}
