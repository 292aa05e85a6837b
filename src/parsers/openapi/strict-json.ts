/**
 * Strict JSON (RFC 8259) for `.json` spec files. They are read through the YAML parser like every spec (it gives
 * every node a position), but YAML accepts much that JSON does not: trailing commas in flow collections, comments,
 * and (with our options refused, but reported as YAML) duplicate keys. A `.json` document is first scanned here, so
 * that a file other JSON tools would reject is refused with the position of each problem.
 *
 * Trailing commas, comments and duplicate keys do not hide what follows: the scan goes on and reports all of them.
 * Anything else that is not JSON (a missing comma, an unquoted key) ends the scan at that place. The scan is a
 * loop over an explicit stack, so deeply nested input cannot overflow the call stack.
 */
import { SpecError } from "../../errors.js";

/** Every strict-JSON problem of `text`, in document order; empty for a valid JSON document. */
export function strictJsonErrors(text: string, display: string): SpecError[] {
  return new Scanner(text, display).scan();
}

interface Frame {
  readonly kind: "object" | "array";
  /** Object keys seen so far, with the offset of their first occurrence. */
  readonly keys: Map<string, number>;
  /** Just opened: the next thing is the first member or the closing bracket, not a comma. */
  fresh: boolean;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;
/** A run of string characters that need no attention (not a quote, backslash or control character). */
const PLAIN_RUN = /[^"\\\u0000-\u001f]*/y;

class Scanner {
  private pos = 0;
  private readonly errors: SpecError[] = [];
  /** Offsets where each line starts, for turning offsets into line:column. */
  private lineStarts: number[] | undefined;

  constructor(
    private readonly text: string,
    private readonly display: string,
  ) {}

  scan(): SpecError[] {
    try {
      if (this.text.charCodeAt(0) === 0xfeff) this.pos = 1; // a byte order mark is tolerated (RFC 8259 §8.1)
      this.document();
    } catch (e) {
      if (!(e instanceof Fatal)) throw e;
      this.errors.push(e.error);
    }
    return this.errors;
  }

  private document(): void {
    const stack: Frame[] = [];
    this.space();
    this.value(stack);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const close = frame.kind === "object" ? "}" : "]";
      this.space();
      const c = this.text[this.pos];
      if (c === close) {
        this.pos++;
        stack.pop();
        continue;
      }
      if (frame.fresh) {
        frame.fresh = false;
      } else {
        if (c !== ",") this.fatal(this.pos, `expected ',' or '${close}' in ${frame.kind === "object" ? "an object" : "an array"}, found ${this.shown()}`);
        const comma = this.pos++;
        this.space();
        if (this.text[this.pos] === close) {
          this.report(comma, `trailing comma before '${close}' (not allowed in JSON)`);
          continue;
        }
      }
      if (frame.kind === "object") this.member(frame);
      this.value(stack);
    }
    this.space();
    if (this.pos < this.text.length) this.fatal(this.pos, `unexpected ${this.shown()} after the JSON value`);
  }

  /** One value: a scalar is read whole; an object or array is only opened (pushed), the loop above reads it. */
  private value(stack: Frame[]): void {
    const c = this.text[this.pos];
    if (c === "{" || c === "[") {
      this.pos++;
      stack.push({ kind: c === "{" ? "object" : "array", keys: new Map(), fresh: true });
      return;
    }
    if (c === '"') {
      this.string();
      return;
    }
    for (const re of [NUMBER, LITERAL]) {
      re.lastIndex = this.pos;
      const m = re.exec(this.text);
      if (m && !/[\w.]/.test(this.text[re.lastIndex] ?? "")) {
        this.pos = re.lastIndex;
        return;
      }
    }
    this.fatal(this.pos, c === undefined ? "unexpected end of the document, expected a value" : `expected a JSON value, found ${this.shown()}`);
  }

  /** `"key":` of an object member, checking that the key is new; leaves the position at the value. */
  private member(frame: Frame): void {
    const start = this.pos;
    if (this.text[start] !== '"') this.fatal(start, `expected a property name in double quotes, found ${this.shown()}`);
    const key = this.string();
    const first = frame.keys.get(key);
    if (first !== undefined) {
      const at = this.locate(first);
      this.report(start, `duplicate key ${JSON.stringify(key)} (first at line ${at.line}, column ${at.column}; not allowed in a JSON spec)`);
    } else {
      frame.keys.set(key, start);
    }
    this.space();
    if (this.text[this.pos] !== ":") this.fatal(this.pos, `expected ':' after the property name, found ${this.shown()}`);
    this.pos++;
    this.space();
  }

  /** A string literal starting at the current position; returns its value. */
  private string(): string {
    const start = this.pos++;
    let plain = true;
    for (;;) {
      PLAIN_RUN.lastIndex = this.pos;
      PLAIN_RUN.exec(this.text);
      this.pos = PLAIN_RUN.lastIndex;
      const code = this.text.charCodeAt(this.pos);
      if (Number.isNaN(code)) this.fatal(start, "unterminated string");
      if (code === 0x22) break;
      if (code < 0x20) this.fatal(this.pos, "control character in a string (escape it)");
      if (code === 0x5c) {
        plain = false;
        const next = this.text[this.pos + 1];
        if (next === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.pos + 2, this.pos + 6))) this.fatal(this.pos, "invalid \\u escape (four hex digits expected)");
          this.pos += 6;
          continue;
        }
        if (next === undefined || !'"\\/bfnrt'.includes(next)) this.fatal(this.pos, `invalid escape \\${next ?? ""}`);
        this.pos += 2;
        continue;
      }
      this.pos++;
    }
    this.pos++;
    const raw = this.text.slice(start, this.pos);
    return plain ? raw.slice(1, -1) : (JSON.parse(raw) as string);
  }

  /** Whitespace; comments are reported and skipped (the rest of the document is still checked). */
  private space(): void {
    for (;;) {
      const c = this.text[this.pos];
      if (c === " " || c === "\t" || c === "\n" || c === "\r") {
        this.pos++;
        continue;
      }
      if (c === "/" && (this.text[this.pos + 1] === "/" || this.text[this.pos + 1] === "*")) {
        const start = this.pos;
        if (this.text[this.pos + 1] === "/") {
          const end = this.text.indexOf("\n", this.pos);
          this.pos = end < 0 ? this.text.length : end;
        } else {
          const end = this.text.indexOf("*/", this.pos + 2);
          if (end < 0) this.fatal(start, "unterminated comment");
          this.pos = end + 2;
        }
        this.report(start, "comments are not allowed in JSON");
        continue;
      }
      return;
    }
  }

  private shown(): string {
    const c = this.text[this.pos];
    return c === undefined ? "the end of the document" : JSON.stringify(c);
  }

  private report(offset: number, detail: string): void {
    const p = this.locate(offset);
    this.errors.push(new SpecError(this.display, p.line, p.column, detail));
  }

  private fatal(offset: number, detail: string): never {
    const p = this.locate(offset);
    throw new Fatal(new SpecError(this.display, p.line, p.column, `invalid JSON: ${detail}`));
  }

  private locate(offset: number): { line: number; column: number } {
    if (!this.lineStarts) {
      this.lineStarts = [0];
      for (let i = this.text.indexOf("\n"); i >= 0; i = this.text.indexOf("\n", i + 1)) this.lineStarts.push(i + 1);
    }
    // Binary search for the last line start at or before the offset.
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.lineStarts[lo]! + 1 };
  }
}

/** Ends the scan at a problem that leaves nothing after it readable. */
class Fatal extends Error {
  constructor(readonly error: SpecError) {
    super(error.message);
  }
}
