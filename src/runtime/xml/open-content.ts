import { encodeBase64 } from "./base64.js";
import { XmlDecodeError, XmlEncodeError } from "./errors.js";
import { formatXsdDouble } from "./lexical.js";
import { clarkName, isNil, xsiType, type XmlAttribute, type XmlElementNode } from "./node.js";
import type { XmlTag } from "./prefix-scope.js";
import type { XmlPullReader } from "./pull.js";
import type { XmlWriter } from "./writer.js";

/**
 * Open content (xsd:any members, `$any`) and values of type xsd:anyType. Generic on purpose: these elements are not
 * described by the schema, so there is no specialized code to generate for them. See the xml emitter's README for the
 * value shapes.
 */

export interface OpenContentItem {
  readonly ns: string;
  readonly name: string;
  readonly value: unknown;
  /**
   * The element's attributes other than xsi:type / xsi:nil, keyed "local" (no namespace) or "{ns}local" as
   * xsd:anyAttribute's `$attributes` are (a .NET DataSet row's `diffgr:id`, `msdata:rowOrder`); absent when none.
   */
  readonly attributes?: { readonly [name: string]: string };
}

const XSI = "http://www.w3.org/2001/XMLSchema-instance";

/** An element's attributes as OpenContentItem.attributes (xsi: ones left out: they are the value's), or undefined. */
function treeAttributes(node: XmlElementNode): { [name: string]: string } | undefined {
  let out: { [name: string]: string } | undefined;
  for (const a of node.attrs) if (a.ns !== XSI) out = collectXmlAttribute(out, a);
  return out;
}

/** The same for the element a pull reader is on (read before its content moves the reader on). */
function pulledAttributes(r: XmlPullReader): { [name: string]: string } | undefined {
  let out: { [name: string]: string } | undefined;
  for (let i = 0; i < r.attrCount; i++) {
    const ns = r.attrNs[i]!;
    if (ns === XSI) continue;
    out ??= Object.create(null) as { [name: string]: string };
    const local = r.attrLocal[i]!;
    out[ns === "" ? local : clarkName(ns, local)] = r.attrValue[i]!;
  }
  return out;
}

/** { ns, name, value }, with `attributes` only when there are some (so values without them compare as before). */
function item(ns: string, name: string, value: unknown, attributes: { [name: string]: string } | undefined): OpenContentItem {
  return attributes === undefined ? { ns, name, value } : { ns, name, value, attributes };
}

/** How generated code reads and writes one named type (the entries of its `xmlTypes` map). */
export interface XmlTypeCodec {
  /** Write `value` as element {ns}local; `xsiType` asks for the type to be named with xsi:type. */
  encode(value: unknown, writer: XmlWriter, ns: string, local: string, xsiType?: boolean): void;
  decode(node: XmlElementNode, path?: string): unknown;
  /** Read the element an XmlPullReader is on, through its end tag. */
  read(r: XmlPullReader, path?: string): unknown;
}

/** The record types open content may name via xsi:type: by "{ns}local" when reading, by `$type` when writing. */
export interface OpenTypes {
  readonly byClark: ReadonlyMap<string, XmlTypeCodec>;
  readonly byName: ReadonlyMap<string, XmlTypeCodec>;
}

/**
 * Build the lookup tables for the record types named by [ns, local] from a generated `xmlTypes` map (the first type
 * of a given local name wins `$type`).
 */
export function openTypes(codecs: { readonly [clarkName: string]: XmlTypeCodec }, records: readonly (readonly [string, string])[]): OpenTypes {
  const byClark = new Map<string, XmlTypeCodec>();
  const byName = new Map<string, XmlTypeCodec>();
  for (const [ns, local] of records) {
    const key = clarkName(ns, local);
    const codec = Object.prototype.hasOwnProperty.call(codecs, key) ? codecs[key] : undefined;
    if (codec === undefined) continue;
    byClark.set(key, codec);
    if (!byName.has(local)) byName.set(local, codec);
  }
  return { byClark, byName };
}

/** One element of open content as { ns, name, value }; `path`/`key`/`index` locate it for error messages. */
export function decodeOpenItem(node: XmlElementNode, path: string, key: string, index: number, types: OpenTypes): OpenContentItem {
  // Plain text fields are the common case (sObject fields): no path string is built for them.
  if (node.children.length === 0 && node.attrs.length === 0) return { ns: node.ns, name: node.local, value: node.text };
  return item(node.ns, node.local, decodeAnyValue(node, `${path}/${key}/${index}/value`, types), treeAttributes(node));
}

/** The value of an element the schema does not type: null, a typed record (by xsi:type), a string or a tree. */
export function decodeAnyValue(node: XmlElementNode, path: string, types: OpenTypes): unknown {
  if (isNil(node)) return null;
  const t = xsiType(node);
  if (t !== undefined) {
    const codec = types.byClark.get(clarkName(t.ns, t.local));
    if (codec !== undefined) {
      const value = codec.decode(node, path);
      if (typeof value === "object" && value !== null && !Object.prototype.hasOwnProperty.call(value, "$type")) {
        Object.defineProperty(value, "$type", { value: t.local, enumerable: true, writable: true, configurable: true });
      }
      return value;
    }
  }
  const children = node.children;
  if (children.length === 0) return node.text;
  const out: OpenContentItem[] = [];
  for (let i = 0; i < children.length; i++) {
    const c = children[i]!;
    out.push(item(c.ns, c.local, decodeAnyValue(c, `${path}/${i}/value`, types), c.attrs.length === 0 ? undefined : treeAttributes(c)));
  }
  return out;
}

/**
 * decodeOpenItem from a pull reader: one element of open content as { ns, name, value }, read through its end tag.
 * An element without attributes is nearly always plain text (sObject fields): no path string is built for it.
 */
export function readOpenItem(r: XmlPullReader, path: string, key: string, index: number, types: OpenTypes): OpenContentItem {
  const ns = r.ns;
  const name = r.local;
  if (r.attrCount === 0) return { ns, name, value: readAnyContent(r, types, path, key, index) };
  const attributes = pulledAttributes(r);
  return item(ns, name, readAnyValue(r, `${path}/${key}/${index}/value`, types), attributes);
}

/** decodeAnyValue from a pull reader: null, a typed record (by xsi:type), a string or a list of items. */
export function readAnyValue(r: XmlPullReader, path: string, types: OpenTypes): unknown {
  if (r.isNil()) {
    r.skip();
    return null;
  }
  const t = r.xsiType();
  if (t !== undefined) {
    const codec = types.byClark.get(clarkName(t.ns, t.local));
    if (codec !== undefined) {
      const value = codec.read(r, path);
      if (typeof value === "object" && value !== null && !Object.prototype.hasOwnProperty.call(value, "$type")) {
        Object.defineProperty(value, "$type", { value: t.local, enumerable: true, writable: true, configurable: true });
      }
      return value;
    }
  }
  return readAnyContent(r, types, path, undefined, 0);
}

/**
 * The content of an untyped element: its text when it has no child elements, else its children as items (text
 * between them is then dropped). The path of the value is `path`, or `${path}/${key}/${index}/value` when `key` is
 * given (worked out only when there are children to locate errors in).
 */
function readAnyContent(r: XmlPullReader, types: OpenTypes, path: string, key: string | undefined, index: number): unknown {
  if (!r.nextChild(true)) return r.lastText;
  const base = key === undefined ? path : `${path}/${key}/${index}/value`;
  const out: OpenContentItem[] = [];
  do {
    const i = out.length;
    const ns = r.ns;
    const name = r.local;
    const attributes = r.attrCount === 0 ? undefined : pulledAttributes(r);
    out.push(item(ns, name, readAnyValue(r, `${base}/${i}/value`, types), attributes));
  } while (r.nextChild(false));
  return out;
}

/** The global elements a strict wildcard's items are written by (the record codecs' XmlCodecs). */
export interface OpenDeclarations {
  declaration(ns: string, local: string): { encode(value: unknown, w: XmlWriter): void } | undefined;
}

/** Positions of open content whose tags a caller keeps (see encodeOpenContent). */
const MAX_KEPT_TAGS = 256;

/**
 * Write open content items in order. `kept`, when given, holds the tags of the items last written at each position
 * (under the writer's current scope): records of one kind tend to carry the same elements in the same order (the
 * fields of an sObject), so the tag is usually the one kept there and the scope's lookup by name is skipped.
 */
export function encodeOpenContent(
  w: XmlWriter,
  items: readonly OpenContentItem[],
  types: OpenTypes,
  path: string,
  kept?: (XmlTag | undefined)[],
  declared?: OpenDeclarations,
): void {
  if (!Array.isArray(items)) throw new XmlEncodeError(`${path}: open content must be an array of { ns, name, value }`);
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item !== "object" || item === null || typeof item.name !== "string" || typeof item.ns !== "string") {
      throw new XmlEncodeError(`${path}/${i}: open content items are { ns: string, name: string, value }`);
    }
    // Text is the common case (sObject fields): written straight away, without the path string an error would need.
    const value: unknown = item.value;
    if (declared !== undefined) {
      // A strict wildcard's item naming a global element was read by its declaration: written back by it.
      const decl = declared.declaration(item.ns, item.name);
      if (decl !== undefined) {
        decl.encode(value, w);
        continue;
      }
    }
    const attributes = item.attributes;
    if (typeof value !== "string" || attributes !== undefined) encodeAnyValue(w, item.ns, item.name, value, types, `${path}/${i}`, attributes);
    else if (kept === undefined) w.simpleElement(item.ns, item.name, value);
    else {
      let tag = kept[i];
      if (tag === undefined || tag.local !== item.name || tag.ns !== item.ns) {
        tag = w.scope?.tag(item.ns, item.name);
        if (tag === undefined) {
          w.simpleElement(item.ns, item.name, value);
          continue;
        }
        if (i < MAX_KEPT_TAGS) kept[i] = tag;
      }
      w.textElement(tag, value);
    }
  }
}

/**
 * Write `value` as element {ns}local by the rules of decodeAnyValue, in reverse; `attributes` (an open content item's)
 * go on its start tag, except on a typed record's (`$type`), whose codec writes its own.
 */
export function encodeAnyValue(w: XmlWriter, ns: string, local: string, value: unknown, types: OpenTypes, path: string, attributes?: { readonly [name: string]: string }): void {
  if (attributes !== undefined && (typeof attributes !== "object" || attributes === null)) {
    throw new XmlEncodeError(`${path}/attributes: open content attributes are an object of strings`);
  }
  if (attributes !== undefined && (typeof value !== "object" || value === null || value instanceof Uint8Array || Array.isArray(value))) {
    w.startElement(ns, local);
    for (const key of Object.keys(attributes)) {
      if (typeof attributes[key] !== "string") throw new XmlEncodeError(`${path}/attributes/${key}: an attribute value is a string`);
    }
    encodeXmlAttributes(w, attributes);
    if (value === null) w.nil();
    else if (Array.isArray(value)) encodeOpenContent(w, value as OpenContentItem[], types, `${path}/value`);
    else w.text(scalarText(value, path));
    w.endElement();
    return;
  }
  switch (typeof value) {
    case "string":
      return w.simpleElement(ns, local, value);
    case "number":
      return w.simpleElement(ns, local, formatXsdDouble(value));
    case "bigint":
      return w.simpleElement(ns, local, String(value));
    case "boolean":
      return w.simpleElement(ns, local, value ? "true" : "false");
    case "object":
      break;
    default:
      throw new XmlEncodeError(`${path}: a ${typeof value} cannot be written as XML`);
  }
  if (value === null) {
    w.startElement(ns, local);
    w.nil();
    w.endElement();
    return;
  }
  if (value instanceof Uint8Array) return w.simpleElement(ns, local, encodeBase64(value));
  if (Array.isArray(value)) {
    w.startElement(ns, local);
    encodeOpenContent(w, value as OpenContentItem[], types, path);
    w.endElement();
    return;
  }
  const name = (value as { $type?: unknown }).$type;
  const codec = typeof name === "string" ? types.byName.get(name) : undefined;
  if (codec === undefined) {
    throw new XmlEncodeError(`${path}: an object in open content needs a $type naming a record type of the schema`);
  }
  codec.encode(value, w, ns, local, true);
}

/** The text encodeAnyValue writes for a scalar value (a string, number, bigint, boolean or bytes). */
function scalarText(value: unknown, path: string): string {
  switch (typeof value) {
    case "string":
      return value;
    case "number":
      return formatXsdDouble(value);
    case "bigint":
      return String(value);
    case "boolean":
      return value ? "true" : "false";
    default:
      if (value instanceof Uint8Array) return encodeBase64(value);
      throw new XmlEncodeError(`${path}: a ${typeof value} cannot be written as XML`);
  }
}

/** Thrown by generated decoders when a required element or attribute is absent. */
export function xmlMissing(path: string, what: string): XmlDecodeError {
  return new XmlDecodeError(path, `required ${what} is missing`);
}

/** Thrown by generated encoders when a required property is absent. */
export function xmlMissingProperty(path: string, key: string): XmlEncodeError {
  return new XmlEncodeError(`${path}/${key}: required property is missing`);
}

/** Generated encoders: a required, non-nillable property is absent (or null). */
export function xmlRequiredProperty(path: string, key: string): never {
  throw xmlMissingProperty(path, key);
}

/** Generated encoders: a required, nillable property's value (null is xsi:nil); absent is an error. */
export function xmlPresent<T>(value: T | undefined, path: string, key: string): T {
  if (value === undefined) throw xmlMissingProperty(path, key);
  return value;
}

/** Generated decoders: a required element's or attribute's value (null is xsi:nil); absent is an error. */
export function xmlRequired<T>(value: T | undefined, path: string, what: string): T {
  if (value === undefined) throw xmlMissing(path, what);
  return value;
}

/** Check the root element a decoder was given. */
export function expectXmlElement(node: XmlElementNode, ns: string, local: string): void {
  if (node.local !== local || node.ns !== ns) {
    throw new XmlDecodeError("", `expected element ${clarkName(ns, local)}, got ${clarkName(node.ns, node.local)}`);
  }
}

/** `<local xsi:nil="true"/>`. */
export function xmlNilElement(w: XmlWriter, ns: string, local: string): void {
  w.startElement(ns, local);
  w.nil();
  w.endElement();
}

/**
 * Generated encoders: an element of text whose lexical form is the value itself (strings, enumerations): the element,
 * `<local xsi:nil="true"/>` for null, nothing for undefined.
 */
export function xmlTextElement(w: XmlWriter, ns: string, local: string, text: string | null | undefined): void {
  if (text === undefined) return;
  if (text === null) xmlNilElement(w, ns, local);
  else w.simpleElement(ns, local, text);
}

/** Generated encoders: a repeated text element (xmlTextElement per item); nothing for undefined. */
export function xmlTextElements(w: XmlWriter, ns: string, local: string, items: readonly (string | null)[] | undefined): void {
  if (items === undefined) return;
  for (const item of items) {
    if (item === null) xmlNilElement(w, ns, local);
    else w.simpleElement(ns, local, item);
  }
}

/** Attributes of xsd:anyAttribute, keyed "local" (no namespace) or "{ns}local"; a null-prototype object. */
export function collectXmlAttribute(map: { [name: string]: string } | undefined, a: XmlAttribute): { [name: string]: string } {
  const out = map ?? (Object.create(null) as { [name: string]: string });
  out[a.ns === "" ? a.local : clarkName(a.ns, a.local)] = a.value;
  return out;
}

/** Write the attributes collected by collectXmlAttribute back. */
export function encodeXmlAttributes(w: XmlWriter, map: { readonly [name: string]: string }): void {
  for (const key of Object.keys(map)) {
    const value = map[key]!;
    const close = key.startsWith("{") ? key.indexOf("}") : -1;
    if (close < 0) w.attribute("", key, value);
    else w.attribute(key.slice(1, close), key.slice(close + 1), value);
  }
}
