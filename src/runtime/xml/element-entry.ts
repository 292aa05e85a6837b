import { XML_DECLARATION, type XmlDecodeOptions, type XmlEncodeOptions } from "./codec-options.js";
import type { XmlElementNode } from "./node.js";
import { readingAbsentNillableAsNil } from "./absent-nillable.js";
import { XmlDecodeError, XmlParseError } from "./errors.js";
import { clarkName } from "./node.js";
import type { XmlPullReader } from "./pull.js";
import { readerOf } from "./pulled-element.js";
import { encodeLocation } from "./encode-location.js";
import { XmlValueTypeError } from "./value-type-error.js";
import { XmlWriter } from "./writer.js";

/**
 * The bodies of the generated `encode<E>Element` / `decode<E>Element` functions, written once here so that a schema
 * with hundreds of global elements does not repeat them: the generated functions pass the element's writer or reader.
 */

/** A standalone document: `write` on a writer declaring `namespaces` (or the caller's), optionally with `<?xml ...?>`. */
export function encodeXmlElement<T>(value: T, options: XmlEncodeOptions | undefined, namespaces: readonly (readonly [string, string])[], write: (w: XmlWriter, value: T) => void): string {
  const aliases = options?.namespaceAliases;
  const w = new XmlWriter(aliases === undefined ? { namespaces: options?.namespaces ?? namespaces } : { namespaces: options?.namespaces ?? namespaces, namespaceAliases: aliases });
  try {
    write(w, value);
  } catch (e) {
    // A value of the wrong type: say where it is. The location is worked out only here, never while encoding.
    if (e instanceof XmlValueTypeError && e.path === undefined) {
      const path = encodeLocation(w.written(), value, e.value, e.where.inElement);
      throw e.at(e.where.attribute !== undefined ? `${path}@${e.where.attribute}` : path);
    }
    throw e;
  }
  return (options?.xmlDeclaration ? XML_DECLARATION : "") + w.toString();
}

/**
 * Check that `input`'s root element is {ns}local and `read` it from the text with a pull reader (a string is checked
 * under the limits as it is read; a pulled element is read from its document; a tree is written back to text).
 */
export function decodeXmlElement<T>(input: string | XmlElementNode, options: XmlDecodeOptions | undefined, ns: string, local: string, read: (reader: XmlPullReader) => T): T {
  const { reader, whole } = readerOf(input, options?.limits);
  let value: T;
  try {
    if (reader.local !== local || reader.ns !== ns) {
      throw new XmlDecodeError("", `expected element ${clarkName(ns, local)}, got ${clarkName(reader.ns, reader.local)}`);
    }
    value = options?.lenientNillable === true ? readingAbsentNillableAsNil(() => read(reader)) : read(reader);
  } catch (error) {
    // The decoder stopped early: a document that is malformed further on is reported as malformed (as a parser that
    // reads everything before decoding would have), else the decoder's error stands.
    if (whole && !(error instanceof XmlParseError)) reader.drain();
    throw error;
  }
  if (whole) reader.end();
  return value;
}
