import { XmlDecodeError, XmlEncodeError } from "./errors.js";
import { XML_NS, type NamespaceScope } from "./node.js";
import type { XmlWriter } from "./writer.js";

/**
 * xsd:QName values (XSD 1.0 Part 2 §3.2.18): the value is a namespace and a local name, the prefix only how one
 * document writes it. Decoded values are `{namespace}local` (`local` in no namespace), so a value read from one
 * document is written into another with a prefix bound there, and two prefixes for one namespace give equal values.
 *
 * A QName is read in the namespace bindings of the element it is written in, and written with a prefix declared on
 * the element being written: the codecs that read or write a QName (the simple codecs flagged `qname`) set these
 * for the duration of one parse or one lexical form, which are synchronous.
 */
let reading: NamespaceScope | null | undefined;
let writing: XmlWriter | undefined;

/** Runs `f` with QName prefixes resolved in `scope` (the bindings of the element the text comes from). */
export function withXmlQNameScope<T>(scope: NamespaceScope | null, f: () => T): T {
  const previous = reading;
  reading = scope;
  try {
    return f();
  } finally {
    reading = previous;
  }
}

/** Runs `f` with QName prefixes declared on `w`'s open start tag as needed. */
export function withXmlQNameWriter<T>(w: XmlWriter, f: () => T): T {
  const previous = writing;
  writing = w;
  try {
    return f();
  } finally {
    writing = previous;
  }
}

/** An NCName (XML Namespaces' NCName, by Unicode category: letters and `_` first, then also digits, marks, `.`, `-`, `·`). */
const NCNAME = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{N}\p{M}._\-\u00B7]*$/u;

/** A QName's text as its value, `{namespace}local`; an unbound prefix or a malformed QName is a decode error. */
export function parseXsdQName(text: string, path: string): string {
  const t = text.trim();
  const colon = t.indexOf(":");
  const prefix = colon < 0 ? "" : t.slice(0, colon);
  const local = colon < 0 ? t : t.slice(colon + 1);
  if (!NCNAME.test(local) || (colon >= 0 && !NCNAME.test(prefix))) throw new XmlDecodeError(path, `${JSON.stringify(text)} is not a valid xsd:QName`);
  if (reading === undefined) return t;
  let ns: string | undefined = prefix === "xml" ? XML_NS : undefined;
  for (let s = reading; ns === undefined && s !== null; s = s.parent) if (s.prefix === prefix) ns = s.uri;
  if (ns === undefined) {
    if (prefix !== "") throw new XmlDecodeError(path, `the prefix of ${JSON.stringify(t)} is not bound to a namespace`);
    ns = "";
  }
  return ns === "" ? local : `{${ns}}${local}`;
}

/** A QName value (`{namespace}local` or `local`) as text, its namespace's prefix declared where needed. */
export function formatXsdQName(v: string): string {
  if (typeof v !== "string" || !v.startsWith("{")) return v;
  const end = v.indexOf("}");
  if (end < 0) throw new XmlEncodeError(`${JSON.stringify(v)} is not a QName value ({namespace}local)`);
  if (writing === undefined) throw new XmlEncodeError(`the QName ${v} is written where no namespace prefix can be declared`);
  return writing.qname(v.slice(1, end), v.slice(end + 1));
}
