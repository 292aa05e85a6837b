import type { XmlLimits } from "./limits.js";
import type { XmlElementNode } from "./node.js";
import type { XmlWriter } from "./writer.js";

/** Options of the generated `encode<E>Element` functions. */
export interface XmlEncodeOptions {
  /** Namespaces declared on the element, as [uri, prefix]; default: the schema's namespaces as ns1, ns2, ... and xsi. */
  readonly namespaces?: readonly (readonly [uri: string, prefix: string])[];
  /** Prepend `<?xml version="1.0" encoding="UTF-8"?>` (a standalone document). */
  readonly xmlDeclaration?: boolean;
  /** Write the schema's namespace K as V (K -> V): see XmlWriterOptions.namespaceAliases. */
  readonly namespaceAliases?: ReadonlyMap<string, string>;
}

/** Options of the generated `decode<E>Element` functions. */
export interface XmlDecodeOptions {
  readonly limits?: Partial<XmlLimits>;
  /**
   * Read an element the schema declares required and nillable as nil (null) when it is absent, instead of failing.
   * Default false (strict). Real services accept such omissions (the partner service's sObject Id on create).
   */
  readonly lenientNillable?: boolean;
}

/** An entry of the generated `xmlElements` map: dynamic dispatch by element name. */
export interface XmlElementCodec {
  encode(value: unknown, writer: XmlWriter): void;
  decode(node: XmlElementNode): unknown;
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
