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

/**
 * A TypeScript expression building `value`: JSON data (a spec's example) or an in-memory value of the generated
 * types (bigint, Date, Uint8Array as the int64/dates/bytes options hold them). Keys and strings go through
 * `objectLiteralKey`/`stringLiteral`; a value longer than one line is spread over lines indented from `indent`.
 * Throws a TypeError for what has no literal (functions, symbols, class instances) and for a cycle.
 */
export function valueLiteral(value: unknown, indent = ""): string {
  return literalOf(value, indent, []);
}

const LITERAL_WIDTH = 100;

function literalOf(value: unknown, indent: string, stack: object[]): string {
  switch (typeof value) {
    case "string":
      return stringLiteral(value);
    case "boolean":
      return String(value);
    case "undefined":
      return "undefined";
    case "bigint":
      return `${value}n`;
    case "number":
      if (Number.isNaN(value)) return "Number.NaN";
      if (value === Infinity) return "Number.POSITIVE_INFINITY";
      if (value === -Infinity) return "Number.NEGATIVE_INFINITY";
      return Object.is(value, -0) ? "-0" : String(value);
    case "object": {
      if (value === null) return "null";
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? "new Date(Number.NaN)" : `new Date(${stringLiteral(value.toISOString())})`;
      if (value instanceof Uint8Array) return `new Uint8Array([${Array.from(value).join(", ")}])`;
      if (stack.includes(value)) throw new TypeError("a value that contains itself has no literal");
      const proto = Object.getPrototypeOf(value) as unknown;
      const inner = `${indent}  `;
      stack.push(value);
      let items: string[];
      let open: string;
      let close: string;
      if (Array.isArray(value)) {
        items = value.map((v) => literalOf(v, inner, stack));
        [open, close] = ["[", "]"];
      } else if (proto === Object.prototype || proto === null) {
        items = Object.entries(value)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => `${objectLiteralKey(k)}: ${literalOf(v, inner, stack)}`);
        [open, close] = ["{ ", " }"];
      } else {
        throw new TypeError(`a ${(proto as { constructor?: { name?: string } } | null)?.constructor?.name ?? "object"} has no literal`);
      }
      stack.pop();
      if (items.length === 0) return open.trim() + close.trim();
      const flat = `${open}${items.join(", ")}${close}`;
      if (flat.length + indent.length <= LITERAL_WIDTH && !flat.includes("\n")) return flat;
      return `${open.trim()}\n${items.map((i) => `${inner}${i},`).join("\n")}\n${indent}${close.trim()}`;
    }
    default:
      throw new TypeError(`a ${typeof value} has no literal`);
  }
}
