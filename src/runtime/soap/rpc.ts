/**
 * rpc-style SOAP bodies (WSDL 1.1 §3.5): the body holds one wrapper element named after the operation (its response:
 * the operation's name + "Response"), in the soap:body namespace, with one accessor element per message part, named
 * after the part and unqualified. Under use="encoded" (SOAP 1.1 §5 / SOAP 1.2 part 2 §3) each accessor carries the
 * part's type as xsi:type, arrays are SOAP-ENC arrays (`soapenc:arrayType="xsd:string[2]"`, items of any name), and a
 * value may be written once and referenced (`href="#id"` to an element with `id="id"`, often a sibling of the wrapper).
 *
 * Written as node-soap writes and reads them, and read leniently where stacks differ: accessors match by local name
 * whatever their namespace (node-soap's server qualifies them), the response wrapper's name is not checked, multi-refs
 * are resolved wherever the referenced element is in the body.
 */
import { pointerJoin, type ValidationIssue } from "../validation.js";
import type { XmlEncodeOptions } from "../xml/codec-options.js";
import { XmlDecodeError } from "../xml/errors.js";
import { attrValue, isNil, XSI_NS, type XmlAttribute, type XmlElementNode } from "../xml/node.js";
import type { XmlTypeCodec } from "../xml/open-content.js";
import { XmlSimpleCodec } from "../xml/record-codec.js";
import { XmlWriter } from "../xml/writer.js";

export const SOAP_ENCODING_11 = "http://schemas.xmlsoap.org/soap/encoding/";
export const SOAP_ENCODING_12 = "http://www.w3.org/2003/05/soap-encoding";
const XSD_NS = "http://www.w3.org/2001/XMLSchema";

/** A SOAP-ENC array part: the record type restricting soapenc:Array, its one repeated member and its items' type. */
export interface SoapRpcArray {
  /** The property of the record's value holding the items. */
  readonly key: string;
  /** The item element's local name as the schema declares it (items are read whatever their name). */
  readonly item: string;
  /** The items' type as [namespace, local name] (soapenc:arrayType's value) and its codec. */
  readonly itemType: readonly [string, string];
  readonly itemCodec: XmlTypeCodec;
  /**
   * An array of arrays (`xsd:int[][]`, SOAP 1.1 §5.4.2): how many array ranks lie between this array and the
   * `itemType` items. Each inner array is a value `{ item: [...] }` written as an element `item` that is a SOAP-ENC
   * array itself (`soapenc:arrayType="xsd:int[2]"`; the outer one's `xsd:int[][3]`).
   */
  readonly inner?: number;
}

export interface SoapRpcPart {
  readonly name: string;
  readonly codec: XmlTypeCodec;
  /** The part's type= as [namespace, local name]: written as xsi:type under use="encoded". */
  readonly type: readonly [string, string];
  /** Set when the part's type is a restriction of soapenc:Array. */
  readonly array?: SoapRpcArray;
}

export interface SoapRpcMessageSpec {
  /** The wrapper element: the soap:body namespace and the operation's name (+ "Response" for the output). */
  readonly ns: string;
  readonly local: string;
  /** use="encoded": the encodingStyle URI (SOAP 1.1 or 1.2 encoding); absent for use="literal". */
  readonly encoding?: string;
  readonly parts: readonly SoapRpcPart[];
  /**
   * How the TypeScript value maps to parts: a message of one part is that part's value, one of several an object
   * keyed by part name, one of none `undefined` (the shape of the generated `<Service>Operations` types).
   */
  readonly single: boolean;
  /** Namespaces declared on the wrapper (the generated xml.ts's `xmlNamespaces`, so that xsi:type values resolve). */
  readonly namespaces: readonly (readonly [string, string])[];
}

/** The codec of one rpc message, built once per operation by generated clients and servers. */
export class SoapRpcMessage<T> {
  private readonly namespaces: readonly (readonly [string, string])[];
  private readonly byName = new Map<string, SoapRpcPart>();

  constructor(readonly spec: SoapRpcMessageSpec) {
    const list = [...spec.namespaces];
    const taken = new Set(list.map(([, p]) => p));
    const has = (uri: string) => list.some(([u]) => u === uri);
    const add = (uri: string, wanted: string): void => {
      if (uri === "" || has(uri)) return;
      let prefix = wanted;
      for (let i = 2; taken.has(prefix); i++) prefix = `${wanted}${i}`;
      taken.add(prefix);
      list.push([uri, prefix]);
    };
    add(spec.ns, "m");
    if (!has(XSI_NS)) add(XSI_NS, "xsi");
    if (spec.encoding !== undefined) {
      add(XSD_NS, "xsd");
      add(spec.encoding, "soapenc");
    }
    this.namespaces = list;
    for (const p of spec.parts) this.byName.set(p.name, p);
  }

  /** The wrapper element as XML text (the SOAP body's content). */
  encode(value: T, options?: XmlEncodeOptions): string {
    const aliases = options?.namespaceAliases;
    const w = new XmlWriter(aliases === undefined ? { namespaces: this.namespaces } : { namespaces: this.namespaces, namespaceAliases: aliases });
    const { spec } = this;
    w.startElement(spec.ns, spec.local);
    const values = this.partValues(value);
    for (let i = 0; i < spec.parts.length; i++) {
      const part = spec.parts[i]!;
      const v = values[i];
      if (v === undefined) continue;
      this.encodePart(w, part, v);
    }
    w.endElement();
    return w.toString();
  }

  private partValues(value: unknown): unknown[] {
    const { parts, single } = this.spec;
    if (parts.length === 0) return [];
    if (single) return [value];
    if (typeof value !== "object" || value === null) {
      throw new TypeError(`${this.spec.local}: expected an object with the message parts (${parts.map((p) => p.name).join(", ")})`);
    }
    return parts.map((p) => (value as Record<string, unknown>)[p.name]);
  }

  private encodePart(w: XmlWriter, part: SoapRpcPart, value: unknown): void {
    const encoded = this.spec.encoding !== undefined;
    if (value === null) {
      w.startElement("", part.name);
      w.nil();
      w.endElement();
      return;
    }
    if (encoded && part.array !== undefined) {
      this.encodeArray(w, part.array, part.name, value, part.array.inner ?? 0);
      return;
    }
    if (encoded) this.encodeValue(w, part.codec, part.name, part.type, value);
    else part.codec.encode(value, w, "", part.name, false);
  }

  /**
   * A SOAP-ENC array as element `name`: `level` array ranks lie between its items and the leaf items (0: the items
   * are `a.itemType` values). The outermost array's items are `a.key` of its value and named `a.item`; an inner
   * array's are its `item`s, named `item`.
   */
  private encodeArray(w: XmlWriter, a: SoapRpcArray, name: string, value: unknown, level: number): void {
    const outer = level === (a.inner ?? 0);
    const items = (value as Record<string, unknown>)[outer ? a.key : "item"];
    const list = Array.isArray(items) ? items : items === undefined ? [] : [items];
    const enc = this.spec.encoding!;
    w.startElement("", name);
    if (enc === SOAP_ENCODING_12) {
      // SOAP 1.2 encoding: the items' type and the array's size, each its own attribute (an array of arrays leaves
      // itemType out: it is optional, and there is no name for "array of xsd:int").
      if (level === 0) w.attribute(enc, "itemType", w.qname(a.itemType[0], a.itemType[1]));
      w.attribute(enc, "arraySize", String(list.length));
    } else {
      w.xsiType(enc, "Array");
      w.attribute(enc, "arrayType", `${w.qname(a.itemType[0], a.itemType[1])}${"[]".repeat(level)}[${list.length}]`);
    }
    const itemName = outer ? a.item : "item";
    for (const item of list) {
      if (level === 0) this.encodeValue(w, a.itemCodec, itemName, a.itemType, item);
      else if (item === null) {
        w.startElement("", itemName);
        w.nil();
        w.endElement();
      } else this.encodeArray(w, a, itemName, item, level - 1);
    }
    w.endElement();
  }

  /** An element of an encoded message: its value with its type named by xsi:type. */
  private encodeValue(w: XmlWriter, codec: XmlTypeCodec, name: string, type: readonly [string, string], value: unknown): void {
    if (value === null) {
      w.startElement("", name);
      w.nil();
      w.endElement();
    } else if (codec instanceof XmlSimpleCodec) {
      w.startElement("", name);
      w.xsiType(type[0], type[1]);
      w.text((codec as XmlSimpleCodec<unknown>).lexical(value));
      w.endElement();
    } else codec.encode(value, w, "", name, true);
  }

  /**
   * The message's value from its wrapper element. `others` are the body's other elements (where SOAP encoding puts
   * multi-referenced values); `path` prefixes error locations.
   */
  decode(node: XmlElementNode, others: readonly XmlElementNode[] = [], path = ""): T {
    const root = hasHref(node) ? resolveRefs(node, others) : node;
    const { parts, single } = this.spec;
    const values = new Map<string, unknown>();
    for (const child of root.children) {
      const part = this.byName.get(child.local);
      if (part === undefined) {
        throw new XmlDecodeError(path, `unexpected element ${child.local} in ${this.spec.local}: its parts are ${parts.map((p) => p.name).join(", ") || "none"}`);
      }
      if (values.has(part.name)) throw new XmlDecodeError(`${path}/${part.name}`, `part ${part.name} appears twice`);
      values.set(part.name, this.decodePart(part, child, `${path}/${part.name}`));
    }
    for (const p of parts) if (!values.has(p.name)) throw new XmlDecodeError(path, `${this.spec.local} has no part ${p.name}`);
    if (parts.length === 0) return undefined as T;
    if (single) return values.get(parts[0]!.name) as T;
    const out: Record<string, unknown> = {};
    for (const p of parts) out[p.name] = values.get(p.name);
    return out as T;
  }

  private decodePart(part: SoapRpcPart, node: XmlElementNode, path: string): unknown {
    if (isNil(node)) return null;
    // Accessors are unqualified; stacks that qualify them (node-soap's server) or their items still mean the same.
    let n = node.ns === "" ? node : { ...plain(node), ns: "", prefix: "" };
    if (part.array !== undefined && (isEncodedArray(n) || this.spec.encoding !== undefined)) {
      // Items are named anything (`item`, the type's name, ...; node-soap names every level of an array of arrays
      // after the part and writes no arrayType): read as the member the schema names; the items of an
      // inner array (an array of arrays) as the `item`s of its record, the inner array's own SOAP-ENC attributes
      // (xsi:type="soapenc:Array", arrayType) dropped, its xsi:nil kept.
      const item = part.array.item;
      const inner = (c: XmlElementNode, local: string, depth: number): XmlElementNode => {
        const p = { ...plain(c), ns: "", prefix: "", local };
        if (depth === 0 || isNil(c)) return p;
        return { ...p, attrs: c.attrs.filter((x) => !isArrayAttribute(x)), children: c.children.map((g) => inner(g, "item", depth - 1)) };
      };
      n = { ...plain(n), children: n.children.map((c) => inner(c, item, part.array!.inner ?? 0)) };
    }
    try {
      return part.codec.decode(n, path);
    } catch (error) {
      // Encoded accessors are matched by local name (SOAP 1.1 §5.4): node-soap's client qualifies a part's members
      // with the wrapper's namespace, which the schema (unqualified members) does not. Read them as unqualified when
      // the value as written does not decode; a value that does is never rewritten.
      if (!(error instanceof XmlDecodeError) || this.spec.encoding === undefined || this.spec.ns === "" || !usesNs(n, this.spec.ns)) throw error;
      return part.codec.decode(unqualified(n, this.spec.ns), path);
    }
  }
}

/** Some descendant of `node` is in namespace `ns`. */
function usesNs(node: XmlElementNode, ns: string): boolean {
  for (const c of node.children) if (c.ns === ns || usesNs(c, ns)) return true;
  return false;
}

/** `node` with its descendants in namespace `ns` moved to no namespace. */
function unqualified(node: XmlElementNode, ns: string): XmlElementNode {
  return {
    ...plain(node),
    children: node.children.map((c) => {
      const inner = unqualified(c, ns);
      return c.ns === ns ? { ...inner, ns: "", prefix: "" } : inner;
    }),
  };
}

/** A wrapper's codec: `new SoapRpcMessage(spec)` with its value type. */
export function soapRpcMessage<T>(spec: SoapRpcMessageSpec): SoapRpcMessage<T> {
  return new SoapRpcMessage<T>(spec);
}

/** A tree node as a plain object (pulled elements keep their fields behind getters). */
function plain(node: XmlElementNode): XmlElementNode {
  return { ns: node.ns, local: node.local, prefix: node.prefix, attrs: node.attrs, children: node.children, text: node.text, scope: node.scope };
}

function isEncodedArray(node: XmlElementNode): boolean {
  for (const a of node.attrs) {
    if ((a.ns === SOAP_ENCODING_11 && a.local === "arrayType") || (a.ns === SOAP_ENCODING_12 && (a.local === "itemType" || a.local === "arraySize"))) return true;
    if (a.ns === XSI_NS && a.local === "type" && /(^|:)Array$/.test(a.value.trim())) return true;
  }
  return false;
}

/** The attributes that make an element a SOAP-ENC array (xsi:type="...:Array", arrayType, itemType, arraySize, offset). */
function isArrayAttribute(a: XmlAttribute): boolean {
  if (a.ns === SOAP_ENCODING_11) return a.local === "arrayType" || a.local === "offset";
  if (a.ns === SOAP_ENCODING_12) return a.local === "itemType" || a.local === "arraySize";
  return a.ns === XSI_NS && a.local === "type" && /(^|:)Array$/.test(a.value.trim());
}

function hasHref(node: XmlElementNode): boolean {
  if (refOf(node) !== undefined) return true;
  for (const c of node.children) if (hasHref(c)) return true;
  return false;
}

/** The id an element refers to: SOAP 1.1 `href="#id"`, SOAP 1.2 `enc:ref="id"`. */
function refOf(node: XmlElementNode): string | undefined {
  if (node.attrs.length === 0) return undefined;
  const href = attrValue(node, "", "href");
  if (href !== undefined && href.startsWith("#")) return href.slice(1);
  return attrValue(node, SOAP_ENCODING_12, "ref");
}

function idOf(node: XmlElementNode): string | undefined {
  if (node.attrs.length === 0) return undefined;
  return attrValue(node, "", "id") ?? attrValue(node, SOAP_ENCODING_12, "id");
}

/** Most accessors one value may be reached through once references are followed (a guard against reference bombs). */
const MAX_RESOLVED_ELEMENTS = 100_000;

/**
 * `node` with every reference replaced by the element it names: the accessor keeps its name and gets the referenced
 * element's attributes (less its id), children and text. A reference to nothing, or a cycle, is an error.
 */
function resolveRefs(node: XmlElementNode, others: readonly XmlElementNode[]): XmlElementNode {
  const ids = new Map<string, XmlElementNode>();
  const collect = (n: XmlElementNode): void => {
    const id = idOf(n);
    if (id !== undefined && !ids.has(id)) ids.set(id, n);
    for (const c of n.children) collect(c);
  };
  collect(node);
  for (const o of others) collect(o);
  let budget = MAX_RESOLVED_ELEMENTS;
  const resolve = (n: XmlElementNode, open: ReadonlySet<string>, path: string): XmlElementNode => {
    if (--budget < 0) throw new XmlDecodeError(path, `more than ${MAX_RESOLVED_ELEMENTS} elements once href references are followed`);
    const ref = refOf(n);
    if (ref === undefined) {
      if (n.children.length === 0) return n;
      return { ...plain(n), children: n.children.map((c, i) => resolve(c, open, `${path}/${c.local}[${i}]`)) };
    }
    const target = ids.get(ref);
    if (target === undefined) throw new XmlDecodeError(path, `href="#${ref}" names no element of the body`);
    if (open.has(ref)) throw new XmlDecodeError(path, `href="#${ref}" refers to itself (a cycle)`);
    const inner = new Set(open).add(ref);
    const attrs: XmlAttribute[] = [
      ...n.attrs.filter((a) => !(a.ns === "" && a.local === "href") && !(a.ns === SOAP_ENCODING_12 && a.local === "ref")),
      ...target.attrs.filter((a) => !(a.ns === "" && a.local === "id") && !(a.ns === SOAP_ENCODING_12 && a.local === "id") && !n.attrs.some((b) => b.ns === a.ns && b.local === a.local)),
    ];
    return {
      ns: n.ns,
      local: n.local,
      prefix: n.prefix,
      attrs,
      text: target.text,
      // The referenced element's QName values (xsi:type) were written in its own scope.
      scope: target.scope,
      children: target.children.map((c, i) => resolve(c, inner, `${path}/${c.local}[${i}]`)),
    };
  };
  return resolve(node, new Set(), "");
}

/** What a generated xml.ts's `xmlPartTypes` holds for one type rpc parts name. */
export type SoapRpcPartType = Omit<SoapRpcPart, "name">;

/**
 * `xmlPartTypes` from `xmlTypes`: entries [ns, name] (the type's codec) or [ns, name, key, item, itemNs, itemName]
 * (a SOAP-ENC array: the property holding the items, the item element, the items' type).
 */
export function soapRpcPartTypes(
  types: { readonly [name: string]: XmlTypeCodec },
  entries: readonly (readonly [string, string] | readonly [string, string, string, string, string, string] | readonly [string, string, string, string, string, string, number])[],
): { readonly [name: string]: SoapRpcPartType } {
  const codec = (ns: string, local: string): XmlTypeCodec => {
    const key = `{${ns}}${local}`;
    const c = Object.prototype.hasOwnProperty.call(types, key) ? types[key] : undefined;
    if (c === undefined) throw new Error(`internal: no XML codec for type ${key}`);
    return c;
  };
  const out: { [name: string]: SoapRpcPartType } = {};
  for (const e of entries) {
    const [ns, local] = e;
    const type = [ns, local] as const;
    out[`{${ns}}${local}`] =
      e.length === 6 || e.length === 7
        ? { codec: codec(ns, local), type, array: { key: e[2], item: e[3], itemType: [e[4], e[5]], itemCodec: codec(e[4], e[5]), ...(e.length === 7 ? { inner: e[6] } : {}) } }
        : { codec: codec(ns, local), type };
  }
  return out;
}

/** One part of a message: its name and its type's entry in `xmlPartTypes` (by "{namespace}name"). */
export function soapRpcPart(name: string, types: { readonly [name: string]: SoapRpcPartType }, type: string): SoapRpcPart {
  const t = Object.prototype.hasOwnProperty.call(types, type) ? types[type] : undefined;
  if (t === undefined) throw new Error(`internal: no rpc part type ${type}`);
  return { name, ...t };
}

/** A part's validator: the generated `validate<Type>` of its named type. */
export type SoapRpcPartValidator = readonly [part: string, validate: (value: unknown) => ValidationIssue[]];

/**
 * The issues of an rpc message's decoded value, part by part: a message of one part is that part's value (paths as
 * its validator gives them), one of several an object keyed by part name (paths under `/<part>`). Parts of a
 * built-in simple type have no validator: their decoder already checked them.
 */
export function soapRpcIssues(value: unknown, single: boolean, validators: readonly SoapRpcPartValidator[]): ValidationIssue[] {
  if (single) return validators.length > 0 ? validators[0]![1](value) : [];
  const issues: ValidationIssue[] = [];
  const parts = value as { readonly [part: string]: unknown };
  for (const [part, validate] of validators) {
    const v = Object.prototype.hasOwnProperty.call(parts, part) ? parts[part] : undefined;
    if (v === undefined) continue;
    for (const issue of validate(v)) issues.push({ ...issue, path: pointerJoin("", part) + issue.path });
  }
  return issues;
}
