import { stringLiteral } from "../../codegen/escape.js";
import type { Printable } from "../../codegen/generated-file.js";
import type { EnumType, Member, RecordType, TypeExpr } from "../../ir/model.js";
import { lookupType } from "../types/context.js";
import { typeExprTs } from "../types/type-expr.js";
import { code, typeRef, type XmlContext } from "./context.js";
import { familyRootOf, strictDeclarations, type AnySlot, type RecordLayout } from "./record-layout.js";
import { decodedPatterns, holdsQName, isSimple, lexicalOf, valueOf } from "./simple-values.js";

/**
 * The codec table of xml.ts: one XmlCodecTable value (see the runtime's record-codec.ts) holding an entry per record
 * type with a line per field, which the runtime's XmlRecordCodec walks (see README.md), plus the families, named
 * simple and enumeration codecs, global elements and named types. A field is `[flags, namespace, local name,
 * property key, "codec"]`, the flags being the kind (0 element, 1 attribute, 2 text, 3 wildcard) plus 4 required,
 * 8 list, 16 nillable, 32 an item of a group kept in document order (the line ends with the item's kind; every
 * line of the group has the group's property as key), 64 a field of a repeating sequence written in rounds (128 its
 * first field; the line ends with "", then the most items of the field one round writes), 256 a strict wildcard
 * admitting global elements of the schema, 512 an element whose particle comes after the previous line's in the
 * record's sequence (the decoder notes a child out of that order, see orderRanks); a wildcard's entry is `[flags, target namespace, namespace
 * constraint, key]` (`[flags, tns, constraint, key, "", kind]` in an ordered group). Entries name
 * each other by string (`"r$Name"`, `"f$Family"`, `"enum$Name"`, `"s$N"`, `"any"`), resolved by the runtime.
 */

export const CODECS = "xmlCodecs";

const ELEMENT = 0;
const ATTRIBUTE = 1;
const TEXT = 2;
const ANY = 3;
const REQUIRED = 4;
const LIST = 8;
const NILLABLE = 16;
const ORDERED = 32;
const ROUND = 64;
const ROUND_START = 128;
/** A strict wildcard that admits global elements of the schema (read by their declarations). */
const STRICT = 256;
/** The particle ranks above the one before it in the record's content model (see orderRanks). */
const NEXT_RANK = 512;

/**
 * The rank of each particle line of a record whose children's order the decoder checks, in line order (one per
 * element/wildcard line, ordered items included), or undefined when the order is not checked: with a wildcard (a
 * child's place then depends on position, not name), an element name at several places, or a SOAP-encoded array
 * (items of any name). When in doubt the order is not checked: a valid document must never be noted.
 */
export function orderRanks(t: RecordType, layout: RecordLayout): number[] | undefined {
  if (t.soapEncArray === true) return undefined;
  const ranks: number[] = [];
  const names = new Set<string>();
  for (const s of layout.slots) {
    const leaves = s.kind === "ordered" ? s.items.map((i) => i.slot) : [s];
    for (const l of leaves) {
      if (l.kind === "any") return undefined;
      if (l.kind !== "element") continue;
      const name = `{${l.ns}}${l.local}`;
      if (names.has(name)) return undefined;
      names.add(name);
      const rank = layout.ranks.get(l.field);
      if (rank === undefined) return undefined;
      ranks.push(rank);
    }
  }
  // Lines follow the content model, so ranks never decrease; a record whose lines would say otherwise is not checked.
  if (ranks.some((r, i) => i > 0 && r < ranks[i - 1]!)) return undefined;
  return ranks.some((r, i) => i > 0 && r !== ranks[i - 1]) ? ranks : undefined;
}

/** STRICT for a strict wildcard admitting some global element of the schema, else 0. */
function strict(s: AnySlot, x: XmlContext): number {
  return strictDeclarations(s, x.doc).length > 0 ? STRICT : 0;
}

/** The name of a record's codec in the table (its own fields, no xsi:type dispatch). */
export function recordCodec(id: string, x: XmlContext): string {
  return `r$${x.names.type(id)}`;
}

/** Element ids that head a substitution group (per document, worked out once). */
const headsOf = new WeakMap<object, ReadonlySet<string>>();

/** Whether an element field of the layout refers to the head of a substitution group. */
function hasSubstitutionHead(layout: RecordLayout, x: XmlContext): boolean {
  let heads = headsOf.get(x.doc);
  if (heads === undefined) headsOf.set(x.doc, (heads = new Set(x.doc.elements.flatMap((e) => (e.substitutionGroup !== undefined ? [e.substitutionGroup] : [])))));
  if (heads.size === 0) return false;
  const isHead = (s: { readonly kind: string; readonly field?: { readonly wire: { readonly xml?: { readonly ref?: string } } } }) =>
    s.kind === "element" && s.field?.wire.xml?.ref !== undefined && heads.has(s.field.wire.xml.ref);
  return layout.slots.some((s) => (s.kind === "ordered" ? s.items.some((i) => isHead(i.slot)) : isHead(s)));
}

/**
 * A record's entry: `["r$Name", ns, "xmlName", "TsName", family, [` then a line per field, then `]],` (or
 * `], "$attributes"],` with xsd:anyAttribute).
 */
export function recordEntry(t: RecordType, x: XmlContext, simple: SimpleCodecs): Printable[] {
  const name = x.names.type(t.id);
  const layout = x.layout(t.id);
  // Family bits, 4 (XML_MIXED) for mixed content: text in an element of empty content is otherwise noted; 8
  // (XML_SUBSTITUTABLE) when an element of the record heads a substitution group: members in its place are not read
  // as such yet, so children no field takes are not noted (they may be valid substitutes).
  const family = (layout.familyRoot === undefined ? 0 : layout.familyRoot === t.id ? 1 : 2) + (t.mixed === true ? 4 : 0) + (hasSubstitutionHead(layout, x) ? 8 : 0);
  const attributes = layout.attributesKey !== undefined ? `, ${stringLiteral(layout.attributesKey)}` : "";
  const head = `[${stringLiteral(recordCodec(t.id, x))}, ${x.ns(t.scope)}, ${stringLiteral(t.name)}, ${stringLiteral(name)}, ${String(family)}, [`;
  if (layout.slots.length === 0) return [`${head}]${attributes}],`];
  const out: Printable[] = [head];
  // NEXT_RANK on each particle line whose rank is above the previous line's (order checked: orderRanks).
  const ranks = orderRanks(t, layout);
  let line = 0;
  const next = (): number => {
    const at = line++;
    return ranks !== undefined && at > 0 && ranks[at]! > ranks[at - 1]! ? NEXT_RANK : 0;
  };
  for (const s of layout.slots) {
    if (s.kind === "ordered") {
      s.items.forEach((item, i) => {
        const required = i === 0 && s.ordered.minItems >= 1 ? REQUIRED : 0;
        const flags = ORDERED + LIST + required + next();
        const kind = stringLiteral(item.kind);
        const e = item.slot;
        if (e.kind === "any") out.push(`  [${ANY + flags + strict(e, x)}, ${x.ns(e.tns)}, ${stringLiteral(e.any.namespace)}, ${stringLiteral(e.key)}, "", ${kind}],`);
        else {
          const nillable = e.field.nullable ? NILLABLE : 0;
          out.push(`  [${ELEMENT + flags + nillable}, ${x.ns(e.ns)}, ${stringLiteral(e.local)}, ${stringLiteral(e.key)}, ${stringLiteral(codecOf(e.field.type, x, simple))}, ${kind}],`);
        }
      });
      continue;
    }
    const occurs = (s.occurs.min >= 1 ? REQUIRED : 0) + (s.kind !== "any" && s.list ? LIST : 0);
    if (s.kind === "any") {
      out.push(`  [${ANY + occurs + strict(s, x)}, ${x.ns(s.tns)}, ${stringLiteral(s.any.namespace)}, ${stringLiteral(s.key)}],`);
      continue;
    }
    const kind = s.kind === "attribute" ? ATTRIBUTE : s.kind === "text" ? TEXT : ELEMENT;
    const flags = kind + occurs + (s.kind === "element" && s.field.nullable ? NILLABLE : 0) + (s.kind === "element" ? next() : 0);
    const codec = s.kind === "element" ? constrainedCodecOf(s.field.type, s.field, x, simple) : codecOf(s.field.type, x, simple);
    const round = s.kind === "element" && s.round !== undefined && s.list ? s.round : undefined;
    const roundFlags = round === undefined ? 0 : ROUND + (round.start ? ROUND_START : 0);
    const roundTail = round === undefined ? "" : `, "", ${round.perRound}`;
    out.push(`  [${String(flags + roundFlags)}, ${x.ns(s.ns)}, ${stringLiteral(s.local)}, ${stringLiteral(s.key)}, ${stringLiteral(codec)}${roundTail}],`);
  }
  out.push(`]${attributes}],`);
  return out;
}

/** A family's entry: `["f$Family", "r$Root", isRoot, abstract, ["r$Member", ...]],` (dispatch by xsi:type / $type). */
export function familyEntry(t: RecordType, x: XmlContext): string {
  const family = x.names.family(t.id)!;
  const isRoot = familyRootOf(t, x.types) === t.id;
  const ids = familyMembers(t, x);
  const members = ids.map((id) => stringLiteral(recordCodec(id, x)));
  // With a block in the schema: each member's derivation methods from the root, "e"/"r" per step (see XML_BLOCKED).
  const chains = x.doc.types.some((r) => r.kind === "record" && r.block !== undefined) || hasBlockedElement(x) ? `, [${ids.map((id) => stringLiteral(chainOf(id, t.id, x))).join(", ")}]` : "";
  return `[${stringLiteral(`f$${family}`)}, ${stringLiteral(recordCodec(t.id, x))}, ${isRoot}, ${t.abstract === true}, [${members.join(", ")}]${chains}],`;
}

/** Whether some element declaration of the schema has a block (its own or the blockDefault). */
function hasBlockedElement(x: XmlContext): boolean {
  if (x.doc.elements.some((e) => e.block !== undefined)) return true;
  const inMembers = (members: readonly Member[]): boolean => members.some((m) => (m.kind === "field" ? m.block !== undefined : m.kind === "group" ? inMembers(m.members) : false));
  return x.doc.types.some((t) => t.kind === "record" && inMembers(t.members));
}

/** The derivation methods from `root` down to `id` ("e" extension, "r" restriction per step). */
function chainOf(id: string, root: string, x: XmlContext): string {
  let chain = "";
  for (let t = lookupType(x.types, id) as RecordType, n = 0; t.id !== root && t.base !== undefined && n < 64; n++) {
    chain = (t.base.derivation === "extension" ? "e" : "r") + chain;
    t = lookupType(x.types, t.base.id) as RecordType;
  }
  return chain;
}

/** The record and its subtypes that can be instantiated (abstract types only appear through a subtype). */
export function familyMembers(t: RecordType, x: XmlContext): string[] {
  return [t.id, ...(x.types.subtypes.get(t.id) ?? [])].filter((id) => !(lookupType(x.types, id) as RecordType).abstract);
}

/** `["enum$Name", xmlEnumCodec(NameValues, "Name")],` (the values come from the list types.ts exports). */
export function enumEntry(t: EnumType, x: XmlContext): Printable {
  const list = x.f.import(x.names.enumValues(t.id), "./types.js");
  const scalar = t.base.kind === "scalar" ? t.base.scalar : undefined;
  const qname = scalar === "QName" ? ", true" : scalar === "dateTime" || scalar === "date" || scalar === "time" || scalar === "duration" ? ", false, true" : "";
  return code`[${stringLiteral(`enum$${x.names.type(t.id)}`)}, ${x.rt("xmlEnumCodec")}(${list}, ${stringLiteral(t.name)}${qname})],`;
}

/** The name of the codec of values of type `t` in an element: a simple codec, a record's, a family's, or xsd:anyType's. */
export function codecOf(t: TypeExpr, x: XmlContext, simple: SimpleCodecs): string {
  if (t.kind === "ref") {
    const n = x.type(t.id);
    if (n.kind === "enum") return `enum$${x.names.type(n.id)}`;
    // A restriction is read as its base, unless the decoder checks its patterns on the text (decodedPatterns).
    if (n.kind === "alias" && isSimple(n.target, x)) return decodedPatterns(n, x).length > 0 ? simple.of(t) : codecOf(n.target, x, simple);
    if (n.kind === "record") {
      const family = x.names.family(t.id);
      return family ? `f$${family}` : recordCodec(t.id, x);
    }
  }
  if (isSimple(t, x)) return simple.of(t);
  return "any";
}

/**
 * The codec of an element with a value constraint (default= or fixed=): an empty element (no text, no children) has
 * that value (XSD 1.0 Part 1 §3.3.4, Element Locally Valid (Element) 5.1.2 and §3.3.1's {value constraint}). A simple
 * codec that reads the constraint's text in place of the empty text; other codecs as they are.
 */
export function constrainedCodecOf(t: TypeExpr, decl: { readonly default?: string; readonly fixed?: string; readonly block?: string }, x: XmlContext, simple: SimpleCodecs): string {
  const codec = codecOf(t, x, simple);
  if (codec.startsWith("f$") && t.kind === "ref") {
    // xsi:type may not name a type derived by a method the element's block or its type's block prohibits: the family
    // without those members ("f$Name/er", made by the runtime from the family's derivation chains).
    const own = (lookupType(x.types, t.id) as RecordType).block ?? "";
    const blocked = ["e", "r"].filter((m) => (decl.block ?? "").includes(m) || own.includes(m)).join("");
    if (blocked !== "") return `${codec}/${blocked}`;
  }
  const constraint = decl.fixed ?? decl.default;
  if (constraint === undefined || codec.startsWith("r$") || codec.startsWith("f$")) return codec;
  return simple.constrained(codec, constraint, decl.fixed !== undefined);
}

/** Simple codecs, one per distinct simple type expression, named `s$1`, `s$2`, ... in order of first use (table entries). */
export class SimpleCodecs {
  private readonly byKey = new Map<string, { name: string; line: Printable }>();
  constructor(private readonly x: XmlContext) {}
  of(t: TypeExpr): string {
    const key = JSON.stringify(t);
    const known = this.byKey.get(key);
    if (known) return known.name;
    const name = `s$${this.byKey.size + 1}`;
    const { x } = this;
    const parse = code`(text: string, path: string) => ${valueOf("text", "path", t, x)}`;
    const lexical = lexicalOf("v", t, x);
    const ts = typeRef(typeExprTs(t, x.types), x);
    const qname = holdsQName(t, x);
    const line = lexical === "v" && !qname
      ? code`[${stringLiteral(name)}, ${x.rt("xmlTextCodec")}(${parse})],`
      : code`[${stringLiteral(name)}, new ${x.rt("XmlSimpleCodec")}(${parse}, (v: ${ts}) => ${lexical}${qname ? ", false, true" : ""})],`;
    this.byKey.set(key, { name, line });
    return name;
  }
  /** `codec` (a simple or enumeration codec's name) reading `text` when the element is empty. */
  constrained(codec: string, text: string, fixed: boolean): string {
    const key = JSON.stringify(["constrained", codec, text, fixed]);
    const known = this.byKey.get(key);
    if (known) return known.name;
    const name = `s$${this.byKey.size + 1}`;
    const line = code`[${stringLiteral(name)}, ${this.x.rt("xmlValueConstraint")}(${stringLiteral(codec)}, ${stringLiteral(text)}${fixed ? ", true" : ""})],`;
    this.byKey.set(key, { name, line });
    return name;
  }
  lines(): Printable[] {
    return [...this.byKey.values()].map((c) => c.line);
  }
}
