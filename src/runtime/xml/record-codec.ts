import { xmlMissingNillable } from "./absent-nillable.js";
import type { XmlDecodeOptions, XmlElementCodec, XmlEncodeOptions } from "./codec-options.js";
import { decodeXmlElement, encodeXmlElement } from "./element-entry.js";
import { XmlDecodeError, XmlEncodeError } from "./errors.js";
import { clarkName, XSI_NS, type XmlElementNode } from "./node.js";
import {
  encodeAnyValue,
  encodeOpenContent,
  encodeXmlAttributes,
  openTypes,
  readAnyValue,
  readOpenItem,
  xmlMissing,
  xmlMissingProperty,
  xmlNilElement,
  type OpenContentItem,
  type OpenTypes,
  type XmlTypeCodec,
} from "./open-content.js";
import type { XmlPrefixScope, XmlTag } from "./prefix-scope.js";
import type { XmlDocumentRules, XmlIdentityConstraint } from "./identity.js";
import { parseXml } from "./parse.js";
import type { KnownTag, XmlPullReader } from "./pull.js";
import { readerOfNode } from "./pulled-element.js";
import { compareXsdTemporal } from "./temporal-order.js";
import { xsdEnumKey } from "./checks.js";
import { isXsdDecimal } from "./lexical.js";
import type { XmlWriter } from "./writer.js";
import { formatXsdQName, parseXsdQName, withXmlQNameScope, withXmlQNameWriter } from "./qname.js";
import { attachXmlNotes, xmlNote, xmlNoteName, type XmlUndeclaredNote } from "./undeclared.js";

/**
 * Table-driven XML codecs. A generated xml.ts describes each record type as a list of fields (where each lives in
 * XML, its name, occurrence and the codec of its value) and the codecs here walk that description, instead of one
 * specialized read and write function per type: a schema of hundreds of types then costs a line per field, and
 * the lookups a reader needs are built once, on first use. The behaviour (order, errors and their paths, open
 * content, lenient nillable) is the one described in the xml emitter's README.
 */

/** Field kinds (low bits) and flags of a field descriptor. */
export const XML_ELEMENT = 0;
export const XML_ATTRIBUTE = 1;
export const XML_TEXT = 2;
export const XML_ANY = 3;
export const XML_REQUIRED = 4;
export const XML_LIST = 8;
export const XML_NILLABLE = 16;
/**
 * An element or wildcard of a repeating group kept in document order: every line of the group has the group's
 * property as key and ends with the item's kind; the property holds `{ kind, value }` items in document order.
 */
export const XML_ORDERED = 32;
/**
 * A field of a repeating sequence of bounded elements (`(x1, x2){2}`), one array per element: encoded in rounds, up
 * to its line's last entry (a number) items of each field per round, in sequence order. XML_ROUND_START marks the
 * sequence's first field.
 */
export const XML_ROUND = 64;
export const XML_ROUND_START = 128;
/**
 * On an XML_ANY line: the wildcard's processContents is strict. A child naming a global element of the table is
 * then that element, validated as such (XSD 1.0 3.10.1): read and written by the element's declaration, so its value
 * has the element's type (open content of no declaration stays generic, see open-content.ts).
 */
export const XML_STRICT = 256;
/**
 * On an element line: its particle comes after the previous element line's in the record's content model read as
 * a sequence (choices, xsd:all and repeating groups share one rank). A field's rank is the number of such lines up to
 * it; a child whose field ranks below the last one read is out of order (XSD 1.0 cvc-complex-type.2.4), noted. A
 * table with no such line (every rank 0) never notes one.
 */
export const XML_NEXT_RANK = 512;

/**
 * One field: [flags, namespace, local name, property key, codec]. For XML_ANY the namespace is the record's target
 * namespace (for ##targetNamespace / ##other), the local name the wildcard's namespace constraint, and no codec.
 * The codec is a codec or the name it has in an XmlCodecTable (resolved when the record is first used; "" for none).
 * With XML_ORDERED the line ends with the item's kind; with XML_ROUND with "" and the items per round.
 */
export type XmlFieldSpec = readonly [number, string, string, string, (XmlValueCodec | string)?, string?, number?];

/**
 * Every codec of a generated xml.ts as one value, its entries naming each other by string: [name, ...] per record
 * (namespace, XML name, TypeScript name, family flags, fields, xsd:anyAttribute property), per xsi:type family (root,
 * whether it is the root's own family, abstract, members), per global element (namespace, local name, codec,
 * nillable), named simple and enumeration codecs, and the named types of `xmlTypes`. One value rather than a const
 * per codec: tsc walks back through every top-level statement before a reference to a variable in a top-level
 * initializer, so thousands of `const r$X = xmlCodecs.record(ns1, ...)` made checking quadratic in the schema's size;
 * references inside one expression are all at one point of the file's control flow.
 */
export interface XmlCodecTable {
  readonly codecs: readonly (readonly [name: string, codec: XmlValueCodec])[];
  readonly records: readonly (readonly [name: string, ns: string, xmlName: string, tsName: string, family: number, fields: readonly XmlFieldSpec[], attributesKey?: string])[];
  readonly families: readonly (readonly [name: string, root: string, isRoot: boolean, abstract: boolean, members: readonly string[], chains?: readonly string[]])[];
  readonly elements: readonly (readonly [name: string, ns: string, local: string, codec: string, nillable: boolean, abstract?: boolean])[];
  readonly types: readonly (readonly [ns: string, name: string, codec: string])[];
  /** Identity constraints (xs:unique, xs:key, xs:keyref), checked on every document decoded (identity.ts). */
  readonly identity?: readonly XmlIdentityConstraint[];
  /** The value space of each element and attribute name identity constraints compare values in (identity.ts). */
  readonly identityTypes?: readonly (readonly [name: string, space: string])[];
  /** Element and attribute names of type xsd:ID, IDREF, IDREFS (or lists of ID): unique IDs, resolved references. */
  readonly ids?: readonly (readonly [name: string, kind: string])[];
  /**
   * The runtime's checkXmlDocument (identity.ts), given by a table that has identity constraints or IDs: a decoded
   * document's tree is checked with it. Passed in, not imported here, so other schemas' bundles leave it out.
   */
  readonly documentCheck?: (root: XmlElementNode, rules: XmlDocumentRules) => void;
}

/** How a value of one type is read from an element and written as one (every codec in a generated xml.ts). */
export interface XmlValueCodec extends XmlTypeCodec {
  encode(value: unknown, writer: XmlWriter, ns: string, local: string, xsiType?: boolean, where?: string): void;
  decode(node: XmlElementNode, path?: string, typed?: boolean): unknown;
  /** Read the element the reader is on, through its end tag. */
  read(r: XmlPullReader, path?: string, typed?: boolean): unknown;
}

/**
 * A simple type: text to value and back. `text` says the lexical form is the value itself (strings, enumerations);
 * `qname` that values hold QNames (qname.ts), read in the bindings of their element and written with prefixes
 * declared on it.
 */
export class XmlSimpleCodec<T> implements XmlValueCodec {
  constructor(
    readonly parse: (text: string, path: string) => T,
    readonly lexical: (value: T) => string,
    readonly text = false,
    readonly qname = false,
  ) {}
  encode(value: unknown, w: XmlWriter, ns: string, local: string): void {
    if (!this.qname) return w.simpleElement(ns, local, this.lexical(value as T));
    w.startElement(ns, local);
    w.text(withXmlQNameWriter(w, () => this.lexical(value as T)));
    w.endElement();
  }
  decode(node: XmlElementNode, path = ""): T {
    return this.qname ? withXmlQNameScope(node.scope, () => this.parse(node.text, path)) : this.parse(node.text, path);
  }
  read(r: XmlPullReader, path = ""): T {
    if (!this.qname) return this.parse(r.readText(), path);
    const scope = r.scope;
    const text = r.readText();
    return withXmlQNameScope(scope, () => this.parse(text, path));
  }
  /** The value of an attribute of the element the reader is on. */
  attributeValue(r: XmlPullReader, text: string, path: string): T {
    return this.qname ? withXmlQNameScope(r.scope, () => this.parse(text, path)) : this.parse(text, path);
  }
  /** The lexical form of an attribute value of the element being started, or of its text. */
  lexicalIn(w: XmlWriter, value: T): string {
    return this.qname ? withXmlQNameWriter(w, () => this.lexical(value)) : this.lexical(value);
  }
}

/** A simple codec whose lexical form is the value itself. */
export function xmlTextCodec<T extends string>(parse: (text: string, path: string) => T): XmlSimpleCodec<T> {
  return new XmlSimpleCodec(parse, (v) => v, true);
}

/**
 * A named enumeration: membership of the value (or of its trimmed form). An enumeration of QNames (`qname`) holds
 * `{namespace}local` values: the text is resolved first. An enumeration of dates, times or durations (`temporal`)
 * also holds a text equal in value to one of them (XSD 1.0 Part 2 4.3.5: enumerations constrain the value space),
 * read as that value's form.
 */
export function xmlEnumCodec(values: readonly string[], name: string, qname = false, temporal = false): XmlSimpleCodec<string> {
  const set = new Set(values);
  if (qname) {
    return new XmlSimpleCodec(
      (text, path) => {
        const v = parseXsdQName(text, path);
        if (set.has(v)) return v;
        throw new XmlDecodeError(path, JSON.stringify(text) + ` is not a value of ${name}`);
      },
      formatXsdQName,
      false,
      true,
    );
  }
  return xmlTextCodec((text, path) => {
    if (set.has(text)) return text;
    const trimmed = text.trim();
    if (set.has(trimmed)) return trimmed;
    if (temporal) {
      // The same point in time written another way ("+00:00", "-00:00" and "Z"): the schema's form of it.
      const zoned = TIMEZONE.test(trimmed);
      for (const v of values) if (TIMEZONE.test(v) === zoned && compareXsdTemporal(v, trimmed) === 0) return v;
    }
    throw new XmlDecodeError(path, JSON.stringify(text) + ` is not a value of ${name}`);
  });
}

/** A date/time lexical form with a timezone (values with and without one do not compare equal). */
const TIMEZONE = /(?:Z|[+-]\d\d:\d\d)$/;

/**
 * An element's value constraint (default= or fixed=) on the simple codec the table names `base`: an empty element
 * (no text, no children) has the constraint's value (XSD 1.0 Part 1 §3.3.4). Resolved when the table is registered,
 * into a simple codec reading `text` in place of the empty text.
 */
export class XmlValueConstraint implements XmlValueCodec {
  constructor(
    readonly base: string,
    readonly text: string,
    readonly fixed: boolean,
  ) {}
  resolve(base: XmlValueCodec): XmlValueCodec {
    if (!(base instanceof XmlSimpleCodec)) {
      // xsd:anyType (an element declared with no type): an empty element (no characters, no child elements) has the
      // constraint's value too (XSD 1.0 Part 1, 3.3.4 clause 5.1), as text.
      const constraint = this.text;
      const orConstraint = (v: unknown): unknown => (v === "" ? constraint : v);
      const codec: XmlValueCodec = {
        encode: (value, w, ns, local, xsi, where) => base.encode(value, w, ns, local, xsi, where),
        decode: (node, path) => orConstraint(base.decode(node, path)),
        read: (r, path) => orConstraint(base.read(r, path)),
      };
      // Fixed on anyType content compares the element's character content as a string (XSD 1.0 Part 1 §3.3.4
      // clause 5.2.2.2.1): text as read, or the text of a builtin xsi:type ({ $type, $value }); an element with
      // element children ({ ... } of other shape) has no value to compare here.
      if (this.fixed) FIXED_MATCH.set(codec, (v) => (typeof v === "string" ? v === constraint : !isTypedText(v) || v.$value === constraint));
      return codec;
    }
    const parse = base.parse as (text: string, path: string) => unknown;
    const lexical = base.lexical as (v: unknown) => string;
    const text = this.text;
    if (!this.fixed) return new XmlSimpleCodec((t: string, path: string) => parse(t === "" ? text : t, path), lexical, base.text, base.qname);
    // The fixed value is written as the schema writes it (validators such as libxml2 compare some types' fixed
    // values by their lexical form: "1.0e-2", not 0.01's "0.01").
    let fixedLexical: string | undefined;
    const codec = new XmlSimpleCodec(
      (t: string, path: string) => parse(t === "" ? text : t, path),
      (v: unknown) => {
        const out = lexical(v);
        fixedLexical ??= lexical(parse(text, ""));
        return out === fixedLexical ? text : out;
      },
      base.text,
      base.qname,
    );
    // The value equals the fixed one in the value space of the type when their canonical forms are the same
    // ("1.0" and "1" for a decimal: XSD 1.0 Part 1 §3.3.4, Element Locally Valid (Element) 5.2.2.2.2).
    // xsd:decimal values are kept as written (strings), so their lexical form is not canonical: two decimal forms
    // compare as decimals. The codec does not say whether a string is a decimal or an xsd:string, so a string that
    // reads as a decimal equal to the fixed one is let through (never refusing a valid document).
    // QName values need the document's and the schema's prefix bindings to compare: left to validate<T>.
    if (base.qname) return codec;
    FIXED_MATCH.set(codec, (v) => {
      fixedLexical ??= lexical(parse(text, ""));
      const out = lexical(v);
      return out === fixedLexical || (typeof v === "string" && isXsdDecimal(out.trim()) && isXsdDecimal(text.trim()) && xsdEnumKey(out, "decimal") === xsdEnumKey(text, "decimal"));
    });
    return codec;
  }
  encode(): void {
    throw new Error(`internal: unresolved XML codec constraint on ${this.base}`);
  }
  decode(): unknown {
    throw new Error(`internal: unresolved XML codec constraint on ${this.base}`);
  }
  read(): unknown {
    throw new Error(`internal: unresolved XML codec constraint on ${this.base}`);
  }
}

/**
 * The fixed-value test of the codecs an element's `fixed=` makes (XmlValueConstraint.resolve): true when a decoded
 * value equals the fixed value. Read by XmlElementDecl for a document's root element, whose value (a string, a
 * number...) has no record to note a difference on; nested elements' fixed values are checked by validate<T>.
 */
const FIXED_MATCH = new WeakMap<XmlValueCodec, (value: unknown) => boolean>();

/** A fixed value's test that cannot be worked out (a value of a shape the codec does not write) lets the value through. */
function fixedHolds(matches: (value: unknown) => boolean, value: unknown): boolean {
  try {
    return matches(value);
  } catch {
    return true;
  }
}

function isTypedText(v: unknown): v is { $type: string; $value: unknown } {
  return typeof v === "object" && v !== null && "$type" in v && "$value" in v;
}

/** A codec table entry: the simple or enumeration codec named `base`, reading `text` for an empty element. */
export function xmlValueConstraint(base: string, text: string, fixed = false): XmlValueCodec {
  return new XmlValueConstraint(base, text, fixed);
}

/** What a generated xml.ts shares between its codecs: the open-content types (set once xmlTypes exists). */
export class XmlCodecs {
  open: OpenTypes = { byClark: new Map(), byName: new Map() };
  /** xsd:anyType values. */
  readonly any: XmlValueCodec;
  /** Codecs and global elements by the names an XmlCodecTable gives them. */
  private readonly named = new Map<string, XmlValueCodec>();
  /** Families with their members' derivation chains (schemas with a block), for blocking(). */
  private readonly chains = new Map<string, { root: string; isRoot: boolean; abstract: boolean; members: readonly string[]; chains: readonly string[] }>();
  private readonly elementsByName = new Map<string, XmlElementDecl>();
  /** Global elements by "{ns}local" (what a strict wildcard's children are read by). */
  private readonly declared = new Map<string, XmlElementDecl>();
  private typeMap: { readonly [name: string]: XmlTypeCodec } = {};
  /** The table's identity constraints (none: documents are read without building a tree for them). */
  identity: readonly XmlIdentityConstraint[] = [];
  identityTypes: ReadonlyMap<string, string> = new Map();
  ids: ReadonlyMap<string, string> | undefined;
  /** The table's checkXmlDocument when it has identity constraints or IDs (see XmlCodecTable.documentCheck). */
  documentCheck: ((root: XmlElementNode, rules: XmlDocumentRules) => void) | undefined;
  private elementMap: { readonly [name: string]: XmlElementCodec } = {};
  constructor(readonly namespaces: readonly (readonly [string, string])[], table?: XmlCodecTable) {
    const codecs = this;
    this.any = {
      encode: (value, w, ns, local, _xsi, where = local) => encodeAnyValue(w, ns, local, value, codecs.open, where, undefined, codecs.laxDeclarations()),
      decode: (node, path = "") => readAnyValue(readerOfNode(node), path, codecs.open, codecs.laxDeclarations()),
      read: (r, path = "") => readAnyValue(r, path, codecs.open, codecs.laxDeclarations()),
    };
    this.named.set("any", this.any);
    if (table !== undefined) this.define(table);
  }

  /** Registers a table's codecs (records refer to each other by name, so their order does not matter). */
  private define(table: XmlCodecTable): void {
    // A value constraint names a codec registered before it (simple codecs are numbered in order of first use).
    for (const [name, codec] of table.codecs) this.named.set(name, codec instanceof XmlValueConstraint ? codec.resolve(this.codec(codec.base)) : codec);
    for (const [name, ns, xmlName, tsName, family, fields, attributesKey] of table.records) {
      this.named.set(name, this.record(ns, xmlName, tsName, family, () => fields, attributesKey));
    }
    for (const [name, root, isRoot, abstract, members, chains] of table.families) {
      const records = () => members.map((m) => this.codec(m) as XmlRecordCodec);
      this.named.set(name, this.family(this.codec(root) as XmlRecordCodec, isRoot, abstract, records));
      if (chains !== undefined) this.chains.set(name, { root, isRoot, abstract, members, chains });
    }
    const elements: { [name: string]: XmlElementCodec } = {};
    for (const [name, ns, local, codec, nillable, abstract] of table.elements) {
      const decl = this.element(ns, local, this.codec(codec), nillable, abstract === true);
      this.elementsByName.set(name, decl);
      elements[clarkName(ns, local)] = decl;
      if (!this.declared.has(clarkName(ns, local))) this.declared.set(clarkName(ns, local), decl);
    }
    this.elementMap = elements;
    if (table.identity !== undefined) this.identity = table.identity;
    if (table.identityTypes !== undefined) this.identityTypes = new Map(table.identityTypes);
    if (table.ids !== undefined && table.ids.length > 0) this.ids = new Map(table.ids);
    if (table.documentCheck !== undefined && (this.identity.length > 0 || this.ids !== undefined)) this.documentCheck = table.documentCheck;
    this.typeMap = this.types(table.types.map(([ns, name, codec]) => [ns, name, this.codec(codec)] as const));
  }

  /** The codec a table or a field names. */
  codec(name: string): XmlValueCodec {
    const codec = this.named.get(name) ?? this.blocking(name);
    if (codec === undefined) throw new Error(`internal: no XML codec named ${name}`);
    return codec;
  }

  /**
   * "f$Family/er": the family without the members derived (at some step from its root) by a method a block
   * prohibits, "e" extension, "r" restriction (XSD 1.0 3.3.4, Element Locally Valid (Element) 4.3). Made on first use.
   */
  private blocking(name: string): XmlValueCodec | undefined {
    const slash = name.lastIndexOf("/");
    const family = slash < 0 ? undefined : this.chains.get(name.slice(0, slash));
    if (family === undefined) return undefined;
    const blocked = name.slice(slash + 1);
    const kept = family.members.filter((_, i) => ![...family.chains[i]!].some((m) => blocked.includes(m)));
    const codec = this.family(this.codec(family.root) as XmlRecordCodec, family.isRoot, family.abstract, () => kept.map((m) => this.codec(m) as XmlRecordCodec), blocked);
    this.named.set(name, codec);
    return codec;
  }

  /** The global element a table names (encode<E>Element / decode<E>Element). */
  elementNamed(name: string): XmlElementDecl {
    const decl = this.elementsByName.get(name);
    if (decl === undefined) throw new Error(`internal: no XML element named ${name}`);
    return decl;
  }

  /** The global element {ns}local, if the table declares one. */
  declaration(ns: string, local: string): XmlElementDecl | undefined {
    return this.declared.size === 0 ? undefined : this.declared.get(clarkName(ns, local));
  }

  /** What an xsd:anyType value's children are read by (LaxDeclarations): the global elements, when there are any. */
  laxDeclarations(): XmlCodecs | undefined {
    return this.declared.size === 0 ? undefined : this;
  }

  /** `xmlTypes` and `xmlElements` of the table given to the constructor. */
  typeCodecs(): { readonly [name: string]: XmlTypeCodec } {
    return this.typeMap;
  }
  elementCodecs(): { readonly [name: string]: XmlElementCodec } {
    return this.elementMap;
  }
  record(ns: string, name: string, tsName: string, family: number, fields: () => readonly XmlFieldSpec[], attributesKey?: string): XmlRecordCodec {
    return new XmlRecordCodec(this, ns, name, tsName, family, fields, attributesKey);
  }
  family(root: XmlRecordCodec, isRoot: boolean, abstract: boolean, members: () => readonly XmlRecordCodec[], blocked = ""): XmlFamilyCodec {
    return new XmlFamilyCodec(root, isRoot, abstract, members, blocked);
  }
  element(ns: string, local: string, codec: XmlValueCodec, nillable: boolean, abstract = false): XmlElementDecl {
    return new XmlElementDecl(this, ns, local, codec, nillable, abstract);
  }
  /**
   * `xmlTypes`: every named type by "{ns}name" (the first of a name wins), and the record types among them become the
   * ones open content may name with xsi:type.
   */
  types(entries: readonly (readonly [string, string, XmlValueCodec])[]): { readonly [name: string]: XmlTypeCodec } {
    const map: { [name: string]: XmlTypeCodec } = {};
    const records: [string, string][] = [];
    for (const [ns, name, codec] of entries) {
      const key = clarkName(ns, name);
      if (Object.prototype.hasOwnProperty.call(map, key)) continue;
      map[key] = codec;
      if (codec instanceof XmlRecordCodec || codec instanceof XmlFamilyCodec) records.push([ns, name]);
    }
    this.open = openTypes(map, records);
    return map;
  }
}

/** A field as the walk uses it (the spec, decoded once). */
interface Field {
  readonly kind: number;
  /** Position in the record's field list (and in the values a reader collects). */
  readonly index: number;
  readonly required: boolean;
  readonly list: boolean;
  readonly nillable: boolean;
  readonly ns: string;
  readonly local: string;
  readonly key: string;
  /** "/key" as a JSON pointer segment, for error paths. */
  readonly segment: string;
  /** "Type/key", where encode errors say a value is. */
  readonly where: string;
  readonly codec: XmlValueCodec | undefined;
  /** Index among the element and wildcard particles (the reading position of records with open content). */
  readonly at: number;
  /** Rank in the record's sequence (XML_NEXT_RANK): a child of a lower rank than the last one read is out of order. */
  readonly rank: number;
  /** Wildcards: whether the namespace constraint admits a namespace. */
  readonly admits: (ns: string) => boolean;
  /** Wildcards: processContents is strict (XML_STRICT). */
  readonly strict: boolean;
  /** The "what" of a missing-value error ("element name" / "attribute name"). */
  readonly what: string;
  /** How the value of a child holding only text is made from the text: PLAIN_* (see plainValue). */
  readonly plain: number;
  /** In a group kept in document order (XML_ORDERED): the kind its items are tagged with. */
  readonly item: string | undefined;
  /** The first field of its property (every field but the 2nd, 3rd... line of an ordered group). */
  readonly leader: boolean;
  /** XML_ROUND: the most items of this field one round writes (0: not written in rounds). */
  readonly perRound: number;
  readonly roundStart: boolean;
}

/** A field's value from the text of a plain child: not at all (the codec reads it), by the simple codec's parse, as is. */
const PLAIN_NONE = 0;
const PLAIN_PARSE = 1;
const PLAIN_TEXT = 2;

interface Layout {
  readonly fields: readonly Field[];
  /** Element fields by namespace, then local name (fields of the same name in schema order). */
  readonly elements: Map<string, Map<string, readonly Field[]>>;
  /** Attribute fields by namespace, then local name (the first field of a name). */
  readonly attributes: Map<string, Map<string, Field>>;
  readonly anys: readonly Field[];
  readonly texts: readonly Field[];
  /** Attributes, and elements with wildcards, in schema order (as they are written). */
  readonly attributeList: readonly Field[];
  readonly particleList: readonly Field[];
  /** The fields a decoded value must have (wildcards never count), and the others, each in schema order. */
  readonly required: readonly Field[];
  readonly optional: readonly Field[];
  /** A wildcard admits some fixed element's namespace: position decides between the field and the wildcard. */
  readonly positional: boolean;
  /**
   * Fields of one element name at several places (`<e/><x/><e/>` in a sequence): position decides which field a
   * child of that name goes to (the first took them all).
   */
  readonly repeatedNames: boolean;
  /** The record has child elements or a wildcard (else children are not looked at). */
  readonly particles: boolean;
  /** What a child of a namespace can be, by namespace (worked out on first sight, see childNamespace). */
  readonly namespaces: Map<string, ChildNamespace>;
  /** Children met before, by qualified name, and the first child of the last record read (see readChildren). */
  readonly met: Map<string, MetChild>;
  first: MetChild | undefined;
}

/**
 * A child's start tag met before, with what the record does with it: the fast paths of readChildren compare the
 * input with its tag instead of reading the tag, and skip the lookups by namespace and name.
 */
interface MetChild {
  readonly tag: KnownTag;
  readonly where: ChildNamespace;
  readonly named: readonly Field[] | undefined;
  /** Every place the child can go takes a plain child's text (so the reader may read it whole: plainChild). */
  readonly plain: boolean;
  /** The child that came after it last time, another one: the guess for the next (records of one kind repeat their order). */
  next: MetChild | undefined;
  /** It came more than once in a row last time (a list): itself is the first guess, `next` the second. */
  repeats: boolean;
  /** The first and second guesses for the child after it (from `next` and `repeats`). */
  after: MetChild | undefined;
  alt: MetChild | undefined;
}

/** What came after `met` last time: `next`, after a run of `met` when `repeats`. */
function follows(met: MetChild, next: MetChild | undefined, repeats: boolean): void {
  met.next = next;
  met.repeats = repeats;
  met.after = repeats ? met : next;
  met.alt = repeats ? next : undefined;
}

/** Children remembered per record (qualified names): bounded whatever the documents hold. */
const MAX_MET = 256;

/** How children of one namespace are read: their fields by local name, and the wildcard that takes the others. */
interface ChildNamespace {
  readonly elements: Map<string, readonly Field[]> | undefined;
  /** The first wildcard admitting the namespace. */
  readonly wildcard: Field | undefined;
  /** Every wildcard admitting the namespace, in schema order, when there are several (else undefined). */
  readonly wildcards: readonly Field[] | undefined;
  /** Elements of this namespace go to their field only at its schema position (a wildcard admits them too). */
  readonly positional: boolean;
}

/** Namespaces remembered per record: documents may use any number of them, the lookups stay bounded. */
const MAX_NAMESPACES = 32;

function childNamespace(layout: Layout, ns: string): ChildNamespace {
  let info = layout.namespaces.get(ns);
  if (info !== undefined) return info;
  const admitting = layout.anys.filter((a) => a.admits(ns));
  const wildcard = admitting[0];
  info = { elements: layout.elements.get(ns), wildcard, wildcards: admitting.length > 1 ? admitting : undefined, positional: (layout.positional && wildcard !== undefined) || layout.repeatedNames };
  if (layout.namespaces.size < MAX_NAMESPACES) layout.namespaces.set(ns, info);
  return info;
}

/** Family flags of a record: 1 = it is a family root (`$type` set when named by xsi:type), 2 = a subtype in one. */
export const XML_FAMILY_ROOT = 1;
export const XML_FAMILY_MEMBER = 2;
/**
 * Flag beside the family bits: the type's content is mixed (character data may come between its child elements,
 * and an empty content model still admits text). Without it, text in an element of empty content is noted
 * (undeclared.ts).
 */
export const XML_MIXED = 4;
/**
 * Flag beside the family bits: an element of the type heads a substitution group. Substitutes are not read as such
 * yet (open content, skipped), so a child no field takes is not noted: it may be a valid member.
 */
export const XML_SUBSTITUTABLE = 8;

export class XmlRecordCodec implements XmlValueCodec {
  private layoutCache: Layout | undefined;
  /** The encode plan under the scope of the last document written (documents of one kind share one scope). */
  private planCache: EncodePlan | undefined;
  constructor(
    private readonly codecs: XmlCodecs,
    /** The type's namespace and schema name (xsi:type, `$type`). */
    readonly ns: string,
    readonly name: string,
    /** The generated type's name (encode errors say `Type/key`). */
    readonly tsName: string,
    family: number,
    private readonly fieldSpecs: () => readonly XmlFieldSpec[],
    /** The property of xsd:anyAttribute's attributes, when the type has one. */
    private readonly attributesKey: string | undefined,
  ) {
    this.family = family & 3;
    this.mixed = (family & XML_MIXED) !== 0;
    this.substitutable = (family & XML_SUBSTITUTABLE) !== 0;
  }

  private readonly family: number;
  private readonly mixed: boolean;
  private readonly substitutable: boolean;

  private layout(): Layout {
    return (this.layoutCache ??= buildLayout(this.fieldSpecs(), this.tsName, this.codecs));
  }

  encode(value: unknown, w: XmlWriter, ns: string, local: string, xsi = false): void {
    w.startElement(ns, local);
    // After startElement: the root's start is where the writer's scope begins.
    const plan = this.plan(w.scope);
    if (xsi) this.writeXsiType(w, plan);
    this.encodeContent(value as { readonly [key: string]: unknown }, w, plan);
    w.endElement();
  }

  /** encode() as the element `tag` (the field's tag under the writer's scope, see encodePlan). */
  encodeTagged(value: unknown, w: XmlWriter, tag: XmlTag, xsi = false): void {
    const plan = this.plan(w.scope);
    w.openTag(tag);
    if (xsi) this.writeXsiType(w, plan);
    this.encodeContent(value as { readonly [key: string]: unknown }, w, plan);
    w.closeTag(tag);
  }

  private plan(scope: XmlPrefixScope | undefined): EncodePlan {
    const plan = this.planCache;
    if (plan !== undefined && plan.scope === scope) return plan;
    return (this.planCache = encodePlan(this.layout(), scope, this.ns, this.name));
  }

  private writeXsiType(w: XmlWriter, plan: EncodePlan): void {
    if (plan.typeAttribute !== undefined) w.rawAttribute(plan.typeAttribute);
    else w.xsiType(this.ns, this.name);
  }

  private encodeContent(v: { readonly [key: string]: unknown }, w: XmlWriter, plan: EncodePlan): void {
    const layout = plan.layout;
    for (const f of layout.attributeList) {
      const item = v[f.key];
      if (item === undefined || item === null) {
        if (f.required) throw xmlMissingProperty(this.tsName, f.key);
        if (item === undefined) continue;
      }
      w.attribute(f.ns, f.local, (f.codec as XmlSimpleCodec<unknown>).lexicalIn(w, item));
    }
    if (this.attributesKey !== undefined) {
      const attributes = v[this.attributesKey] as { readonly [name: string]: string } | undefined;
      if (attributes !== undefined) encodeXmlAttributes(w, attributes);
    }
    for (const f of layout.texts) w.text((f.codec as XmlSimpleCodec<unknown>).lexicalIn(w, v[f.key]));
    const particles = plan.particles;
    for (let i = 0; i < particles.length; i++) {
      const p = particles[i]!;
      const f = p.field;
      if (f.item !== undefined) {
        if (f.leader) this.writeOrdered(w, plan, p, v[f.key]);
      } else if (f.perRound > 0 && f.roundStart) {
        let j = i + 1;
        while (j < particles.length && particles[j]!.field.perRound > 0 && !particles[j]!.field.roundStart) j++;
        this.writeRounds(w, particles, i, j, v);
        i = j - 1;
      } else if (f.kind === XML_ELEMENT) this.writeElement(w, p, v[f.key]);
      else if (f.kind === XML_ANY) {
        const items = v[f.key];
        if (items !== undefined) encodeOpenContent(w, items as readonly OpenContentItem[], this.codecs.open, f.where, p.openTags, f.strict ? this.codecs : undefined);
      }
    }
  }

  /** A group kept in document order: each `{ kind, value }` item as the element (or open content) of its kind. */
  private writeOrdered(w: XmlWriter, plan: EncodePlan, leader: PlannedField, value: unknown): void {
    const f = leader.field;
    if (value === undefined || value === null) {
      if (f.required) throw xmlMissingProperty(this.tsName, f.key);
      if (value === undefined) return;
    }
    if (!Array.isArray(value)) throw new XmlEncodeError(`${f.where}: must be an array of { kind, value }`);
    const kinds = (plan.kinds ??= orderedKinds(plan.particles));
    for (let i = 0; i < value.length; i++) {
      const item = value[i] as { readonly kind?: unknown; readonly value?: unknown } | null;
      const p = typeof item === "object" && item !== null && typeof item.kind === "string" ? kinds.get(f.key + "\u0000" + item.kind) : undefined;
      if (p === undefined) throw new XmlEncodeError(`${f.where}/${i}: not a { kind, value } item of a kind this group has`);
      const v = item!.value;
      if (p.field.kind === XML_ANY) encodeOpenContent(w, [v as OpenContentItem], this.codecs.open, `${f.where}/${i}/value`, p.openTags, p.field.strict ? this.codecs : undefined);
      else if (v === null && (p.field.nillable || p.write === WRITE_TEXT)) writeNil(w, p);
      else if (v === undefined || v === null) throw new XmlEncodeError(`${f.where}/${i}/value: required value is missing`);
      else writeValue(w, p, v);
    }
  }

  /**
   * The fields particles[from..to) of a repeating sequence (XML_ROUND), written in rounds: up to each field's
   * perRound items of each, in sequence order, until every array is written (x1 x2 x1 x2 for `(x1, x2){2}`). A field
   * whose value is not an array is written as writeElement does, and so are all of them then (the same errors).
   */
  private writeRounds(w: XmlWriter, particles: readonly PlannedField[], from: number, to: number, v: Record<string, unknown>): void {
    const arrays: (readonly unknown[])[] = [];
    for (let k = from; k < to; k++) {
      const value = v[particles[k]!.field.key];
      if (value !== undefined && !Array.isArray(value)) {
        for (let m = from; m < to; m++) this.writeElement(w, particles[m]!, v[particles[m]!.field.key]);
        return;
      }
      if (value === undefined && particles[k]!.field.required) throw xmlMissingProperty(this.tsName, particles[k]!.field.key);
      arrays.push((value ?? []) as readonly unknown[]);
    }
    const offsets = arrays.map(() => 0);
    for (let wrote = true; wrote; ) {
      wrote = false;
      for (let k = 0; k < arrays.length; k++) {
        const p = particles[from + k]!;
        const items = arrays[k]!;
        const nilItems = p.field.nillable || p.write === WRITE_TEXT;
        for (let n = 0; n < p.field.perRound && offsets[k]! < items.length; n++) {
          const item = items[offsets[k]!++];
          if (item === null && nilItems) writeNil(w, p);
          else writeValue(w, p, item);
          wrote = true;
        }
      }
    }
  }

  private writeElement(w: XmlWriter, p: PlannedField, value: unknown): void {
    const f = p.field;
    if (f.list) {
      // A required list is refused when absent or null (it is an array of items, never nil itself).
      if (value === undefined || value === null) {
        if (f.required) throw xmlMissingProperty(this.tsName, f.key);
        if (value === undefined) return;
      }
      const nilItems = f.nillable || p.write === WRITE_TEXT;
      for (const item of value as readonly unknown[]) {
        if (item === null && nilItems) writeNil(w, p);
        else writeValue(w, p, item);
      }
      return;
    }
    if (value === undefined) {
      if (f.required) throw xmlMissingProperty(this.tsName, f.key);
      return;
    }
    if (value === null) {
      if (f.nillable) return writeNil(w, p);
      if (f.required) throw xmlMissingProperty(this.tsName, f.key);
    }
    writeValue(w, p, value);
  }

  decode(node: XmlElementNode, path = "", typed = false): unknown {
    return this.read(readerOfNode(node), path, typed);
  }

  read(r: XmlPullReader, path = "", typed = false): unknown {
    const layout = this.layout();
    const { fields } = layout;
    // One slot past the fields: the notes of what no declaration takes (undeclared.ts), made on the first one.
    const vals: unknown[] = new Array(fields.length + 1);
    const notes = fields.length;
    let attributes: { [name: string]: string } | undefined;
    for (let i = 0; i < r.attrCount; i++) {
      const ans = r.attrNs[i]!;
      const alocal = r.attrLocal[i]!;
      const f = layout.attributes.get(ans)?.get(alocal);
      if (f !== undefined) vals[f.index] = (f.codec as XmlSimpleCodec<unknown>).attributeValue(r, r.attrValue[i]!, path + f.segment);
      else if (ans === XSI_NS) continue;
      else if (this.attributesKey !== undefined) {
        attributes ??= Object.create(null) as { [name: string]: string };
        attributes[ans === "" ? alocal : clarkName(ans, alocal)] = r.attrValue[i]!;
      } else if (!SOAP_ATTRIBUTE_NS.has(ans)) vals[notes] = xmlNote(vals[notes] as XmlUndeclaredNote[] | undefined, "undeclared", `attribute ${xmlNoteName(ans, alocal)} is not declared (and the type has no xsd:anyAttribute)`);
    }
    // The element's own text is wanted only by simple-content fields; it is read (and checked) either way.
    const texts = layout.texts;
    // The element's own bindings, for a QName in its text (read after its children, when the reader is past it).
    const scope = r.scope;
    let text = "";
    if (layout.particles) text = this.readChildren(r, path, layout, vals, texts.length > 0);
    else if (texts.length > 0 || !this.mixed) {
      // Simple content (or empty content): child elements are read and left out, noted; so is text in empty content.
      r.textHadChildren = false;
      text = r.readText();
      if (r.textHadChildren) vals[notes] = xmlNote(vals[notes] as XmlUndeclaredNote[] | undefined, "content", texts.length > 0 ? "child elements are not allowed (the type has simple content)" : "child elements are not allowed (the type's content is empty)");
      if (texts.length === 0 && text !== "" && !isXmlSpace(text)) vals[notes] = xmlNote(vals[notes] as XmlUndeclaredNote[] | undefined, "content", "character data is not allowed (the type's content is empty)");
    } else r.skip();
    for (const f of texts) {
      const codec = f.codec as XmlSimpleCodec<unknown>;
      vals[f.index] = codec.qname ? withXmlQNameScope(scope, () => codec.parse(text, path)) : codec.parse(text, path);
    }
    const out: { [key: string]: unknown } = {};
    if (this.family === XML_FAMILY_MEMBER) out.$type = this.name;
    // Required values first, in schema order (the first missing one is the error), then the optional ones.
    const { required, optional } = layout;
    for (let i = 0; i < required.length; i++) {
      const f = required[i]!;
      const v = vals[f.index];
      if (v !== undefined) out[f.key] = v;
      else if (f.kind === XML_ELEMENT && f.nillable && !f.list) out[f.key] = xmlMissingNillable(path, f.what);
      else throw xmlMissing(path, f.what);
    }
    for (let i = 0; i < optional.length; i++) {
      const f = optional[i]!;
      const v = vals[f.index];
      if (v !== undefined) out[f.key] = v;
    }
    if (attributes !== undefined) out[this.attributesKey!] = attributes;
    if (typed && this.family === XML_FAMILY_ROOT) out.$type = this.name;
    if (vals[notes] !== undefined) attachXmlNotes(out, vals[notes] as XmlUndeclaredNote[]);
    return out;
  }

  /**
   * The children, each read by its field (or the wildcard, in order); returns the own text when `keepText`.
   * Records of one kind mostly hold the same children in the same order, in the same bindings: the child met after
   * the previous one last time is tried first, by comparing its tag (and, when it can only be text, the whole
   * `<p:x>text</p:x>`) with the input. Anything else is read by the general path, which gives the same values and
   * errors; the fast paths only skip work whose outcome they know.
   */
  private readChildren(r: XmlPullReader, path: string, layout: Layout, vals: unknown[], keepText: boolean): string {
    let pos = 0;
    let text = "";
    // The guess for the next child, and the one to try when it is not there (see MetChild.repeats).
    let guess = keepText ? undefined : layout.first;
    let other: MetChild | undefined;
    let previous: MetChild | undefined;
    let first = true;
    let run = false;
    // The highest rank read so far and the field that reached it (the order check, XML_NEXT_RANK).
    let rank = 0;
    let last: Field | undefined;
    for (;;) {
      let plain: string | undefined;
      let met = guess;
      if (met !== undefined && !(met.plain ? (plain = r.plainChild(met.tag, met.after?.tag)) !== undefined : r.enterKnown(met.tag))) {
        met = other;
        if (met !== undefined && !(met.plain ? (plain = r.plainChild(met.tag, met.after?.tag)) !== undefined : r.enterKnown(met.tag))) met = undefined;
      }
      if (met === undefined) {
        if (!r.nextChild(keepText)) break;
        if (keepText) text += r.lastText;
        else met = this.meet(r, layout);
      }
      if (!keepText) {
        if (first) {
          if (layout.first !== met) layout.first = met;
          first = false;
        } else if (previous !== undefined) {
          if (met === previous) {
            if (!previous.repeats) follows(previous, previous.next, true);
            run = true;
          } else {
            if ((!run && previous.repeats) || previous.next !== met) follows(previous, met, run && previous.repeats);
            run = false;
          }
        }
        previous = met;
        guess = met?.after;
        other = met?.alt;
      }
      const where = met !== undefined ? met.where : childNamespace(layout, r.ns);
      const named = met !== undefined ? met.named : where.elements?.get(r.local);
      let f: Field | undefined;
      let earlier: Field | undefined;
      if (named !== undefined) {
        if (where.positional) {
          // The element goes to its field only at its schema position; later the wildcard keeps it, in order.
          const before = pos;
          for (let k = 0; k < named.length; k++) {
            const g = named[k]!;
            if (pos <= g.at) {
              pos = g.list ? g.at : g.at + 1;
              f = g;
              break;
            }
          }
          // A wildcard admitting it comes first in the sequence (`e1, any, e2` read from `<e1/><e2/><e2/>`): it takes
          // the element, as long as it can hold one more.
          if (f !== undefined && where.wildcard !== undefined) {
            earlier = wildcardBefore(where.wildcards ?? [where.wildcard], vals, before, f.at);
            if (earlier !== undefined) [f, pos] = [undefined, before];
          }
        } else f = named[0];
      }
      if (f !== undefined) {
        // A single element met again (xsd:all, or after the content model's end): the last one is kept, noted.
        if (!f.list && f.item === undefined && vals[f.index] !== undefined) {
          vals[layout.fields.length] = xmlNote(vals[layout.fields.length] as XmlUndeclaredNote[] | undefined, "maxOccurs", `element ${xmlNoteName(f.ns, f.local)} occurs more than once`);
        } else if (f.rank < rank) {
          // Out of the sequence's order (read all the same: decode stays lenient).
          vals[layout.fields.length] = xmlNote(vals[layout.fields.length] as XmlUndeclaredNote[] | undefined, "order", `element ${xmlNoteName(f.ns, f.local)} comes after element ${xmlNoteName(last!.ns, last!.local)}, which the content model puts after it`);
        }
        if (f.rank > rank) {
          rank = f.rank;
          last = f;
        }
        if (plain !== undefined) plainValue(f, plain, path, vals);
        else readElement(r, path, f, vals);
        continue;
      }
      const a = earlier ?? (where.wildcards !== undefined ? nextWildcard(where.wildcards, vals) : where.wildcard);
      if (a === undefined) {
        // A child no field or wildcard takes: read past (lenient), noted.
        if (!this.substitutable) {
          const ns = met !== undefined ? met.tag.ns : r.ns;
          const local = met !== undefined ? met.tag.local : r.local;
          vals[layout.fields.length] = xmlNote(vals[layout.fields.length] as XmlUndeclaredNote[] | undefined, "undeclared", `element ${xmlNoteName(ns, local)} is not allowed here`);
        }
        if (plain === undefined) r.skip();
        continue;
      }
      if (layout.positional && pos < a.at) pos = a.list ? a.at : a.at + 1;
      const items = (vals[a.index] ??= []) as OpenContentItem[];
      // A plain child of open content is text (what readOpenItem reads from an element without attributes or children).
      // An indexed store rather than push: the engine compiles it in place, where push here stayed a call.
      const decl = a.strict && plain === undefined ? this.codecs.declaration(r.ns, r.local) : undefined;
      if (decl !== undefined) {
        // A strict wildcard's child that names a global element is that element (XML_STRICT).
        const at = a.item !== undefined ? `${path}/${a.key}/${items.length}/value/value` : `${path}/${a.key}/${items.length}/value`;
        const open = { ns: decl.ns, name: decl.local, value: decl.readValue(r, at) };
        (items as unknown[])[items.length] = a.item !== undefined ? { kind: a.item, value: open } : open;
      } else if (a.item !== undefined) {
        const open = plain !== undefined ? { ns: met!.tag.ns, name: met!.tag.local, value: plain } : readOpenItem(r, `${path}/${a.key}/${items.length}`, "value", 0, this.codecs.open);
        (items as unknown[])[items.length] = { kind: a.item, value: open };
      } else items[items.length] = plain !== undefined ? { ns: met!.tag.ns, name: met!.tag.local, value: plain } : readOpenItem(r, path, a.key, items.length, this.codecs.open);
    }
    return keepText ? text + r.lastText : text;
  }

  /** Whether a child of no field is a global element a strict wildcard takes (read by its declaration). */
  private declaredChild(where: ChildNamespace, ns: string, local: string): boolean {
    return where.wildcard !== undefined && where.wildcard.strict && this.codecs.declaration(ns, local) !== undefined;
  }

  /** The child the reader just read the start tag of, as a MetChild when its tag is plain (see KnownTag). */
  private meet(r: XmlPullReader, layout: Layout): MetChild | undefined {
    const qname = r.qname;
    const known = layout.met.get(qname);
    const tag = r.knownTag(known?.tag);
    if (tag === undefined) return undefined;
    if (known !== undefined && known.tag === tag) return known;
    const where = childNamespace(layout, tag.ns);
    const named = where.elements?.get(tag.local);
    const plain = named === undefined ? !this.declaredChild(where, tag.ns, tag.local) : named.every((f) => f.plain !== PLAIN_NONE);
    const met: MetChild = { tag, where, named, plain, next: undefined, repeats: false, after: undefined, alt: undefined };
    if (known !== undefined || layout.met.size < MAX_MET) layout.met.set(qname, met);
    return met;
  }
}

/**
 * Of several wildcards admitting a child's namespace (`<any namespace="##other"/><any namespace="A"/>` in a sequence),
 * the first that can take one more element: a wildcard occurring at most once takes one, and the next one the next
 * (the first took them all, and the validator found it over its maxOccurs and the next one missing). The last one
 * when all are taken (the validator reports it).
 */
function nextWildcard(wildcards: readonly Field[], vals: unknown[]): Field {
  for (const w of wildcards) if (w.list || w.item !== undefined || ((vals[w.index] as unknown[] | undefined)?.length ?? 0) === 0) return w;
  return wildcards[wildcards.length - 1]!;
}

/** The first wildcard at a position from `from` to before `to` that can take one more element (see nextWildcard). */
function wildcardBefore(wildcards: readonly Field[], vals: unknown[], from: number, to: number): Field | undefined {
  for (const w of wildcards) {
    if (w.at < from || w.at >= to) continue;
    if (w.list || w.item !== undefined || ((vals[w.index] as unknown[] | undefined)?.length ?? 0) === 0) return w;
  }
  return undefined;
}

/** A field's value from the text of a plain child (no attributes, no child elements): what its codec would read. */
function plainValue(f: Field, text: string, path: string, vals: unknown[]): void {
  const i = f.index;
  if (f.item !== undefined) {
    const items = (vals[i] ??= []) as unknown[];
    const value = f.plain === PLAIN_TEXT ? text : (f.codec as XmlSimpleCodec<unknown>).parse(text, path + f.segment + "/" + items.length + "/value");
    items.push({ kind: f.item, value });
  } else if (f.list) {
    const items = (vals[i] ??= []) as unknown[];
    items.push(f.plain === PLAIN_TEXT ? text : (f.codec as XmlSimpleCodec<unknown>).parse(text, path + f.segment + "/" + items.length));
  } else vals[i] = f.plain === PLAIN_TEXT ? text : (f.codec as XmlSimpleCodec<unknown>).parse(text, path + f.segment);
}

function readElement(r: XmlPullReader, path: string, f: Field, vals: unknown[]): void {
  const i = f.index;
  if (f.item !== undefined) {
    const items = (vals[i] ??= []) as unknown[];
    const value = f.nillable && r.isNil() ? skipNil(r, path + f.segment + "/" + items.length + "/value") : f.codec!.read(r, path + f.segment + "/" + items.length + "/value");
    items.push({ kind: f.item, value });
  } else if (f.list) {
    const items = (vals[i] ??= []) as unknown[];
    items.push(f.nillable && r.isNil() ? skipNil(r, path + f.segment + "/" + items.length) : f.codec!.read(r, path + f.segment + "/" + items.length));
  } else vals[i] = f.nillable && r.isNil() ? skipNil(r, path + f.segment) : f.codec!.read(r, path + f.segment);
}

/** A nil element's content is not looked at (but is read and checked). */
/**
 * An element with xsi:nil="true": null. It must have no content at all, neither child elements nor characters (XSD
 * 1.0 Part 1, 3.3.4 Element Locally Valid (Element) clause 3.2.3).
 */
/**
 * Namespaces of attributes SOAP puts on any element of a message whatever its schema says (SOAP 1.1 4.1.1
 * `encodingStyle`, 4.2 `mustUnderstand`/`actor` on header blocks, SOAP 1.2 `role`/`relay`, SOAP encoding's
 * `arrayType`, `offset`, `root`...): never noted as undeclared.
 */
const SOAP_ATTRIBUTE_NS: ReadonlySet<string> = /* @__PURE__ */ new Set([
  "http://schemas.xmlsoap.org/soap/envelope/",
  "http://www.w3.org/2003/05/soap-envelope",
  "http://schemas.xmlsoap.org/soap/encoding/",
  "http://www.w3.org/2003/05/soap-encoding",
]);

/** Whether text is XML white space only (#x20 | #x9 | #xD | #xA). */
function isXmlSpace(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x9 && c !== 0xa && c !== 0xd) return false;
  }
  return true;
}

function skipNil(r: XmlPullReader, path: string): null {
  if (r.nextChild(true) || r.lastText !== "") throw new XmlDecodeError(path, "an element with xsi:nil=\"true\" must be empty");
  return null;
}

function buildLayout(specs: readonly XmlFieldSpec[], tsName: string, codecs: XmlCodecs): Layout {
  const fields: Field[] = [];
  let at = 0;
  let rank = 0;
  // An ordered group's lines share one value slot and one particle position (its first line's).
  const groups = new Map<string, { index: number; at: number }>();
  for (const [flags, ns, local, key, named, item, perRound] of specs) {
    const codec = typeof named === "string" ? (named === "" ? undefined : codecs.codec(named)) : named;
    const kind = flags & 3;
    const particle = kind === XML_ELEMENT || kind === XML_ANY;
    const ordered = (flags & XML_ORDERED) !== 0 && item !== undefined;
    const group = ordered ? groups.get(key) : undefined;
    if (ordered && group === undefined) groups.set(key, { index: fields.length, at });
    fields.push({
      kind,
      index: group?.index ?? fields.length,
      required: (flags & XML_REQUIRED) !== 0,
      list: (flags & XML_LIST) !== 0,
      nillable: (flags & XML_NILLABLE) !== 0,
      ns: kind === XML_ANY ? "" : ns,
      local: kind === XML_ANY ? "" : local,
      key,
      segment: `/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`,
      where: `${tsName}/${key}`,
      codec,
      at: group !== undefined ? group.at : particle ? at++ : -1,
      rank: kind === XML_ELEMENT && (flags & XML_NEXT_RANK) !== 0 ? ++rank : rank,
      admits: kind === XML_ANY ? wildcard(local, ns) : () => false,
      strict: kind === XML_ANY && (flags & XML_STRICT) !== 0,
      what: `${kind === XML_ATTRIBUTE ? "attribute" : "element"} ${local}`,
      plain: kind !== XML_ELEMENT || codec === undefined ? PLAIN_NONE : codec === codecs.any ? PLAIN_TEXT : codec instanceof XmlSimpleCodec && !codec.qname && codec.read === XmlSimpleCodec.prototype.read ? PLAIN_PARSE : PLAIN_NONE,
      item: ordered ? item : undefined,
      leader: group === undefined,
      perRound: (flags & XML_ROUND) !== 0 && (flags & XML_LIST) !== 0 && perRound !== undefined && perRound >= 1 ? perRound : 0,
      roundStart: (flags & XML_ROUND_START) !== 0,
    });
  }
  const elements = new Map<string, Map<string, Field[]>>();
  const attributes = new Map<string, Map<string, Field>>();
  for (const f of fields) {
    if (f.kind === XML_ELEMENT) {
      const byLocal = elements.get(f.ns) ?? elements.set(f.ns, new Map()).get(f.ns)!;
      byLocal.set(f.local, [...(byLocal.get(f.local) ?? []), f]);
    } else if (f.kind === XML_ATTRIBUTE) {
      const byLocal = attributes.get(f.ns) ?? attributes.set(f.ns, new Map()).get(f.ns)!;
      if (!byLocal.has(f.local)) byLocal.set(f.local, f);
    }
  }
  const anys = fields.filter((f) => f.kind === XML_ANY);
  const positional = fields.some((f) => f.kind === XML_ELEMENT && anys.some((a) => a.admits(f.ns)));
  const texts = fields.filter((f) => f.kind === XML_TEXT);
  const attributeList = fields.filter((f) => f.kind === XML_ATTRIBUTE);
  const particleList = fields.filter((f) => f.kind === XML_ELEMENT || f.kind === XML_ANY);
  // An ordered group is required when its first line is (whatever kind of particle that is).
  const required = fields.filter((f) => f.leader && f.required && (f.kind !== XML_ANY || f.item !== undefined));
  const optional = fields.filter((f) => f.leader && !required.includes(f));
  // Lines of one ordered group share a position; a name also at another place (a substitution group member there
  // and after it, `(Head|Member)*, x, Member`) is positional like two plain fields of one name.
  const repeatedNames = [...elements.values()].some((byLocal) => [...byLocal.values()].some((named) => new Set(named.map((f) => f.at)).size > 1));
  return { fields, elements, attributes, anys, texts, attributeList, particleList, required, optional, positional, repeatedNames, particles: at > 0, namespaces: new Map(), met: new Map(), first: undefined };
}

/** Whether an xsd:any's namespace constraint admits elements of namespace `ns` ("" = no namespace). */
export function wildcard(constraint: string, tns: string): (ns: string) => boolean {
  const tokens = constraint.trim().split(/\s+/).filter(Boolean);
  if (tokens.length === 0 || tokens.includes("##any")) return () => true;
  if (tokens.length === 1 && tokens[0] === "##other") return (ns) => ns !== tns && ns !== "";
  return (ns) => tokens.some((tok) => (tok === "##local" ? ns === "" : tok === "##targetNamespace" ? ns === tns : ns === tok));
}

/** A record and its subtypes: read by xsi:type, written by `$type`. */
export class XmlFamilyCodec implements XmlValueCodec {
  private byClark: Map<string, XmlRecordCodec> | undefined;
  private byName: Map<string, XmlRecordCodec> | undefined;
  constructor(
    private readonly root: XmlRecordCodec,
    private readonly isRoot: boolean,
    private readonly abstract: boolean,
    private readonly members: () => readonly XmlRecordCodec[],
    /** The derivations a block prohibits ("e", "r"), for messages (blocking()). */
    private readonly blocked = "",
  ) {}

  private index(): void {
    this.byClark = new Map();
    this.byName = new Map();
    for (const m of this.members()) {
      const key = clarkName(m.ns, m.name);
      if (!this.byClark.has(key)) this.byClark.set(key, m);
      if (!this.byName.has(m.name)) this.byName.set(m.name, m);
    }
  }

  decode(node: XmlElementNode, path = ""): unknown {
    return this.read(readerOfNode(node), path);
  }

  read(r: XmlPullReader, path = ""): unknown {
    const type = r.xsiType();
    if (type === undefined) {
      if (this.abstract) throw new XmlDecodeError(path, `abstract type ${this.root.name} needs an xsi:type naming a type derived from it`);
      return this.root.read(r, path, false);
    }
    if (this.byClark === undefined) this.index();
    const m = this.byClark!.get(clarkName(type.ns, type.local));
    if (m !== undefined) return m.read(r, path, true);
    const by = this.blocked === "" ? "" : ` by a derivation the declaration allows (blocked: ${[...this.blocked].map((m) => (m === "e" ? "extension" : "restriction")).join(", ")})`;
    throw new XmlDecodeError(path, "xsi:type {" + type.ns + "}" + type.local + ` is not ${this.root.name} or a type derived from it${by}`);
  }

  encode(value: unknown, w: XmlWriter, ns: string, local: string): void {
    const m = this.memberOf(value);
    if (m === undefined) this.root.encode(value, w, ns, local, false);
    else m.encode(value, w, ns, local, true);
  }

  /** encode() as the element `tag` (see XmlRecordCodec.encodeTagged). */
  encodeTagged(value: unknown, w: XmlWriter, tag: XmlTag): void {
    const m = this.memberOf(value);
    if (m === undefined) this.root.encodeTagged(value, w, tag, false);
    else m.encodeTagged(value, w, tag, true);
  }

  /** The member a value's `$type` names (written with xsi:type), or undefined for the root written without one. */
  private memberOf(value: unknown): XmlRecordCodec | undefined {
    const $type = (value as { $type?: unknown }).$type;
    if ($type === undefined && this.isRoot && !this.abstract) return undefined;
    if (this.byName === undefined) this.index();
    const m = typeof $type === "string" ? this.byName!.get($type) : undefined;
    if (m === undefined) throw new XmlEncodeError("unknown $type " + String($type) + ` for ${this.root.name}`);
    return m;
  }
}

/** A global element: its encode/decode as a standalone document, and its entry of the `xmlElements` map. */
export class XmlElementDecl implements XmlElementCodec {
  constructor(
    private readonly codecs: XmlCodecs,
    readonly ns: string,
    readonly local: string,
    private readonly codec: XmlValueCodec,
    private readonly nillable: boolean,
    /** Declared abstract: it never stands in a document itself (a member of its substitution group does). */
    private readonly abstract = false,
  ) {}
  encode(value: unknown, w: XmlWriter): void {
    if (value === null && this.nillable) xmlNilElement(w, this.ns, this.local);
    else this.codec.encode(value, w, this.ns, this.local, false, this.local);
  }
  decode(node: XmlElementNode): unknown {
    return this.fromXml(node);
  }
  toXml(value: unknown, options?: XmlEncodeOptions): string {
    return encodeXmlElement(value, options, this.codecs.namespaces, (w, v) => this.encode(v, w));
  }
  fromXml(input: string | XmlElementNode, options?: XmlDecodeOptions): unknown {
    const check = this.codecs.documentCheck;
    if (check === undefined) return this.fixedChecked(decodeXmlElement(input, options, this.ns, this.local, (r) => this.readValue(r, "")));
    // Identity constraints relate values across the document: checked on its tree once it has decoded.
    const node = typeof input === "string" ? parseXml(input, options?.limits) : input;
    const value = decodeXmlElement(node, options, this.ns, this.local, (r) => this.readValue(r, ""));
    check(node, this.codecs);
    return this.fixedChecked(value);
  }
  /**
   * A root element declared abstract is refused (cvc-elt.2), and so is one declared with `fixed=` whose value differs
   * from it (in its type's value space): the value is a string or number with no record to note it on, and
   * validate<T> checks the type, not the element.
   */
  private fixedChecked(value: unknown): unknown {
    if (this.abstract) throw new XmlDecodeError("", `the element {${this.ns}}${this.local} is abstract: it may not appear in a document itself, only a member of its substitution group (cvc-elt.2)`);
    const matches = FIXED_MATCH.get(this.codec);
    if (matches !== undefined && value !== null && !fixedHolds(matches, value)) {
      throw new XmlDecodeError("", `the element {${this.ns}}${this.local} has a fixed value, and ${JSON.stringify(typeof value === "bigint" ? String(value) : value)} differs from it (cvc-elt.5.2.2.2)`);
    }
    return value;
  }
  /** The value of this element, the reader being on its start tag (read through its end tag). */
  readValue(r: XmlPullReader, path: string): unknown {
    return this.nillable && r.isNil() ? skipNil(r, path) : this.codec.read(r, path);
  }
}

/** How a planned element field's value is written: its tag and text, or its codec given the tag, or by name. */
const WRITE_TEXT = 0;
const WRITE_SIMPLE = 1;
const WRITE_TAGGED = 2;
const WRITE_BY_NAME = 3;

/** An element or wildcard field as encode uses it under one scope. */
interface PlannedField {
  readonly field: Field;
  /** The element's tags under the scope; undefined when its namespace is declared where used (or for a wildcard). */
  readonly tag: XmlTag | undefined;
  readonly write: number;
  /** A wildcard's tags of the items last written, by position (see encodeOpenContent). */
  readonly openTags: (XmlTag | undefined)[] | undefined;
}

/**
 * What encode needs of a record under the prefixes fixed for a document: each element field's tags, worked out once
 * per scope (not per element written), and the xsi:type attribute naming the record.
 */
interface EncodePlan {
  readonly scope: XmlPrefixScope | undefined;
  readonly layout: Layout;
  readonly particles: readonly PlannedField[];
  readonly typeAttribute: string | undefined;
  /** The fields of ordered groups by "key\0kind" (made on the first ordered value written). */
  kinds?: Map<string, PlannedField>;
}

function orderedKinds(particles: readonly PlannedField[]): Map<string, PlannedField> {
  const out = new Map<string, PlannedField>();
  for (const p of particles) if (p.field.item !== undefined) out.set(p.field.key + "\u0000" + p.field.item, p);
  return out;
}

function encodePlan(layout: Layout, scope: XmlPrefixScope | undefined, ns: string, name: string): EncodePlan {
  const particles = layout.particleList.map((field): PlannedField => {
    const codec = field.codec;
    const write =
      codec instanceof XmlSimpleCodec ? (codec.qname ? WRITE_BY_NAME : codec.text ? WRITE_TEXT : WRITE_SIMPLE)
      : codec instanceof XmlRecordCodec || codec instanceof XmlFamilyCodec ? WRITE_TAGGED
      : WRITE_BY_NAME;
    const tag = field.kind === XML_ELEMENT && scope !== undefined ? scope.tag(field.ns, field.local) : undefined;
    return { field, tag, write, openTags: field.kind === XML_ANY && scope !== undefined ? [] : undefined };
  });
  return { scope, layout, particles, typeAttribute: scope?.typeAttribute(ns, name) };
}

/** One value of an element field (not null unless the codec writes null itself). */
function writeValue(w: XmlWriter, p: PlannedField, value: unknown): void {
  const f = p.field;
  const tag = p.tag;
  if (tag === undefined) return f.codec!.encode(value, w, f.ns, f.local, false, f.where);
  switch (p.write) {
    case WRITE_TEXT:
      return w.textElement(tag, value as string);
    case WRITE_SIMPLE:
      return w.textElement(tag, (f.codec as XmlSimpleCodec<unknown>).lexical(value));
    case WRITE_TAGGED:
      return (f.codec as XmlRecordCodec | XmlFamilyCodec).encodeTagged(value, w, tag);
    default:
      return f.codec!.encode(value, w, f.ns, f.local, false, f.where);
  }
}

function writeNil(w: XmlWriter, p: PlannedField): void {
  if (p.tag !== undefined) w.nilElement(p.tag);
  else xmlNilElement(w, p.field.ns, p.field.local);
}
