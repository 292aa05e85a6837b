/**
 * The one escaping path for everything that travels from a spec into generated code.
 *
 * A spec is untrusted input: a description containing `*\/` must not end a comment early, an enum value with a
 * quote must not end a string literal, and a name must not become code. Emitters never interpolate spec text
 * directly; they go through these functions (usually via the code writer's tokens).
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Line terminators JavaScript recognises inside source text (besides \n and \r). */
const LINE_SEPARATORS = /[\u2028\u2029]/g;

/**
 * A double-quoted TypeScript string literal for any value. JSON.stringify already escapes quotes, backslashes and
 * control characters; U+2028/U+2029 are escaped too so the output stays valid for older parsers and readable.
 */
export function stringLiteral(value: string): string {
  return JSON.stringify(value).replace(LINE_SEPARATORS, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"));
}

/** A property key for an interface or object literal: bare when it is a plain identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : stringLiteral(name);
}

/**
 * A key for an object literal. Like `propertyKey`, except that `__proto__` is written as a computed key: in an object
 * literal `__proto__: x` (quoted or not) sets the prototype instead of defining a property.
 */
export function objectLiteralKey(name: string): string {
  return name === "__proto__" ? `[${stringLiteral(name)}]` : propertyKey(name);
}

/**
 * Code that stores `value` under the key `name` of `object` as an own, enumerable property. `object["__proto__"] = v`
 * would call the prototype setter instead, so that one key is defined with Object.defineProperty.
 */
export function setPropertyCode(object: string, name: string, value: string): string {
  if (name === "__proto__") {
    return `Object.defineProperty(${object}, "__proto__", { value: ${value}, enumerable: true, writable: true, configurable: true })`;
  }
  return `${object}[${stringLiteral(name)}] = ${value}`;
}

export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

/**
 * Text safe inside a `/** ... *\/` block: comment terminators are broken up, line separators become newlines,
 * control characters (other than newline and tab) are dropped, and trailing space is trimmed.
 * Returns the lines of the text.
 */
export function docLines(text: string): string[] {
  const cleaned = text
    .replace(/\r\n?/g, "\n")
    .replace(LINE_SEPARATORS, "\n")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "")
    .replace(/\*\//g, "*\\/")
    .replace(/\t/g, "  ");
  const lines = cleaned.split("\n").map((l) => l.replace(/\s+$/, ""));
  while (lines.length > 0 && lines[0] === "") lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Text safe inside a `//` line comment (one line). */
export function lineCommentText(text: string): string {
  return docLines(text).join(" ");
}
