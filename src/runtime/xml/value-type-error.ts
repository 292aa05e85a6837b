import { XmlEncodeError } from "./errors.js";

/**
 * A value of the wrong JavaScript type where a generated encoder expects a particular one (a string where a
 * Uint8Array belongs, a Date where a dateTime string belongs), typically from a cast or from JSON. Thrown by the
 * cheap checks on the write path (encodeBase64, encodeHex, XmlWriter.text/attribute), first without a location;
 * `encodeXmlElement` then adds the path of the value inside the element (`create.sObjects[0].Body: expected
 * Uint8Array, got string`), working it out only on this error path so the checks cost one type test each.
 */
export class XmlValueTypeError extends XmlEncodeError {
  constructor(
    readonly expected: string,
    readonly value: unknown,
    /**
     * Where the check ran: in the writer, inside the value's own element (or on its attribute, by local name), or
     * before the element was started (a conversion such as encodeBase64, whose element is found from the value).
     */
    readonly where: { readonly inElement: boolean; readonly attribute?: string },
    readonly path?: string,
  ) {
    super(`${path !== undefined ? `${path}: ` : ""}expected ${expected}, got ${typeName(value)}`);
  }

  /** The same error, located. */
  at(path: string): XmlValueTypeError {
    return new XmlValueTypeError(this.expected, this.value, this.where, path);
  }
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return (value as object).constructor?.name ?? "object";
  return typeof value;
}
