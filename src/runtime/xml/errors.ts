/** Malformed or refused XML input (well-formedness, DOCTYPE/ENTITY, limits). Carries the 1-based line and column. */
export class XmlParseError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${message} at ${line}:${column}`);
    this.name = "XmlParseError";
  }
}

/** A value that cannot be written as XML (a character XML 1.0 cannot carry, a value of the wrong shape). */
export class XmlEncodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "XmlEncodeError";
  }
}

/**
 * Well-formed XML that does not fit the schema the decoder was generated from (a missing required element, a bad
 * lexical form, an unknown xsi:type). `path` is a JSON pointer into the value being decoded ("" for the root).
 */
export class XmlDecodeError extends Error {
  constructor(
    readonly path: string,
    readonly detail: string,
  ) {
    super(`${path || "/"}: ${detail}`);
    this.name = "XmlDecodeError";
  }
}
