import type { Field, NamedType, Occurs, OpenContent, RecordType, TypeId } from "../../ir/model.js";
import { fieldPropertyName } from "../../naming/property-name.js";
import { lookupType, type TypesContext } from "../types/context.js";
import { XSI_TYPE_PROPERTY } from "../types/declarations.js";
import { isList, recordProperties } from "../types/properties.js";

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
}

export interface AnySlot {
  readonly kind: "any";
  readonly key: string;
  readonly any: OpenContent;
  readonly occurs: Occurs;
  /** The target namespace of the record that declared the wildcard (for ##targetNamespace / ##other). */
  readonly tns: string;
}

export interface RecordLayout {
  readonly record: RecordType;
  /** The family root when the record has a `$type` property. */
  readonly familyRoot?: TypeId;
  readonly slots: readonly (FieldSlot | AnySlot)[];
  readonly attributesKey?: string;
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
  const slots: (FieldSlot | AnySlot)[] = [];
  for (const p of recordProperties(t, ctx)) {
    if (p.kind === "oneof") throw new Error(`internal: proto oneof in XML record ${t.id}`);
    if (p.kind === "any") {
      slots.push({ kind: "any", key: unique("$any"), any: p.any, occurs: p.occurs, tns: owners.get(p.any) ?? t.scope });
      continue;
    }
    const xml = p.field.wire.xml;
    slots.push({
      kind: xml?.kind ?? "element",
      key: unique(fieldPropertyName(p.field)),
      field: p.field,
      occurs: p.occurs,
      list: isList(p.occurs),
      ns: xml?.ns ?? "",
      local: p.field.name,
      inChoice: p.note !== undefined,
    });
  }
  return {
    record: t,
    ...(root ? { familyRoot: root } : {}),
    slots,
    ...(t.anyAttribute ? { attributesKey: unique("$attributes") } : {}),
  };
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
