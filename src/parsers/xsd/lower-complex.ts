/**
 * xsd:complexType -> RecordType, plus the particles (elements, compositors, group refs, wildcards) and attributes
 * that make up its members. Anonymous types met on the way become named types with `anonymous: true`.
 */
import type { Field, Group, Member, OpenContent, RecordType, TypeExpr } from "../../ir/model.js";
import { type XmlElement, XML_NS, attr, attrNs, specError } from "../xml/dom.js";
import { FACETS, WSDL_NS, XSD_NS, builtinScalar, isSoapEnc } from "./builtins.js";
import { type Ctx, type Scope, capitalize, typeId, elementId, xsdChild, xsdChildren } from "./context.js";
import { anonSimple, anonSimpleRef, readFacets } from "./lower-simple.js";
import { soapArrayItemType } from "./soap-array.js";
import { substitutesFor } from "./substitution.js";
import { openContent, warnWildcard11, warnXsd11 } from "./xsd11.js";
import { type Decl, key, type SchemaDoc } from "./resolve.js";

const XSI_NS = "http://www.w3.org/2001/XMLSchema-instance";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type AnyAttribute = NonNullable<RecordType["anyAttribute"]>;

const ANY_TYPE: TypeExpr = { kind: "scalar", scalar: "any", builtin: "xsd:anyType" };
/** An attribute's value is text: anySimpleType there is a string (an "any" codec reads elements, not text). */
const ANY_SIMPLE: TypeExpr = { kind: "scalar", scalar: "string", builtin: "xsd:anySimpleType" };
const STRING: TypeExpr = { kind: "scalar", scalar: "string" };
const PARTICLES = new Set(["element", "sequence", "choice", "all", "group", "any"]);
/** What may stand for a complex type's content model (elements and wildcards only inside one of these). */
const MODELS = ["sequence", "choice", "all", "group"];
const ELEMENT_CHILDREN = new Set(["complexType", "simpleType", "unique", "key", "keyref", "alternative"]);
/** XSD 1.1's xsd:all may hold wildcards and group references too (XSD 1.0's only elements). */
const ALL_PARTICLES = new Set(["element", "any", "group"]);
/** XSD 1.1 children of a complex type or complexContent derivation (xsd11.ts). */
const COMPLEX_11 = ["assert", "openContent"];
const ATTRIBUTES = new Set(["attribute", "attributeGroup", "anyAttribute"]);

const label = (scope: Scope): string => `{${scope.schema.tns}}${scope.path}`;

function only(el: XmlElement, allowed: ReadonlySet<string>, what: string): void {
  for (const c of el.children) {
    if (c.name.ns === XSD_NS && (allowed.has(c.name.local) || c.name.local === "annotation")) continue;
    throw specError(c, `${c.name.ns === XSD_NS ? "xsd:" + c.name.local : "<" + c.name.local + ">"} is not supported in ${what}`);
  }
}

/**
 * The derivations `block` (else the schema's blockDefault) keeps an xsi:type from using: "e" (extension), "r"
 * (restriction), both for #all; undefined for none. ("substitution" concerns substitution groups, not xsi:type.)
 */
export function blockOf(schema: SchemaDoc, el: XmlElement): string | undefined {
  const raw = attr(el, "block") ?? attr(schema.el, "blockDefault");
  if (raw === undefined) return undefined;
  const tokens = raw.trim().split(/\s+/);
  const all = tokens.includes("#all");
  const out = (all || tokens.includes("extension") ? "e" : "") + (all || tokens.includes("restriction") ? "r" : "");
  return out === "" ? undefined : out;
}

/** A reference to an inline xsd:complexType, lowered (once) as an anonymous named type. */
function anonComplexRef(ctx: Ctx, scope: Scope, el: XmlElement, path: string, name: string): TypeExpr {
  const a = ctx.anonymous(el, scope.schema.tns, path, name);
  if (a.fresh) lowerComplexType(ctx, { schema: scope.schema, path: a.local, name: a.name, counters: { any: 0 } }, el, a.id, true);
  return { kind: "ref", id: a.id };
}

/** The type of an element declaration: type=, an inline type, the substitution group head's type, or anyType. */
function declaredType(ctx: Ctx, scope: Scope, el: XmlElement, path: string, name: string, depth = 0): TypeExpr {
  // Identity constraints (unique/key/keyref) relate values across a document; they do not shape any type.
  only(el, ELEMENT_CHILDREN, "xsd:element");
  warnXsd11(ctx, el);
  const complex = xsdChild(el, "complexType");
  const simple = xsdChild(el, "simpleType");
  const hasType = attr(el, "type") !== undefined;
  if ((hasType ? 1 : 0) + (complex ? 1 : 0) + (simple ? 1 : 0) > 1) {
    throw specError(el, "xsd:element has more than one of type=, xsd:complexType and xsd:simpleType");
  }
  if (hasType) return ctx.typeByNameOrMissing(scope.schema, el, attr(el, "type")!, ANY_TYPE, "the element is typed as xsd:anyType (open content)");
  if (complex) return anonComplexRef(ctx, scope, complex, path, name);
  if (simple) return anonSimple(ctx, scope.schema, simple, path, name);
  if (attr(el, "substitutionGroup") !== undefined && depth < 32) {
    // Quietly: lowerGlobalElement reports a missing head or a list of heads (XSD 1.1) once.
    const head = substitutionHead(ctx, scope.schema, el, true);
    if (head !== undefined) return globalElementType(ctx, head, depth + 1);
  }
  return ANY_TYPE;
}

/**
 * The head of an element's substitution group, or undefined (with a located warning) when no element of that name is
 * declared: a missing component, an error only where an instance needs it (XSD 1.0 §5.3; W3C suite saxonData
 * missing002); the element is then a member of no group.
 */
export function substitutionHead(ctx: Ctx, schema: SchemaDoc, el: XmlElement, quiet = false): Decl | undefined {
  const heads = (attr(el, "substitutionGroup") ?? "").trim().split(/\s+/);
  if (heads.length > 1 && !quiet) {
    ctx.warn(el, `substitutionGroup lists ${heads.length} heads (XSD 1.1): the element is a member of the first, '${heads[0]}', only`);
  }
  const raw = heads[0]!;
  const q = ctx.set.qname(schema, el, raw);
  const head = ctx.set.lookupAt("element", q, el);
  if (head === undefined && !quiet) {
    ctx.warn(el, `unknown substitution group head '${raw}' (${key(q)}): a missing component, the element is a member of no substitution group${ctx.set.missingNote(q.ns)}`);
  }
  return head;
}

/** The type of a global element; an anonymous type is named after the element. */
export function globalElementType(ctx: Ctx, d: Decl, depth = 0): TypeExpr {
  const scope: Scope = { schema: d.schema, path: d.name.local, name: d.name.local, counters: { any: 0 } };
  return declaredType(ctx, scope, d.el, d.name.local, d.name.local, depth);
}

function xmlElementHint(ns: string, form: "qualified" | "unqualified", ref?: string) {
  return { xml: { kind: "element" as const, ns, form, ...(ref !== undefined ? { ref } : {}) } };
}

/**
 * `<xs:element ref="xs:schema"/>`: the instance carries a schema of its own (the .NET DataSet pattern: a schema, then
 * the data it describes in an xs:any). Elements of the XML Schema namespace are declared by the schema for schemas,
 * which no WSDL imports; they are open content limited to that namespace (the element kept as XML), with a warning.
 * A declaration of that namespace the spec does bring wins.
 */
function schemaInInstance(ctx: Ctx, scope: Scope, el: XmlElement, ref: string): OpenContent | undefined {
  const q = ctx.set.qname(scope.schema, el, ref);
  if (q.ns !== XSD_NS || ctx.set.lookup("element", q)) return undefined;
  const n = ++scope.counters.any;
  ctx.warn(el, `element ref '${ref.trim()}' (${key(q)}) is an element of the XML Schema namespace: kept as open content (an XML element of that namespace), not typed`);
  return {
    kind: "any",
    name: n === 1 ? "$any" : `$any${n}`,
    namespace: XSD_NS,
    processContents: "lax",
    occurs: ctx.occurs(el),
    origin: ctx.origin(el, `xsd element ref ${key(q)} in ${label(scope)}`),
  };
}

/** The field of a global element `d` referenced at `el` (a ref=, or a member of the substitution group it names). */
function refField(ctx: Ctx, scope: Scope, el: XmlElement, d: Decl, occurs: Field["occurs"]): Field {
  const doc = ctx.doc(el) ?? ctx.doc(d.el);
  const dflt = attr(d.el, "default");
  const fixed = attr(d.el, "fixed");
  return {
    kind: "field",
    name: d.name.local,
    type: globalElementType(ctx, d),
    occurs,
    nullable: attr(d.el, "nillable") === "true",
    ...(dflt !== undefined ? { default: dflt } : {}),
    ...(fixed !== undefined ? { fixed } : {}),
    ...(blockOf(d.schema, d.el) !== undefined ? { block: blockOf(d.schema, d.el)! } : {}),
    ...(doc !== undefined ? { doc } : {}),
    origin: ctx.origin(el, `xsd element ref ${key(d.name)} in ${label(scope)}`),
    wire: xmlElementHint(d.name.ns, "qualified", elementId(d.name)),
  };
}

function elementField(ctx: Ctx, scope: Scope, el: XmlElement): Field | Group | OpenContent {
  const occurs = ctx.occurs(el);
  const ref = attr(el, "ref");
  if (ref !== undefined) {
    if (attr(el, "name") !== undefined) throw specError(el, "xsd:element has both name= and ref=");
    const schemaForSchemas = schemaInInstance(ctx, scope, el, ref);
    if (schemaForSchemas) return schemaForSchemas;
    const d = ctx.set.resolve("element", scope.schema, el, "ref");
    const members = substitutesFor(ctx, d);
    if (members.length === 0) return refField(ctx, scope, el, d, occurs);
    // A substitution group head: a choice between the head (unless abstract) and the members that may stand for it.
    const heads = attr(d.el, "abstract") === "true" ? [] : [d];
    const doc = ctx.doc(el) ?? ctx.doc(d.el);
    return {
      kind: "group",
      compositor: "choice",
      occurs,
      members: [...heads, ...members].map((m) => refField(ctx, scope, el, m, { min: 1, max: 1 })),
      substitutionHead: d.name,
      ...(doc !== undefined ? { doc } : {}),
      origin: ctx.origin(el, `xsd element ref ${key(d.name)} (substitution group) in ${label(scope)}`),
    };
  }
  // name= is an xs:NCName, whose whitespace is collapsed: `name="ResultCode "` declares ResultCode.
  const name = attr(el, "name")?.trim();
  if (name === undefined) throw specError(el, "xsd:element without name= or ref=");
  const formAttr = attr(el, "form");
  if (formAttr !== undefined && formAttr !== "qualified" && formAttr !== "unqualified") {
    throw specError(el, `invalid form '${formAttr}'`);
  }
  const form = formAttr ?? scope.schema.elementFormDefault;
  const doc = ctx.doc(el);
  const dflt = attr(el, "default");
  const fixed = attr(el, "fixed");
  return {
    kind: "field",
    name,
    type: declaredType(ctx, scope, el, `${scope.path}.${name}`, scope.name + capitalize(name)),
    occurs,
    nullable: attr(el, "nillable") === "true",
    ...(dflt !== undefined ? { default: dflt } : {}),
    ...(fixed !== undefined ? { fixed } : {}),
    ...(blockOf(scope.schema, el) !== undefined ? { block: blockOf(scope.schema, el)! } : {}),
    ...(doc !== undefined ? { doc } : {}),
    origin: ctx.origin(el, `xsd element ${name} in ${label(scope)}`),
    wire: xmlElementHint(form === "qualified" ? scope.schema.tns : "", form),
  };
}

function wildcard(el: XmlElement): { namespace: string; processContents: "strict" | "lax" | "skip" } {
  const pc = attr(el, "processContents") ?? "strict";
  if (pc !== "strict" && pc !== "lax" && pc !== "skip") throw specError(el, `invalid processContents '${pc}'`);
  return { namespace: attr(el, "namespace") ?? "##any", processContents: pc };
}

function particle(ctx: Ctx, scope: Scope, el: XmlElement): Member {
  const local = el.name.local;
  switch (local) {
    case "element":
      return elementField(ctx, scope, el);
    case "any": {
      warnWildcard11(ctx, el);
      const n = ++scope.counters.any;
      const o: OpenContent = {
        kind: "any",
        name: n === 1 ? "$any" : `$any${n}`,
        ...wildcard(el),
        occurs: ctx.occurs(el),
        origin: ctx.origin(el, `xsd any in ${label(scope)}`),
      };
      return o;
    }
    case "sequence":
    case "choice":
    case "all": {
      only(el, local === "all" ? ALL_PARTICLES : PARTICLES, `xsd:${local}`);
      const doc = ctx.doc(el);
      const g: Group = {
        kind: "group",
        compositor: local,
        occurs: ctx.occurs(el),
        members: particles(ctx, scope, el),
        ...(doc !== undefined ? { doc } : {}),
        origin: ctx.origin(el, `xsd ${local} in ${label(scope)}`),
      };
      return g;
    }
    case "group": {
      const d = ctx.set.resolve("group", scope.schema, el, "ref");
      const k = key(d.name);
      if (ctx.inlining.includes(k)) throw specError(el, `circular group reference ${k}`);
      const model = xsdChildren(d.el).find((c) => c.name.local !== "annotation");
      if (!model || !["sequence", "choice", "all"].includes(model.name.local)) {
        throw specError(d.el, `xsd:group ${k} needs one xsd:sequence, xsd:choice or xsd:all`);
      }
      ctx.inlining.push(k);
      let members: Member[];
      try {
        // Members are declared in the group's schema (its form defaults and namespace), named after the group.
        const inner: Scope = { schema: d.schema, path: d.name.local, name: d.name.local, counters: scope.counters };
        only(model, model.name.local === "all" ? ALL_PARTICLES : PARTICLES, `xsd:${model.name.local}`);
        members = particles(ctx, inner, model);
      } finally {
        // Also after an error: lowering goes on (see Diagnostics), and a stale entry would look like a cycle.
        ctx.inlining.pop();
      }
      const doc = ctx.doc(el) ?? ctx.doc(d.el);
      const g: Group = {
        kind: "group",
        compositor: model.name.local as Group["compositor"],
        name: d.name.local,
        occurs: ctx.occurs(el),
        members,
        ...(doc !== undefined ? { doc } : {}),
        origin: ctx.origin(el, `xsd group ${k} in ${label(scope)}`),
      };
      return g;
    }
    default:
      throw specError(el, `xsd:${local} is not supported here`);
  }
}

function particles(ctx: Ctx, scope: Scope, holder: XmlElement): Member[] {
  return xsdChildren(holder)
    .filter((c) => PARTICLES.has(c.name.local))
    // A particle in error (an unknown type, a bad occurs) is reported and left out; its siblings are still checked.
    .flatMap((c) => ctx.recover(() => particle(ctx, scope, c)) ?? []);
}

function attributeType(ctx: Ctx, scope: Scope, el: XmlElement, name: string): TypeExpr {
  const inline = xsdChild(el, "simpleType");
  if (attr(el, "type") !== undefined) {
    if (inline) throw specError(el, "xsd:attribute has both type= and an inline xsd:simpleType");
    const t = ctx.typeByNameOrMissing(scope.schema, el, attr(el, "type")!, ANY_SIMPLE, "the attribute is typed as xsd:anySimpleType (a string)");
    return t.kind === "scalar" && t.scalar === "any" ? ANY_SIMPLE : t;
  }
  if (inline) return anonSimpleRef(ctx, scope, inline, name);
  return ANY_SIMPLE;
}

function attributeField(ctx: Ctx, scope: Scope, el: XmlElement): Field | undefined {
  const use = attr(el, "use") ?? "optional";
  if (use !== "optional" && use !== "required" && use !== "prohibited") throw specError(el, `invalid use '${use}'`);
  // use="prohibited" removes an inherited attribute in a restriction: there is nothing to declare.
  if (use === "prohibited") return undefined;
  const occurs = { min: use === "required" ? 1 : 0, max: 1 } as const;
  let name: string;
  let ns: string;
  let form: "qualified" | "unqualified";
  let type: TypeExpr;
  let decl: XmlElement | undefined;
  const ref = attr(el, "ref");
  if (ref !== undefined) {
    const q = ctx.set.qname(scope.schema, el, ref);
    ({ ns, local: name } = q);
    form = "qualified";
    if (q.ns === XSI_NS) {
      // XSD 1.1 lets a type refer to the built-in xsi:type/nil/schemaLocation declarations; the runtime reads those
      // attributes itself (and a default for them is ignored, as XSD 1.1 §3.2.6.4 says), so they are no fields.
      if (use === "required" || attr(el, "fixed") !== undefined) ctx.warn(el, `attribute ref '${ref.trim()}': a required or fixed xsi: attribute is not checked`);
      return undefined;
    }
    if (q.ns === XML_NS || isSoapEnc(q.ns)) {
      // xml:lang/xml:space/... and the SOAP-encoding attributes are known without their schemas.
      type = STRING;
    } else {
      const d = ctx.set.resolve("attribute", scope.schema, el, "ref");
      decl = d.el;
      type = attributeType(ctx, { schema: d.schema, path: d.name.local, name: d.name.local, counters: { any: 0 } }, d.el, "type");
    }
  } else {
    const n = attr(el, "name")?.trim();
    if (n === undefined) throw specError(el, "xsd:attribute without name= or ref=");
    name = n;
    const f = attr(el, "form") ?? scope.schema.attributeFormDefault;
    if (f !== "qualified" && f !== "unqualified") throw specError(el, `invalid form '${f}'`);
    form = f;
    ns = form === "qualified" ? scope.schema.tns : "";
    type = attributeType(ctx, scope, el, name);
  }
  const dflt = attr(el, "default") ?? (decl && attr(decl, "default"));
  const fixed = attr(el, "fixed") ?? (decl && attr(decl, "fixed"));
  const doc = ctx.doc(el) ?? (decl && ctx.doc(decl));
  return {
    kind: "field",
    name,
    type,
    occurs,
    nullable: false,
    ...(dflt !== undefined ? { default: dflt } : {}),
    ...(fixed !== undefined ? { fixed } : {}),
    ...(doc !== undefined ? { doc } : {}),
    origin: ctx.origin(el, `xsd attribute ${name} in ${label(scope)}`),
    wire: { xml: { kind: "attribute", ns, form } },
  };
}

/** The `{ns}local` of a use="prohibited" attribute (a reference's, or a local one's by its form). */
function prohibitedName(ctx: Ctx, scope: Scope, el: XmlElement): string {
  const ref = attr(el, "ref");
  if (ref !== undefined) {
    const q = ctx.set.qname(scope.schema, el, ref);
    return `{${q.ns}}${q.local}`;
  }
  const form = attr(el, "form") ?? scope.schema.attributeFormDefault;
  return `{${form === "qualified" ? scope.schema.tns : ""}}${attr(el, "name")?.trim() ?? ""}`;
}

interface Attrs {
  fields: Field[];
  anyAttribute?: AnyAttribute;
  /** `{ns}local` of every use="prohibited" attribute (what a restriction removes from its base's). */
  prohibited?: string[];
}

function attributes(ctx: Ctx, scope: Scope, holder: XmlElement, out: Attrs = { fields: [] }): Attrs {
  for (const c of xsdChildren(holder)) {
    if (c.name.local === "attribute") {
      const f = attributeField(ctx, scope, c);
      if (f) out.fields.push(f);
      else (out.prohibited ??= []).push(prohibitedName(ctx, scope, c));
    } else if (c.name.local === "attributeGroup") {
      const d = ctx.set.resolve("attributeGroup", scope.schema, c, "ref");
      const k = key(d.name);
      // XSD 1.1 allows circular attribute group references (XSD 1.0 did not): the cycle's attributes are those of
      // its groups, which are being collected already.
      if (ctx.inlining.includes(k)) continue;
      only(d.el, ATTRIBUTES, `xsd:attributeGroup ${k}`);
      ctx.inlining.push(k);
      // XSD 1.0: a use="prohibited" attribute in an attribute group contributes nothing (W3C suite attZ015: the
      // restriction keeps its base's attribute), so the group's prohibitions are not collected.
      const prohibited = out.prohibited?.slice();
      try {
        attributes(ctx, { schema: d.schema, path: d.name.local, name: d.name.local, counters: scope.counters }, d.el, out);
      } finally {
        ctx.inlining.pop();
        if (prohibited === undefined) delete out.prohibited;
        else out.prohibited = prohibited;
      }
    } else if (c.name.local === "anyAttribute") {
      // Several wildcards (from attribute groups) would intersect; the first one is kept as the record's.
      out.anyAttribute ??= wildcard(c);
    }
  }
  return out;
}

/** The members a content model contributes: a once-occurring top-level sequence/all is flattened into the record. */
function modelMembers(ctx: Ctx, scope: Scope, holder: XmlElement): Member[] {
  const models = xsdChildren(holder).filter((c) => MODELS.includes(c.name.local));
  if (models.length > 1) throw specError(models[1]!, "a complex type has at most one xsd:sequence, xsd:choice, xsd:all or xsd:group");
  const top = models[0];
  if (!top) return [];
  const occ = ctx.occurs(top);
  if ((top.name.local === "sequence" || top.name.local === "all") && occ.min === 1 && occ.max === 1) {
    only(top, top.name.local === "all" ? ALL_PARTICLES : PARTICLES, `xsd:${top.name.local}`);
    return particles(ctx, scope, top);
  }
  return [particle(ctx, scope, top)];
}

/**
 * Whether a content model holder's particle is an xsd:all (a once-occurring one is flattened by modelMembers, so the
 * record's members no longer say their order is free).
 */
function isAllContent(holder: XmlElement): boolean {
  return xsdChildren(holder).find((c) => MODELS.includes(c.name.local))?.name.local === "all";
}

/**
 * The particle and attributes of a complexType (or of its extension/restriction), with its XSD 1.1 open content (a
 * wildcard after the model: xsd11.ts) when `open` (the complexType element) is given.
 */
function contentModel(ctx: Ctx, scope: Scope, holder: XmlElement, open?: XmlElement): { members: Member[]; anyAttribute?: AnyAttribute; prohibited?: string[] } {
  const members = modelMembers(ctx, scope, holder);
  if (open !== undefined) {
    const own = xsdChild(holder, "openContent") ?? xsdChild(open, "openContent");
    const oc = openContent(ctx, scope, own, members.length === 0, label(scope));
    if (oc) members.push(oc);
  }
  const a = attributes(ctx, scope, holder);
  members.push(...a.fields);
  return { members, ...(a.anyAttribute ? { anyAttribute: a.anyAttribute } : {}), ...(a.prohibited ? { prohibited: a.prohibited } : {}) };
}

function valueField(ctx: Ctx, scope: Scope, at: XmlElement, type: TypeExpr, extra: Partial<Field> = {}): Field {
  return {
    kind: "field",
    name: "$value",
    // Simple content is text: anySimpleType (or anyType) there is a string, as for attributes (W3C XSD suite stZ008).
    type: type.kind === "scalar" && type.scalar === "any" ? ANY_SIMPLE : type,
    occurs: { min: 1, max: 1 },
    nullable: false,
    ...extra,
    origin: ctx.origin(at, `xsd simpleContent value of ${label(scope)}`),
    wire: { xml: { kind: "text", ns: "", form: "unqualified" } },
  };
}

/** The text value type of a complex type with simple content (walking up its simpleContent bases). */
function simpleContentValue(ctx: Ctx, d: Decl, at: XmlElement, depth = 0): TypeExpr {
  const sc = d.el.name.local === "complexType" ? xsdChild(d.el, "simpleContent") : undefined;
  const der = sc && (xsdChild(sc, "extension") ?? xsdChild(sc, "restriction"));
  const raw = der && attr(der, "base");
  if (!der || raw === undefined || depth > 64) throw specError(at, `base type ${key(d.name)} has no simple content`);
  const base = ctx.typeDecl(d.schema, der, raw);
  if (!base || base.el.name.local === "simpleType") return ctx.typeRef(d.schema, der, "base");
  return simpleContentValue(ctx, base, at, depth + 1);
}

/**
 * A restriction of soapenc:Array. Chosen shape: a record (no base) with one repeated element member. When the
 * restriction restates a sequence, that sequence names the item element; otherwise the item is "item", typed by
 * the wsdl:arrayType attribute ("tns:Foo[]"). Encoded arrays are repeated child elements on the wire, so a
 * repeated field describes them better than a ListType (which means a whitespace-separated xsd:list).
 */
function soapArray(ctx: Ctx, scope: Scope, der: XmlElement): Member[] {
  const members = modelMembers(ctx, scope, der);
  if (members.length) return members;
  let item: TypeExpr = ANY_TYPE;
  for (const a of xsdChildren(der, "attribute")) {
    const at = attrNs(a, WSDL_NS, "arrayType");
    if (at === undefined) continue;
    item = soapArrayItemType(ctx, scope, a, at);
  }
  return [
    {
      kind: "field",
      name: "item",
      type: item,
      occurs: { min: 0, max: "unbounded" },
      nullable: true,
      origin: ctx.origin(der, `soapenc Array item of ${label(scope)}`),
      wire: xmlElementHint("", "unqualified"),
    },
  ];
}

/**
 * XSD 1.1 defaultAttributes (on xsd:schema): the attribute group every complex type of the schema document gets,
 * unless it says defaultAttributesApply="false". An extension inherits them from its base (which has them already).
 */
function defaultAttributes(ctx: Ctx, scope: Scope, el: XmlElement, rec: Mutable<RecordType>): void {
  if (attr(scope.schema.el, "defaultAttributes") === undefined || attr(el, "defaultAttributesApply")?.trim() === "false") return;
  if (rec.base?.derivation === "extension") return;
  const d = ctx.set.resolve("attributeGroup", scope.schema, scope.schema.el, "defaultAttributes");
  const k = key(d.name);
  if (ctx.inlining.includes(k)) throw specError(el, `circular attributeGroup reference ${k}`);
  const own = new Set(rec.members.flatMap((m) => (m.kind === "field" && m.wire?.xml?.kind === "attribute" ? [`{${m.wire.xml.ns}}${m.name}`] : [])));
  ctx.inlining.push(k);
  let got: Attrs;
  try {
    got = attributes(ctx, { schema: d.schema, path: d.name.local, name: d.name.local, counters: scope.counters }, d.el);
  } finally {
    ctx.inlining.pop();
  }
  rec.members = [...rec.members, ...got.fields.filter((f) => !own.has(`{${f.wire?.xml?.ns}}${f.name}`))];
  if (got.anyAttribute && !rec.anyAttribute) rec.anyAttribute = got.anyAttribute;
}

export function lowerComplexType(ctx: Ctx, scope: Scope, el: XmlElement, id: string, anonymous: boolean): void {
  const slot = ctx.reserve();
  only(el, new Set([...MODELS, ...ATTRIBUTES, ...COMPLEX_11, "simpleContent", "complexContent"]), "xsd:complexType");
  warnXsd11(ctx, el);
  const doc = ctx.doc(el);
  const rec: Mutable<RecordType> = {
    kind: "record",
    id,
    name: scope.name,
    scope: scope.schema.tns,
    ...(doc !== undefined ? { doc } : {}),
    ...(anonymous ? { anonymous: true } : {}),
    origin: ctx.origin(el, `xsd complexType ${label(scope)}${anonymous ? " (anonymous)" : ""}`),
    members: [],
  };
  if (attr(el, "abstract") === "true") rec.abstract = true;
  const block = blockOf(scope.schema, el);
  if (block !== undefined) rec.block = block;
  let mixed = xsdTrue(attr(el, "mixed"));
  const cc = xsdChild(el, "complexContent");
  const sc = xsdChild(el, "simpleContent");
  if (cc && sc) throw specError(sc, "xsd:complexType has both complexContent and simpleContent");
  const holder = cc ?? sc;
  if (holder) {
    const ders = xsdChildren(holder).filter((c) => c.name.local !== "annotation");
    const der = ders[0];
    if (!der || ders.length > 1 || (der.name.local !== "extension" && der.name.local !== "restriction")) {
      throw specError(holder, `xsd:${holder.name.local} needs exactly one xsd:extension or xsd:restriction`);
    }
    const derivation = der.name.local as "extension" | "restriction";
    const baseRaw = attr(der, "base");
    if (baseRaw === undefined) throw specError(der, `xsd:${derivation} without base=`);
    const baseQ = ctx.set.qname(scope.schema, der, baseRaw);
    const baseDecl = ctx.typeDecl(scope.schema, der, baseRaw);
    if (cc) {
      mixed ||= xsdTrue(attr(cc, "mixed"));
      only(der, new Set([...MODELS, ...ATTRIBUTES, ...COMPLEX_11]), `complexContent xsd:${derivation}`);
      warnXsd11(ctx, der);
      if (isSoapEnc(baseQ.ns) && baseQ.local === "Array") {
        rec.members = derivation === "restriction" ? soapArray(ctx, scope, der) : contentModel(ctx, scope, der).members;
        if (derivation === "restriction" && rec.members.length === 1 && rec.members[0]!.kind === "field") rec.soapEncArray = true;
      } else {
        if (baseDecl) {
          if (baseDecl.el.name.local !== "complexType") {
            throw specError(der, `complexContent base '${baseRaw}' (${key(baseQ)}) is not a complex type`);
          }
          rec.base = { id: typeId(baseDecl.name), derivation };
        } else if (builtinScalar(baseQ.ns, baseQ.local)?.scalar !== "any") {
          throw specError(der, `complexContent base '${baseRaw}' (${key(baseQ)}) is not a complex type`);
        }
        const c = contentModel(ctx, scope, der, el);
        rec.members = c.members;
        if (isAllContent(der)) rec.allContent = true;
        if (c.anyAttribute) rec.anyAttribute = c.anyAttribute;
        if (c.prohibited && derivation === "restriction") rec.prohibitedAttributes = c.prohibited;
      }
    } else {
      only(der, new Set([...ATTRIBUTES, "simpleType", "assert", ...FACETS]), `simpleContent xsd:${derivation}`);
      warnXsd11(ctx, der);
      const members: Member[] = [];
      const baseIsComplex = baseDecl?.el.name.local === "complexType";
      if (baseIsComplex) rec.base = { id: typeId(baseDecl!.name), derivation };
      if (derivation === "extension") {
        // Extending a complex type inherits its $value; extending a simple type introduces it.
        if (!baseIsComplex) members.push(valueField(ctx, scope, der, ctx.typeRef(scope.schema, der, "base")));
      } else {
        const inline = xsdChild(der, "simpleType");
        const type = inline
          ? anonSimpleRef(ctx, scope, inline, "value")
          : baseIsComplex
            ? simpleContentValue(ctx, baseDecl!, der)
            : ctx.typeRef(scope.schema, der, "base");
        const { facets, enumeration } = readFacets(der);
        const all = enumeration.length ? { ...facets, enumeration: enumeration.map((e) => attr(e, "value")!) } : facets;
        members.push(valueField(ctx, scope, der, type, all ? { facets: all } : {}));
      }
      const a = attributes(ctx, scope, der);
      members.push(...a.fields);
      rec.members = members;
      if (a.anyAttribute) rec.anyAttribute = a.anyAttribute;
      if (a.prohibited && derivation === "restriction") rec.prohibitedAttributes = a.prohibited;
    }
  } else {
    const c = contentModel(ctx, scope, el, el);
    rec.members = c.members;
    if (isAllContent(el)) rec.allContent = true;
    if (c.anyAttribute) rec.anyAttribute = c.anyAttribute;
  }
  defaultAttributes(ctx, scope, el, rec);
  if (mixed) rec.mixed = true;
  ctx.fill(slot, rec);
}

/** An xsd:boolean attribute's value is true ("true" or "1", white space collapsed). */
function xsdTrue(v: string | undefined): boolean {
  const t = v?.trim();
  return t === "true" || t === "1";
}
