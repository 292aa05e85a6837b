import { decodeEntities } from "./entities.js";
import { XmlParseError } from "./errors.js";
import { XML_NS, XMLNS_NS, type NamespaceScope } from "./node.js";
import { scanForbidden } from "./text-memory.js";

/**
 * The lexical pieces both XML readers share: the tree parser (parse.ts) and the pull reader (pull.ts) scan the same
 * syntax with the same rules and messages, so what they have in common lives here once. Each function takes the
 * source text, and reports an error as an XmlParseError with the 1-based line and column of its offset.
 */

/** Characters XML 1.0 cannot carry (besides lone surrogates, which a decoded byte stream never contains). */
const FORBIDDEN_CHARS: readonly string[] = /* @__PURE__ */ (() =>
  Array.from({ length: 0x20 }, (_, c) => c)
    .filter((c) => c !== 0x09 && c !== 0x0a && c !== 0x0d)
    .concat(0xfffe, 0xffff)
    .map((c) => String.fromCharCode(c)))();

/**
 * Fail at the first character of `src` that XML cannot carry. The SIMD scan of text-memory.ts says whether there is
 * one (and leaves the text resident for the pull reader's comparisons). When there is, or where the scan is not
 * available, one native indexOf per forbidden character (31 of them) finds the first: a single-character indexOf is
 * a vectorized search, while a regex with their class tests character by character. Measured on a 118,000-character
 * SOAP response: 67 us against 223 us when the text is one byte per character (Latin-1, nearly every document);
 * 199 us against 161 us when it is not. The scan takes about 25 us either way.
 */
export function checkForbiddenChars(src: string): void {
  if (scanForbidden(src) === false) return;
  let first = -1;
  for (const char of FORBIDDEN_CHARS) {
    const at = src.indexOf(char);
    if (at >= 0 && (first < 0 || at < first)) first = at;
  }
  if (first >= 0) failAt(src, `character U+${src.charCodeAt(first).toString(16).padStart(4, "0")} is not allowed in XML`, first);
}

export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

/** Name characters, simplified to what matters for rejecting garbage: no markup, quotes, spaces or '=' in names. */
export function isNameChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x3a ||
    c === 0x2d || c === 0x2e || c === 0xb7 || (c >= 0xc0 && c !== 0xd7 && c !== 0xf7)
  );
}

export function isNameStart(c: number): boolean {
  return isNameChar(c) && !(c >= 0x30 && c <= 0x39) && c !== 0x2d && c !== 0x2e && c !== 0xb7;
}

/** Throw a parse error at `offset` of `src`, with its 1-based line and column. */
export function failAt(src: string, message: string, offset: number): never {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, src.length);
  for (let i = src.indexOf("\n"); i >= 0 && i < end; i = src.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  throw new XmlParseError(message, line, end - lineStart + 1);
}

/** Whitespace, comments, processing instructions (and the XML declaration) outside the root element: the offset after them. */
export function skipMisc(src: string, from: number): number {
  let pos = from;
  for (;;) {
    while (pos < src.length && isSpace(src.charCodeAt(pos))) pos++;
    if (src.startsWith("<?", pos)) pos = skipPast(src, pos, "?>", "unterminated processing instruction");
    else if (src.startsWith("<!--", pos)) pos = skipPast(src, pos, "-->", "unterminated comment");
    else if (src.startsWith("<!", pos)) refuseDeclaration(src, pos);
    else return pos;
  }
}

/** `<!...>` other than a comment or CDATA at `pos`: DOCTYPE and ENTITY by name, anything else as markup. */
export function refuseDeclaration(src: string, pos: number): never {
  const word = /^<!([A-Za-z]*)/.exec(src.slice(pos, pos + 12))?.[1] ?? "";
  if (word === "DOCTYPE" || word === "ENTITY") failAt(src, `${word} declarations are not allowed`, pos);
  return failAt(src, "unexpected markup declaration", pos);
}

/** The offset after the first `end` past the two-character opener at `pos` (a comment or processing instruction). */
export function skipPast(src: string, pos: number, end: string, message: string): number {
  const i = src.indexOf(end, pos + 2);
  if (i < 0) failAt(src, message, pos);
  return i + end.length;
}

/** Attribute-value normalization (line ends and tabs become spaces) before references are expanded, as XML says. */
export function attributeValueAt(src: string, raw: string, offset: number): string {
  const lt = raw.indexOf("<");
  if (lt >= 0) failAt(src, "'<' is not allowed in an attribute value", offset + lt);
  const normalized = /[\t\n\r]/.test(raw) ? raw.replace(/\r\n|[\t\n\r]/g, " ") : raw;
  if (!normalized.includes("&")) return normalized;
  const decoded = decodeEntities(normalized);
  if (typeof decoded !== "string") failAt(src, decoded.message, offset + decoded.offset);
  return decoded;
}

/** The namespace a prefix is bound to in `scope` (an unprefixed element without a default namespace has none). */
export function namespaceAt(src: string, prefix: string, scope: NamespaceScope | null, element: boolean, at: number): string {
  if (prefix === "xml") return XML_NS;
  if (prefix === "xmlns") failAt(src, "the xmlns prefix cannot name an element or attribute", at);
  for (let s = scope; s !== null; s = s.parent) if (s.prefix === prefix) return s.uri;
  if (prefix === "" && element) return "";
  return failAt(src, `unbound namespace prefix '${prefix}'`, at);
}

/**
 * The same string, as the engine's internalized copy. Decoders compare every element's namespace with their own
 * string constants; an internalized URI compares by identity, one sliced out of the document by content (and
 * slowly, through the slice): decoding a 200-record query result got about 2.7x faster. A string used as a property
 * key is internalized by V8, and Object.keys hands that copy back: one small object per namespace declaration, not
 * per element.
 */
export function internalized(value: string): string {
  return Object.keys({ [value]: 0 })[0] ?? value;
}

/**
 * Longest piece shortPieces makes. V8 copies a substring shorter than 13 characters into a flat string, which it
 * compares with another flat string inside the generated code; a longer substring is a slice of the text, and
 * comparing a slice is a call into the engine's runtime (16% of decoding a 200-record SOAP response, where most
 * end-tag-and-next-start-tag pairs are 25 to 38 characters long).
 */
const SHORT_PIECE = 12;

/** `text` cut into internalized pieces of at most SHORT_PIECE characters, for piecesAt. */
export function shortPieces(text: string): readonly string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += SHORT_PIECE) pieces.push(internalized(text.slice(i, i + SHORT_PIECE)));
  return pieces;
}

/** Whether `src` holds the pieces (from shortPieces), one after the other, from `at`. */
export function piecesAt(src: string, at: number, pieces: readonly string[]): boolean {
  let i = at;
  for (let k = 0; k < pieces.length; k++) {
    const piece = pieces[k]!;
    if (src.substring(i, i + piece.length) !== piece) return false;
    i += piece.length;
  }
  return true;
}

export function indexOrEnd(src: string, search: string, from: number): number {
  const i = src.indexOf(search, from);
  return i < 0 ? src.length : i;
}

/**
 * An attribute's `= "value"` after its name, which ends at `i`: the offsets of the opening and closing quotes
 * (`[open, close]` written into `out`, so the readers' per-attribute loop allocates nothing).
 */
export function attributeQuotes(src: string, from: number, attrName: string, out: [number, number]): void {
  let i = from;
  while (isSpace(src.charCodeAt(i))) i++;
  if (src.charCodeAt(i) !== 0x3d /* = */) failAt(src, `expected '=' after attribute ${attrName}`, i);
  i++;
  while (isSpace(src.charCodeAt(i))) i++;
  const quote = src.charCodeAt(i);
  if (quote !== 0x22 && quote !== 0x27) failAt(src, `expected a quoted value for attribute ${attrName}`, i);
  const end = src.indexOf(quote === 0x22 ? '"' : "'", i + 1);
  if (end < 0) failAt(src, `unterminated value of attribute ${attrName}`, i);
  out[0] = i;
  out[1] = end;
}

/** A namespace declaration `attrName="value"` binding `prefix` ("" for xmlns), refused when XML reserves it. */
export function checkNamespaceBinding(src: string, attrName: string, prefix: string, value: string, at: number): void {
  if (prefix === "xmlns" || (prefix === "xml") !== (value === XML_NS) || value === XMLNS_NS) {
    failAt(src, `reserved namespace binding ${attrName}="${value}"`, at);
  }
  if (prefix !== "" && value === "") failAt(src, `prefix ${prefix} cannot be bound to the empty namespace`, at);
}
