/**
 * A strict JSON parser for untrusted request and response bodies, used by generated `decode*Json` functions instead
 * of `JSON.parse` because it:
 *  - rejects duplicate object keys (JSON.parse silently keeps the last one, so two parsers could disagree on a body);
 *  - limits nesting depth (so recursive validators downstream cannot overflow the stack);
 *  - rejects numbers that do not fit a double (JSON.parse turns 1e400 into Infinity);
 *  - optionally keeps integers beyond 2^53 exact, as `bigint` (Node 20's JSON.parse has no access to number source text).
 * `__proto__` keys become own data properties, as with JSON.parse; no prototype is ever touched.
 */

export interface JsonDecodeOptions {
  /** Deepest allowed nesting of arrays and objects (default 128). */
  readonly maxDepth?: number | undefined;
}

export interface JsonParseOptions extends JsonDecodeOptions {
  /** Integer literals outside the safe-integer range become `bigint` instead of a rounded number. */
  readonly bigints?: boolean | undefined;
}

export const JSON_DEFAULT_MAX_DEPTH = 128;

/** Malformed JSON text: what went wrong and where (0-based offset, 1-based line and column). */
export class JsonSyntaxError extends Error {
  readonly line: number;
  readonly column: number;

  constructor(
    readonly reason: string,
    readonly offset: number,
    text: string,
  ) {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < offset && i < text.length; i++) {
      if (text.charCodeAt(i) === 10) {
        line++;
        lineStart = i + 1;
      }
    }
    const column = offset - lineStart + 1;
    super(`invalid JSON at line ${line} column ${column}: ${reason}`);
    this.name = "JsonSyntaxError";
    this.line = line;
    this.column = column;
  }
}

/** Parse JSON text; throws JsonSyntaxError on malformed input, duplicate keys, too deep nesting or huge numbers. */
export function jsonParse(text: string, options: JsonParseOptions = {}): unknown {
  const parser = new Parser(text, options.maxDepth ?? JSON_DEFAULT_MAX_DEPTH, options.bigints === true);
  parser.skipSpace();
  let value: unknown;
  try {
    value = parser.value(0);
  } catch (e) {
    // A maxDepth larger than the stack allows: report it like any other nesting error, never as a crash.
    if (e instanceof RangeError) throw new JsonSyntaxError("nesting too deep for the stack", parser.pos, text);
    throw e;
  }
  parser.skipSpace();
  if (parser.pos < text.length) parser.fail("unexpected text after the JSON value");
  return value;
}

const QUOTE = 34;
const BACKSLASH = 92;

class Parser {
  pos = 0;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
    private readonly bigints: boolean,
  ) {}

  fail(reason: string, at = this.pos): never {
    throw new JsonSyntaxError(reason, at, this.text);
  }

  skipSpace(): void {
    const t = this.text;
    let p = this.pos;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 32 || c === 10 || c === 13 || c === 9) p++;
      else break;
    }
    this.pos = p;
  }

  value(depth: number): unknown {
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case QUOTE:
        return this.string();
      case 123: // {
        return this.object(depth + 1);
      case 91: // [
        return this.array(depth + 1);
      case 116: // t
        return this.word("true", true);
      case 102: // f
        return this.word("false", false);
      case 110: // n
        return this.word("null", null);
      default:
        if (c === 45 || (c >= 48 && c <= 57)) return this.number();
        return this.fail(this.pos >= this.text.length ? "unexpected end of text" : `unexpected character ${JSON.stringify(this.text[this.pos])}`);
    }
  }

  private word<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail(`unexpected character ${JSON.stringify(this.text[this.pos])}`);
    this.pos += word.length;
    return value;
  }

  private enter(depth: number): void {
    if (depth > this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth} levels`);
  }

  private object(depth: number): Record<string, unknown> {
    this.enter(depth);
    const obj: Record<string, unknown> = {};
    this.pos++;
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) === 125) {
      this.pos++;
      return obj;
    }
    for (;;) {
      if (this.text.charCodeAt(this.pos) !== QUOTE) this.fail("expected a property name in double quotes");
      const keyAt = this.pos;
      const key = this.string();
      this.skipSpace();
      if (this.text.charCodeAt(this.pos) !== 58) this.fail("expected ':' after a property name");
      this.pos++;
      this.skipSpace();
      const item = this.value(depth);
      if (Object.hasOwn(obj, key)) this.fail(`duplicate key ${JSON.stringify(key)}`, keyAt);
      // Plain assignment of "__proto__" would replace the prototype; define it as an own property like JSON.parse.
      if (key === "__proto__") Object.defineProperty(obj, key, { value: item, writable: true, enumerable: true, configurable: true });
      else obj[key] = item;
      this.skipSpace();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 125) return obj;
      if (c !== 44) this.fail("expected ',' or '}' in an object", this.pos - 1);
      this.skipSpace();
    }
  }

  private array(depth: number): unknown[] {
    this.enter(depth);
    const arr: unknown[] = [];
    this.pos++;
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) === 93) {
      this.pos++;
      return arr;
    }
    for (;;) {
      arr.push(this.value(depth));
      this.skipSpace();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 93) return arr;
      if (c !== 44) this.fail("expected ',' or ']' in an array", this.pos - 1);
      this.skipSpace();
    }
  }

  private string(): string {
    const t = this.text;
    const start = ++this.pos;
    let p = start;
    // Fast path: no escapes, just find the closing quote.
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === QUOTE) {
        this.pos = p + 1;
        return t.slice(start, p);
      }
      if (c === BACKSLASH) break;
      if (c < 32 || Number.isNaN(c)) this.fail(Number.isNaN(c) ? "unterminated string" : "control character in a string", p);
      p++;
    }
    let out = t.slice(start, p);
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === QUOTE) {
        this.pos = p + 1;
        return out;
      }
      if (Number.isNaN(c)) this.fail("unterminated string", p);
      if (c < 32) this.fail("control character in a string", p);
      if (c !== BACKSLASH) {
        const runStart = p;
        while (p < t.length && t.charCodeAt(p) !== QUOTE && t.charCodeAt(p) !== BACKSLASH && t.charCodeAt(p) >= 32) p++;
        out += t.slice(runStart, p);
        continue;
      }
      const e = t[p + 1];
      switch (e) {
        case '"': out += '"'; break;
        case "\\": out += "\\"; break;
        case "/": out += "/"; break;
        case "b": out += "\b"; break;
        case "f": out += "\f"; break;
        case "n": out += "\n"; break;
        case "r": out += "\r"; break;
        case "t": out += "\t"; break;
        case "u": {
          const hex = t.slice(p + 2, p + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("invalid \\u escape", p);
          out += String.fromCharCode(parseInt(hex, 16));
          p += 4;
          break;
        }
        default:
          this.fail("invalid escape in a string", p);
      }
      p += 2;
    }
  }

  private number(): number | bigint {
    const t = this.text;
    const start = this.pos;
    let p = start;
    if (t.charCodeAt(p) === 45) p++;
    const intStart = p;
    if (t.charCodeAt(p) === 48) p++;
    else p = digits(t, p);
    if (p === intStart) this.fail("expected digits in a number", p);
    let integer = true;
    if (t.charCodeAt(p) === 46) {
      integer = false;
      const fracStart = ++p;
      p = digits(t, p);
      if (p === fracStart) this.fail("expected digits after the decimal point", p);
    }
    const e = t.charCodeAt(p);
    if (e === 101 || e === 69) {
      integer = false;
      p++;
      const s = t.charCodeAt(p);
      if (s === 43 || s === 45) p++;
      const expStart = p;
      p = digits(t, p);
      if (p === expStart) this.fail("expected digits in the exponent", p);
    }
    this.pos = p;
    const source = t.slice(start, p);
    const n = Number(source);
    if (!Number.isFinite(n)) this.fail(`number ${source.length > 40 ? `${source.slice(0, 40)}...` : source} is out of range`, start);
    if (this.bigints && integer && !Number.isSafeInteger(n)) return BigInt(source);
    return n;
  }
}

function digits(t: string, p: number): number {
  for (;;) {
    const c = t.charCodeAt(p);
    if (c >= 48 && c <= 57) p++;
    else return p;
  }
}
