/**
 * The text format's tokens: identifiers, numbers, quoted strings, punctuation; `#` starts a comment to the end of
 * the line. Every token keeps its line and column for error messages.
 */
export class TextFormatError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`${line}:${column}: ${reason}`);
    this.name = "TextFormatError";
  }
}

export interface Token {
  readonly kind: "ident" | "number" | "string" | "punct" | "end";
  readonly text: string;
  readonly line: number;
  readonly column: number;
}

const NUMBER = /^(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fF]?)/;
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*/;

export class Tokenizer {
  private pos = 0;
  private line = 1;
  private lineStart = 0;
  private peeked: Token | undefined;

  constructor(private readonly text: string) {}

  error(token: Token, reason: string): TextFormatError {
    return new TextFormatError(token.line, token.column, reason);
  }

  peek(): Token {
    this.peeked ??= this.read();
    return this.peeked;
  }

  next(): Token {
    const t = this.peek();
    this.peeked = undefined;
    return t;
  }

  /** Consumes the punctuation `p` when it is next. */
  accept(p: string): boolean {
    const t = this.peek();
    if (t.kind === "punct" && t.text === p) {
      this.next();
      return true;
    }
    return false;
  }

  expect(p: string): Token {
    const t = this.next();
    if (t.kind !== "punct" || t.text !== p) throw this.error(t, `expected "${p}", got ${describe(t)}`);
    return t;
  }

  private skipSpace(): void {
    const s = this.text;
    while (this.pos < s.length) {
      const c = s[this.pos]!;
      if (c === "\n") {
        this.pos++;
        this.line++;
        this.lineStart = this.pos;
      } else if (c === " " || c === "\t" || c === "\r" || c === "\v" || c === "\f") this.pos++;
      else if (c === "#") {
        while (this.pos < s.length && s[this.pos] !== "\n") this.pos++;
      } else return;
    }
  }

  private read(): Token {
    this.skipSpace();
    const line = this.line;
    const column = this.pos - this.lineStart + 1;
    const rest = this.text.slice(this.pos, this.pos + 1024);
    if (rest === "") return { kind: "end", text: "", line, column };
    const c = rest[0]!;
    let m = IDENT.exec(rest);
    if (m) {
      this.pos += m[0].length;
      return { kind: "ident", text: m[0], line, column };
    }
    m = NUMBER.exec(rest);
    if (m) {
      this.pos += m[0].length;
      // "1x" is not a number followed by an identifier: protoc refuses it.
      if (/^[A-Za-z_]/.test(this.text[this.pos] ?? "")) throw new TextFormatError(line, column, `malformed number "${m[0]}${this.text[this.pos]}"`);
      return { kind: "number", text: m[0], line, column };
    }
    if (c === '"' || c === "'") {
      let i = this.pos + 1;
      while (i < this.text.length && this.text[i] !== c) {
        if (this.text[i] === "\n") throw new TextFormatError(line, column, "string literal not closed on its line");
        i += this.text[i] === "\\" ? 2 : 1;
      }
      if (i >= this.text.length) throw new TextFormatError(line, column, "string literal not closed");
      const text = this.text.slice(this.pos, i + 1);
      this.pos = i + 1;
      return { kind: "string", text, line, column };
    }
    this.pos++;
    return { kind: "punct", text: c, line, column };
  }
}

export function describe(t: Token): string {
  return t.kind === "end" ? "the end of the input" : `"${t.text}"`;
}
