/**
 * A string matching a regular expression, built from the pattern's syntax (seeded, so the same seed gives the same
 * string). Covers what schema patterns use: literals, escapes (\d \w \s \D \W \S, XSD's \i \c, \p{..} loosely),
 * classes with ranges and negation, groups with alternatives (capturing or not), quantifiers (? * + {n} {n,} {n,m},
 * lazy forms), anchors and `.`. Lookarounds and backreferences are skipped (the caller checks the result against the
 * real RegExp and tries again or falls back). Unbounded repetition is capped at a few items.
 */
export type Random = () => number;

type Node =
  | { k: "lit"; chars: string[] }
  | { k: "seq"; items: Node[] }
  | { k: "alt"; options: Node[] }
  | { k: "rep"; node: Node; min: number; max: number };

const DIGITS = chars("0", "9");
const WORD = [...chars("a", "z"), ...chars("A", "Z"), ...DIGITS, "_"];
const SPACE = [" "];
const PRINTABLE = [...WORD, "-", ".", " "];
const NAME_START = [...chars("a", "z"), ...chars("A", "Z"), "_"];
const NAME = [...NAME_START, ...DIGITS, "-", "."];

function chars(from: string, to: string): string[] {
  const out: string[] = [];
  for (let c = from.codePointAt(0)!; c <= to.codePointAt(0)!; c++) out.push(String.fromCodePoint(c));
  return out;
}

class Parser {
  private i = 0;
  constructor(private readonly src: string) {}

  parse(): Node {
    const n = this.alt();
    if (this.i < this.src.length) throw new Error(`unsupported at ${this.i}`);
    return n;
  }

  private alt(): Node {
    const options = [this.seq()];
    while (this.src[this.i] === "|") {
      this.i++;
      options.push(this.seq());
    }
    return options.length === 1 ? options[0]! : { k: "alt", options };
  }

  private seq(): Node {
    const items: Node[] = [];
    while (this.i < this.src.length && this.src[this.i] !== "|" && this.src[this.i] !== ")") {
      const atom = this.atom();
      if (atom) items.push(this.quantified(atom));
    }
    return { k: "seq", items };
  }

  private quantified(atom: Node): Node {
    const c = this.src[this.i];
    let min: number, max: number;
    if (c === "?") [min, max] = [0, 1];
    else if (c === "*") [min, max] = [0, 3];
    else if (c === "+") [min, max] = [1, 3];
    else if (c === "{" && /^\{\d+(,\d*)?\}/.test(this.src.slice(this.i))) {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i))!;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? min + 3 : Number(m[3]);
      this.i += m[0].length - 1;
    } else return atom;
    this.i++;
    if (this.src[this.i] === "?" || this.src[this.i] === "+") this.i++;
    return { k: "rep", node: atom, min, max: Math.max(min, max) };
  }

  private atom(): Node | undefined {
    const c = this.src[this.i]!;
    if (c === "^" || c === "$") {
      this.i++;
      return undefined;
    }
    if (c === "(") {
      this.i++;
      if (this.src[this.i] === "?") {
        const m = /^\?(:|<[A-Za-z_][A-Za-z0-9_]*>|P<[A-Za-z_][A-Za-z0-9_]*>)/.exec(this.src.slice(this.i));
        if (!m) throw new Error("lookaround");
        this.i += m[0].length;
      }
      const inner = this.alt();
      if (this.src[this.i] !== ")") throw new Error("unclosed group");
      this.i++;
      return inner;
    }
    if (c === "[") return { k: "lit", chars: this.klass() };
    if (c === ".") {
      this.i++;
      return { k: "lit", chars: PRINTABLE };
    }
    if (c === "\\") return { k: "lit", chars: this.escape(false) };
    this.i += c.length;
    const cp = String.fromCodePoint(this.src.codePointAt(this.i - 1)!);
    return { k: "lit", chars: [cp] };
  }

  /** After a backslash: the characters the escape stands for. */
  private escape(inClass: boolean): string[] {
    this.i++;
    const c = this.src[this.i]!;
    this.i++;
    switch (c) {
      case "d": return DIGITS;
      case "w": return WORD;
      case "s": return SPACE;
      case "D": case "S": return ["a", "B", "x"];
      case "W": return ["-", " ", "."];
      case "i": return NAME_START;
      case "c": return NAME;
      case "I": case "C": return ["!", " "];
      case "n": return ["\n"];
      case "r": return ["\r"];
      case "t": return ["\t"];
      case "f": return ["\f"];
      case "v": return ["\v"];
      case "b": if (inClass) return ["\b"]; throw new Error("word boundary");
      case "B": throw new Error("word boundary");
      case "p": case "P": {
        const m = /^\{[^}]*\}/.exec(this.src.slice(this.i));
        if (m) this.i += m[0].length;
        return c === "p" ? [...chars("a", "z"), ...chars("A", "Z")] : ["0", "-", " "];
      }
      case "u": {
        const m = /^(\{[0-9a-fA-F]+\}|[0-9a-fA-F]{4})/.exec(this.src.slice(this.i));
        if (!m) return ["u"];
        this.i += m[0].length;
        return [String.fromCodePoint(parseInt(m[0].replace(/[{}]/g, ""), 16))];
      }
      case "x": {
        const m = /^[0-9a-fA-F]{2}/.exec(this.src.slice(this.i));
        if (!m) return ["x"];
        this.i += 2;
        return [String.fromCharCode(parseInt(m[0], 16))];
      }
      default:
        if (/[1-9]/.test(c) && !inClass) throw new Error("backreference");
        if (c === "0") return ["\0"];
        return [c];
    }
  }

  private klass(): string[] {
    this.i++;
    const negated = this.src[this.i] === "^";
    if (negated) this.i++;
    const set = new Set<string>();
    let first = true;
    while (this.i < this.src.length && (this.src[this.i] !== "]" || first)) {
      first = false;
      // XSD class subtraction: [a-z-[aeiou]]
      if (this.src[this.i] === "-" && this.src[this.i + 1] === "[") {
        const minus = new Set(this.klass());
        for (const m of minus) set.delete(m);
        continue;
      }
      let from: string[];
      if (this.src[this.i] === "\\") from = this.escape(true);
      else {
        const cp = String.fromCodePoint(this.src.codePointAt(this.i)!);
        this.i += cp.length;
        from = [cp];
      }
      if (from.length === 1 && this.src[this.i] === "-" && this.src[this.i + 1] !== "]" && this.src[this.i + 1] !== "[" && this.i + 1 < this.src.length) {
        this.i++;
        let to: string;
        if (this.src[this.i] === "\\") to = this.escape(true)[0]!;
        else {
          to = String.fromCodePoint(this.src.codePointAt(this.i)!);
          this.i += to.length;
        }
        const a = from[0]!.codePointAt(0)!;
        const b = to.codePointAt(0)!;
        for (let cp = a; cp <= b && cp - a < 2000; cp++) set.add(String.fromCodePoint(cp));
      } else for (const f of from) set.add(f);
    }
    if (this.src[this.i] !== "]") throw new Error("unclosed class");
    this.i++;
    if (!negated) return [...set];
    return PRINTABLE.filter((c) => !set.has(c));
  }
}

function emit(n: Node, random: Random, out: string[]): void {
  switch (n.k) {
    case "lit":
      if (n.chars.length === 0) throw new Error("empty class");
      out.push(n.chars[Math.floor(random() * n.chars.length)]!);
      return;
    case "seq":
      for (const item of n.items) emit(item, random, out);
      return;
    case "alt":
      emit(n.options[Math.floor(random() * n.options.length)]!, random, out);
      return;
    case "rep": {
      const count = n.min + Math.floor(random() * (n.max - n.min + 1));
      for (let i = 0; i < count; i++) emit(n.node, random, out);
    }
  }
}

/** A string built from `pattern`'s syntax, or undefined when the pattern uses something this cannot build. */
export function stringForPattern(pattern: string, random: Random): string | undefined {
  try {
    const node = new Parser(pattern).parse();
    const out: string[] = [];
    emit(node, random, out);
    return out.join("");
  } catch {
    return undefined;
  }
}
