/**
 * .proto tokenizer: turns source text into tokens that carry line/column (1-based) and the comments around them.
 *
 * Comments are not tokens; instead each token remembers the comments that preceded it, so the parser can attach
 * them to declarations the way protoc's SourceCodeInfo does (leading = the comment block directly above a
 * declaration with no blank line in between; trailing = a comment starting on the line where the declaration ended).
 */
import { SpecError } from "../../errors.js";

export type TokenKind = "ident" | "int" | "float" | "string" | "symbol" | "eof";

export interface Comment {
  /** Comment text without the comment markers, lines joined with "\n". */
  readonly text: string;
  readonly line: number;
  readonly endLine: number;
}

export interface Token {
  readonly kind: TokenKind;
  /** Source text exactly as written (for strings: with quotes and escapes). */
  readonly text: string;
  /** For strings: the unescaped value (the literal's bytes decoded as UTF-8). */
  readonly value: string;
  /** For strings: the literal's bytes, one char per byte (for `bytes` fields). */
  readonly latin1?: string;
  readonly line: number;
  readonly column: number;
  /** Offsets into the source, used to slice aggregate option values as written. */
  readonly start: number;
  readonly end: number;
  /** Line on which the previous token ended (0 for the first token). */
  readonly prevEndLine: number;
  /** Comments between the previous token and this one, in order. */
  readonly comments: readonly Comment[];
}

const encoder = new TextEncoder();
/** The one-character escapes of string literals and the byte each stands for. */
const SIMPLE_ESCAPES: ReadonlyMap<string, number> = new Map([
  ["a", 7], ["b", 8], ["f", 12], ["n", 10], ["r", 13], ["t", 9], ["v", 11], ["\\", 92], ["'", 39], ['"', 34], ["?", 63],
]);
const decoder = new TextDecoder();

const isIdentStart = (c: string): boolean => /[A-Za-z_]/.test(c);
const isIdentPart = (c: string): boolean => /[A-Za-z0-9_]/.test(c);
const isDigit = (c: string): boolean => c >= "0" && c <= "9";
const isHex = (c: string): boolean => /[0-9A-Fa-f]/.test(c);

export function tokenize(source: string, file: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  let prevEndLine = 0;
  let pending: Comment[] = [];

  const col = (offset: number): number => offset - lineStart + 1;
  const fail = (l: number, c: number, msg: string): never => {
    throw new SpecError(file, l, c, msg);
  };
  const newline = (offset: number): void => {
    line++;
    lineStart = offset + 1;
  };

  while (i < source.length) {
    const c = source[i]!;
    if (c === "\n") {
      newline(i);
      i++;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r" || c === "\f" || c === "\v") {
      i++;
      continue;
    }
    // Line comment: consecutive `//` lines form one comment block (protoc joins them the same way).
    if (c === "/" && source[i + 1] === "/") {
      const startLine = line;
      const lines: string[] = [];
      for (;;) {
        let j = i + 2;
        while (j < source.length && source[j] !== "\n") j++;
        lines.push(source.slice(i + 2, j).replace(/\r$/, ""));
        i = j;
        // Continue the block only if the very next line is also a line comment and nothing else.
        if (i >= source.length) break;
        let k = i + 1;
        while (k < source.length && (source[k] === " " || source[k] === "\t")) k++;
        if (source[k] === "/" && source[k + 1] === "/" && startLine !== prevEndLine) {
          newline(i);
          i = k;
          continue;
        }
        break;
      }
      pending.push({ text: cleanLineComment(lines), line: startLine, endLine: line });
      continue;
    }
    if (c === "/" && source[i + 1] === "*") {
      const startLine = line;
      const startCol = col(i);
      const close = source.indexOf("*/", i + 2);
      if (close < 0) fail(startLine, startCol, "unterminated block comment");
      for (let k = i; k < close; k++) if (source[k] === "\n") newline(k);
      pending.push({ text: cleanBlockComment(source.slice(i + 2, close)), line: startLine, endLine: line });
      i = close + 2;
      continue;
    }

    const start = i;
    const tokLine = line;
    const tokCol = col(i);
    const push = (kind: TokenKind, value?: string, latin1?: string): void => {
      const text = source.slice(start, i);
      tokens.push({
        kind,
        text,
        value: value ?? text,
        ...(latin1 !== undefined ? { latin1 } : {}),
        line: tokLine,
        column: tokCol,
        start,
        end: i,
        prevEndLine,
        comments: pending,
      });
      pending = [];
      prevEndLine = line;
    };

    if (isIdentStart(c)) {
      while (i < source.length && isIdentPart(source[i]!)) i++;
      push("ident");
      continue;
    }
    if (isDigit(c) || (c === "." && isDigit(source[i + 1] ?? ""))) {
      push(readNumber());
      continue;
    }
    if (c === '"' || c === "'") {
      const str = readString(c);
      push("string", str.value, str.latin1);
      continue;
    }
    i++;
    push("symbol");
  }
  tokens.push({
    kind: "eof",
    text: "",
    value: "",
    line,
    column: col(i),
    start: i,
    end: i,
    prevEndLine,
    comments: pending,
  });
  return tokens;

  function readNumber(): TokenKind {
    const l = line;
    const c0 = col(i);
    const s0 = i;
    if (source[i] === "0" && (source[i + 1] === "x" || source[i + 1] === "X")) {
      i += 2;
      if (!isHex(source[i] ?? "")) fail(l, c0, "expected hex digits after \"0x\"");
      while (isHex(source[i] ?? "")) i++;
      if (isIdentPart(source[i] ?? "")) fail(l, c0, "invalid hex number");
      return "int";
    }
    let kind: TokenKind = "int";
    while (isDigit(source[i] ?? "")) i++;
    if (source[i] === ".") {
      kind = "float";
      i++;
      while (isDigit(source[i] ?? "")) i++;
    }
    if (source[i] === "e" || source[i] === "E") {
      kind = "float";
      i++;
      if (source[i] === "+" || source[i] === "-") i++;
      if (!isDigit(source[i] ?? "")) fail(l, c0, "expected exponent digits in number");
      while (isDigit(source[i] ?? "")) i++;
    }
    if (isIdentPart(source[i] ?? "") || source[i] === ".") {
      fail(l, c0, `invalid number "${source.slice(s0, i + 1)}"`);
    }
    const text = source.slice(s0, i);
    // A leading zero makes an octal literal, as in C.
    if (kind === "int" && text.length > 1 && text.startsWith("0") && !/^0[0-7]+$/.test(text)) {
      fail(l, c0, `invalid octal number "${text}"`);
    }
    return kind;
  }

  /** Reads a string literal. A literal is a byte sequence (escapes like \\377 are single bytes); the value is
   * those bytes decoded as UTF-8, and `latin1` keeps one char per byte for `bytes` fields. */
  function readString(quote: string): { value: string; latin1: string } {
    const l = line;
    const c0 = col(i);
    i++;
    // The literal's bytes, in a buffer that doubles as needed: runs of plain characters go in with one encodeInto
    // each (UTF-8, a lone surrogate as U+FFFD), escapes byte by byte. Linear in the literal's length.
    let buf = new Uint8Array(64);
    let len = 0;
    let ascii = true;
    const room = (n: number): void => {
      if (len + n <= buf.length) return;
      let size = buf.length * 2;
      while (size < len + n) size *= 2;
      const bigger = new Uint8Array(size);
      bigger.set(buf.subarray(0, len));
      buf = bigger;
    };
    const push = (b: number): void => {
      room(1);
      buf[len++] = b;
      if (b >= 0x80) ascii = false;
    };
    const utf8 = (text: string): void => {
      room(3 * text.length);
      const { read, written } = encoder.encodeInto(text, buf.subarray(len));
      len += written!;
      if (written !== read) ascii = false;
    };
    // Where the next quote, backslash and newline are (each searched again only once passed: linear overall).
    // Not found: source.length (never searched again).
    const next = (c: string): number => {
      const at = source.indexOf(c, i);
      return at < 0 ? source.length : at;
    };
    let nextQuote = -1;
    let nextEscape = -1;
    let nextNewline = -1;
    for (;;) {
      if (nextQuote < i) nextQuote = next(quote);
      if (nextEscape < i) nextEscape = next("\\");
      if (nextNewline < i) nextNewline = next("\n");
      const stop = Math.min(nextQuote, nextEscape, nextNewline);
      if (stop - i >= 64) {
        utf8(source.slice(i, stop));
        i = stop;
      } else if (stop > i) {
        // A short run (between escapes): ASCII byte by byte, anything else through the encoder.
        room(stop - i);
        while (i < stop) {
          const c = source.charCodeAt(i);
          if (c < 0x80) {
            buf[len++] = c;
            i++;
          } else {
            const units = c >= 0xd800 && c <= 0xdbff && i + 1 < stop && (source.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
            utf8(source.slice(i, i + units));
            i += units;
          }
        }
      }
      if (i >= source.length || source[i] === "\n") fail(l, c0, "unterminated string literal");
      if (source[i] === quote) {
        i++;
        const value = decoder.decode(buf.subarray(0, len));
        return { value, latin1: ascii ? value : latin1Of(buf.subarray(0, len)) };
      }
      const escCol = col(i);
      const e = source[i + 1] ?? "";
      i += 2;
      const simple = SIMPLE_ESCAPES.get(e);
      if (simple !== undefined) {
        push(simple);
      } else if (e >= "0" && e <= "7") {
        // Octal: up to three digits, value is one byte.
        let digits = e;
        while (digits.length < 3 && /[0-7]/.test(source[i] ?? "")) digits += source[i++];
        push(parseInt(digits, 8) & 0xff);
      } else if (e === "x" || e === "X") {
        let digits = "";
        while (digits.length < 2 && isHex(source[i] ?? "")) digits += source[i++];
        if (digits === "") fail(l, escCol, "expected hex digits for escape sequence");
        push(parseInt(digits, 16));
      } else if (e === "u" || e === "U") {
        const n = e === "u" ? 4 : 8;
        const digits = source.slice(i, i + n);
        if (digits.length !== n || !/^[0-9A-Fa-f]+$/.test(digits)) {
          fail(l, escCol, `expected ${n} hex digits for \\${e} escape`);
        }
        const code = parseInt(digits, 16);
        if (code > 0x10ffff) fail(l, escCol, "unicode escape out of range");
        utf8(String.fromCodePoint(code));
        i += n;
      } else {
        fail(l, escCol, `invalid escape sequence "\\${e}"`);
      }
    }
  }
}

/** One character per byte (bytes fields keep their literal's bytes that way), built in chunks. */
function latin1Of(bytes: Uint8Array): string {
  // Node's Buffer does it in one native call; elsewhere 8 KiB at a time.
  const buffer = (globalThis as { Buffer?: { from(b: ArrayBufferLike, offset: number, length: number): { toString(encoding: string): string } } }).Buffer;
  if (buffer !== undefined) return buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1");
  const parts: string[] = [];
  for (let at = 0; at < bytes.length; at += 8192) parts.push(String.fromCharCode.apply(null, bytes.subarray(at, at + 8192) as unknown as number[]));
  return parts.join("");
}

function cleanLineComment(lines: readonly string[]): string {
  // protoc keeps the text after "//"; drop one conventional leading space and trailing blanks.
  return lines.map((s) => s.replace(/^ /, "").replace(/\s+$/, "")).join("\n").replace(/\n+$/, "");
}

function cleanBlockComment(body: string): string {
  const lines = body.split(/\r?\n/).map((s, idx) => {
    const t = s.replace(/\s+$/, "");
    // Continuation lines usually start with " * "; the first line may hold the extra "*" of "/**".
    return idx > 0 ? t.replace(/^\s*\* ?/, "") : t.replace(/^\*+ ?/, "").replace(/^ /, "");
  });
  while (lines.length && lines[0] === "") lines.shift();
  while (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines.join("\n");
}
