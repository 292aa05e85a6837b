/** xsd:simpleType -> EnumType (restriction with enumerations) or AliasType (facets, list, union). */
import type { EnumValue, Facets, NamedType, TypeExpr } from "../../ir/model.js";
import { type XmlElement, attr, specError } from "../xml/dom.js";
import { FACETS, XSD_NS } from "./builtins.js";
import { type Ctx, type Scope, capitalize, xsdChild, xsdChildren } from "./context.js";
import { warnXsd11 } from "./xsd11.js";
import { type SchemaDoc, key } from "./resolve.js";

/** What a missing item or member type degrades to: anySimpleType, read and written as a string. */
const ANY_SIMPLE_ITEM: TypeExpr = { kind: "scalar", scalar: "string", builtin: "xsd:anySimpleType" };

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export interface FacetRead {
  readonly facets: Facets | undefined;
  readonly enumeration: readonly XmlElement[];
}

/**
 * XSD 1.1 explicitTimezone as a pattern over the lexical form (each pattern entry must match, so it adds to the
 * restriction's own). A timezone is "Z" or "[+-]hh:mm" at the end; every date/time form without one ends in a digit.
 * "prohibited": ends in a digit, and its last six characters are not a "[+-]hh:mm" timezone (one of those five
 * positions differs), or it is shorter than six.
 */
const TIMEZONE_PATTERNS = {
  required: ".*(Z|[+\\-][0-9]{2}:[0-9]{2})",
  prohibited: ".{0,4}[0-9]|.*([^+\\-]....|.[^0-9]...|..[^0-9]..|...[^:].|....[^0-9])[0-9]",
} as const;

/** Reads the facet children of a restriction; other children are left to the caller to validate. */
export function readFacets(r: XmlElement): FacetRead {
  const f: Mutable<Facets> = {};
  const enumeration: XmlElement[] = [];
  const patterns: string[] = [];
  let timezone: string | undefined;
  for (const c of r.children) {
    if (c.name.ns !== XSD_NS || !FACETS.has(c.name.local)) continue;
    const local = c.name.local;
    // XSD 1.1 assertion facets (XPath 2.0 tests) are not checked: warnXsd11 reports them where a ctx is at hand.
    if (local === "assertion") continue;
    const value = attr(c, "value");
    if (value === undefined) throw specError(c, `xsd:${local} without a value`);
    const int = (): number => {
      if (!/^\s*\d+\s*$/.test(value)) throw specError(c, `invalid xsd:${local} value '${value}'`);
      return Number(value);
    };
    switch (local) {
      case "enumeration":
        enumeration.push(c);
        break;
      case "pattern":
        patterns.push(value);
        break;
      case "length":
      case "minLength":
      case "maxLength":
      case "totalDigits":
      case "fractionDigits":
        f[local] = int();
        break;
      case "minInclusive":
      case "maxInclusive":
      case "minExclusive":
      case "maxExclusive":
        f[local] = value.trim();
        break;
      case "explicitTimezone": {
        // XSD 1.1: a timezone required or prohibited on a date/time value, checked on its lexical form (exact).
        const v = value.trim();
        if (v !== "required" && v !== "prohibited" && v !== "optional") throw specError(c, `invalid xsd:explicitTimezone value '${value}'`);
        timezone = v === "optional" ? undefined : TIMEZONE_PATTERNS[v];
        break;
      }
      case "whiteSpace":
        if (value !== "preserve" && value !== "replace" && value !== "collapse") {
          throw specError(c, `invalid xsd:whiteSpace value '${value}'`);
        }
        f.whiteSpace = value;
        break;
    }
  }
  // Patterns of one derivation step are alternatives (XSD 1.0 §4.3.4), hence joined with '|'.
  if (patterns.length) f.patterns = [patterns.join("|")];
  if (timezone !== undefined) f.patterns = [...(f.patterns ?? []), timezone];
  return { facets: Object.keys(f).length ? f : undefined, enumeration };
}

/** Rejects children of a simpleType restriction that are neither facets nor the inline base. */
function checkRestrictionChildren(r: XmlElement): void {
  for (const c of r.children) {
    if (c.name.ns === XSD_NS && (FACETS.has(c.name.local) || c.name.local === "annotation" || c.name.local === "simpleType")) continue;
    throw specError(c, `unsupported <${c.name.prefix ? c.name.prefix + ":" : ""}${c.name.local}> in xsd:restriction`);
  }
}

/** A reference to an inline xsd:simpleType, lowered (once) as an anonymous named type. */
export function anonSimpleRef(ctx: Ctx, scope: Scope, el: XmlElement, child: string): TypeExpr {
  return anonSimple(ctx, scope.schema, el, `${scope.path}.${child}`, scope.name + capitalize(child));
}

/** Same with an explicit id path and name (anonymous types of elements are named after the element). */
export function anonSimple(ctx: Ctx, schema: SchemaDoc, el: XmlElement, path: string, name: string): TypeExpr {
  const a = ctx.anonymous(el, schema.tns, path, name);
  if (a.fresh) lowerSimpleType(ctx, { schema, path: a.local, name: a.name, counters: { any: 0 } }, el, a.id, true);
  return { kind: "ref", id: a.id };
}

export function lowerSimpleType(ctx: Ctx, scope: Scope, el: XmlElement, id: string, anonymous: boolean): void {
  const slot = ctx.reserve();
  const label = `{${scope.schema.tns}}${scope.path}`;
  const common = {
    id,
    name: scope.name,
    scope: scope.schema.tns,
    ...(ctx.doc(el) !== undefined ? { doc: ctx.doc(el) } : {}),
    ...(anonymous ? { anonymous: true } : {}),
    origin: ctx.origin(el, `xsd simpleType ${label}${anonymous ? " (anonymous)" : ""}`),
  };
  const restriction = xsdChild(el, "restriction");
  const list = xsdChild(el, "list");
  const union = xsdChild(el, "union");
  let t: NamedType;
  if (restriction) {
    checkRestrictionChildren(restriction);
    warnXsd11(ctx, restriction);
    const baseRaw = attr(restriction, "base");
    const inline = xsdChild(restriction, "simpleType");
    let target: TypeExpr;
    if (baseRaw !== undefined) target = ctx.typeRef(scope.schema, restriction, "base");
    else if (inline) target = anonSimpleRef(ctx, scope, inline, "base");
    else throw specError(restriction, "xsd:restriction needs a base attribute or an inline xsd:simpleType");
    const scalar =
      baseRaw !== undefined ? ctx.scalarRoot(scope.schema, restriction, baseRaw) : ctx.scalarOfSimple(scope.schema, inline!);
    const { facets, enumeration } = readFacets(restriction);
    // QName values are {namespace}local, their prefixes resolved where written (XSD 1.0 Part 2 §3.2.18): so are the
    // enumerated ones, resolved in the schema's bindings at the xsd:enumeration.
    const listItem = scalar ? undefined : ctx.listItemScalar(scope.schema, restriction, baseRaw, inline);
    const qnames = scalar?.scalar === "QName" || listItem?.scalar === "QName";
    const valueOf = (e: XmlElement): string => {
      const v = attr(e, "value")!;
      if (!qnames) return v;
      return v.trim().split(/\s+/).filter(Boolean).map((token) => clarkQName(e, token)).join(" ");
    };
    if (enumeration.length && scalar) {
      const values: EnumValue[] = enumeration.map((e) => {
        const v = valueOf(e);
        const doc = ctx.doc(e);
        return {
          name: v,
          value: v,
          ...(doc !== undefined ? { doc } : {}),
          origin: ctx.origin(e, `xsd enumeration '${v}' of ${label}`),
        };
      });
      t = { kind: "enum", ...common, base: scalar, values };
    } else {
      // Enumerated lists/unions cannot be an enum of one scalar: keep the values as a facet.
      const all: Facets | undefined = enumeration.length
        ? { ...facets, enumeration: enumeration.map(valueOf) }
        : facets;
      t = { kind: "alias", ...common, target, ...(all ? { facets: all } : {}) };
    }
  } else if (list) {
    const itemRaw = attr(list, "itemType");
    const inline = xsdChild(list, "simpleType");
    let of: TypeExpr;
    if (itemRaw !== undefined) of = ctx.typeByNameOrMissing(scope.schema, list, itemRaw, ANY_SIMPLE_ITEM, "the list's items are typed as xsd:anySimpleType (strings)");
    else if (inline) of = anonSimpleRef(ctx, scope, inline, "item");
    else throw specError(list, "xsd:list needs an itemType attribute or an inline xsd:simpleType");
    t = { kind: "alias", ...common, target: { kind: "list", of } };
  } else if (union) {
    const of: TypeExpr[] = [];
    for (const raw of (attr(union, "memberTypes") ?? "").split(/\s+/).filter(Boolean)) {
      of.push(ctx.typeByNameOrMissing(scope.schema, union, raw, ANY_SIMPLE_ITEM, "the union member is typed as xsd:anySimpleType (a string)"));
    }
    xsdChildren(union, "simpleType").forEach((s, i) => of.push(anonSimpleRef(ctx, scope, s, `member${i + 1}`)));
    if (!of.length) throw specError(union, "xsd:union without member types");
    t = { kind: "alias", ...common, target: { kind: "union", of } };
  } else {
    throw specError(el, `xsd:simpleType ${key({ ns: scope.schema.tns, local: scope.path })} needs xsd:restriction, xsd:list or xsd:union`);
  }
  ctx.fill(slot, t);
}

/** A QName written at `el` as its value: `{namespace}local`, or `local` in no namespace; an unbound prefix as written. */
function clarkQName(el: XmlElement, token: string): string {
  const colon = token.indexOf(":");
  const prefix = colon < 0 ? "" : token.slice(0, colon);
  const local = token.slice(colon + 1);
  const ns = el.scope[prefix];
  if (ns === undefined) return prefix === "" ? local : token;
  return ns === "" ? local : `{${ns}}${local}`;
}
