import { QueryError } from "./errors.js";

/**
 * Tokens of the query and search languages. Every token knows its 1-based row and column so that a malformed query
 * can be answered with an ApiQueryFault pointing at the offending spot.
 */
export type TokenKind = "word" | "string" | "number" | "punct" | "braced" | "end";

export interface Token {
  readonly kind: TokenKind;
  /** The text as written (for strings and braced terms: the unescaped content). */
  readonly text: string;
  readonly row: number;
  readonly column: number;
}

const PUNCT = ["!=", "<>", "<=", ">=", "=", "<", ">", ",", "(", ")"];

/** Split a query into tokens. Throws MALFORMED_QUERY (or the code given) on an unterminated string or stray char. */
export function tokenize(text: string, malformed = "MALFORMED_QUERY"): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let row = 1;
  let lineStart = 0;
  const at = (pos: number) => ({ row, column: pos - lineStart + 1 });
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\n") {
      i++;
      row++;
      lineStart = i;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const start = at(i);
    if (c === "'" || c === "{") {
      const close = c === "'" ? "'" : "}";
      let value = "";
      let j = i + 1;
      for (; j < text.length && text[j] !== close; j++) {
        // Backslash escapes: \' \\ \n \t (the query language's own), anything else taken literally.
        if (text[j] === "\\" && c === "'" && j + 1 < text.length) {
          const n = text[++j]!;
          value += n === "n" ? "\n" : n === "t" ? "\t" : n;
        } else value += text[j];
      }
      if (j >= text.length) throw new QueryError(malformed, `unterminated ${c === "'" ? "string" : "search term"}`, start);
      tokens.push({ kind: c === "'" ? "string" : "braced", text: value, ...start });
      i = j + 1;
      continue;
    }
    const number = /^-?\d+(\.\d+)?/.exec(text.slice(i));
    const word = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(text.slice(i));
    // Date and dateTime literals (2024-01-31, 2024-01-31T10:00:00Z) start with digits but read as one word.
    const date = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2}))?/.exec(text.slice(i));
    if (date) {
      tokens.push({ kind: "word", text: date[0], ...start });
      i += date[0].length;
    } else if (number) {
      tokens.push({ kind: "number", text: number[0], ...start });
      i += number[0].length;
    } else if (word) {
      tokens.push({ kind: "word", text: word[0], ...start });
      i += word[0].length;
    } else {
      const p = PUNCT.find((p) => text.startsWith(p, i));
      if (!p) throw new QueryError(malformed, `unexpected character '${c}'`, start);
      tokens.push({ kind: "punct", text: p, ...start });
      i += p.length;
    }
  }
  tokens.push({ kind: "end", text: "", ...at(i) });
  return tokens;
}

/** A cursor over tokens with the small helpers a recursive-descent parser needs. */
export class TokenStream {
  private pos = 0;
  constructor(
    private readonly tokens: readonly Token[],
    readonly malformed = "MALFORMED_QUERY",
  ) {}

  peek(offset = 0): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)]!;
  }

  next(): Token {
    const t = this.peek();
    if (this.pos < this.tokens.length - 1) this.pos++;
    return t;
  }

  /** True (and consumed) when the next token is this keyword, case-insensitively. */
  acceptKeyword(...words: string[]): boolean {
    for (let k = 0; k < words.length; k++) {
      const t = this.peek(k);
      if (t.kind !== "word" || t.text.toUpperCase() !== words[k]) return false;
    }
    for (let k = 0; k < words.length; k++) this.next();
    return true;
  }

  acceptPunct(p: string): boolean {
    if (this.peek().kind === "punct" && this.peek().text === p) {
      this.next();
      return true;
    }
    return false;
  }

  expectKeyword(word: string): Token {
    const t = this.peek();
    if (!this.acceptKeyword(word)) throw this.unexpected(`expected ${word}`);
    return t;
  }

  expectPunct(p: string): Token {
    const t = this.peek();
    if (!this.acceptPunct(p)) throw this.unexpected(`expected '${p}'`);
    return t;
  }

  expectWord(what: string): Token {
    const t = this.peek();
    if (t.kind !== "word") throw this.unexpected(`expected ${what}`);
    return this.next();
  }

  unexpected(expected: string): QueryError {
    const t = this.peek();
    const found = t.kind === "end" ? "end of query" : `'${t.text}'`;
    return new QueryError(this.malformed, `${expected} but found ${found}`, t);
  }
}
