import { XML_DECLARATION, type XmlDecodeOptions, type XmlEncodeOptions } from "./codec-options.js";
import type { XmlElementNode } from "./node.js";
import { readingAbsentNillableAsNil } from "./absent-nillable.js";
import { expectXmlElement } from "./open-content.js";
import { parseXml } from "./parse.js";
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

/** Parse `input` (under the limits) unless it is already an element, check it is {ns}local, and `read` it. */
export function decodeXmlElement<T>(input: string | XmlElementNode, options: XmlDecodeOptions | undefined, ns: string, local: string, read: (node: XmlElementNode) => T): T {
  const node = typeof input === "string" ? parseXml(input, options?.limits) : input;
  expectXmlElement(node, ns, local);
  return options?.lenientNillable === true ? readingAbsentNillableAsNil(() => read(node)) : read(node);
}
