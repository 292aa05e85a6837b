/**
 * Spec-supplied regular expressions (OpenAPI `pattern`, XSD `xs:pattern`) matched in time linear in the input.
 *
 * A JavaScript RegExp backtracks: `^(a+)+$` takes exponential time on `aaaa…a!`, and a spec's author (or whoever
 * wrote the document a user downloaded) chooses the pattern while an attacker chooses the input. Patterns that can
 * backtrack super-linearly are matched here instead, by a Thompson NFA simulated in lock step (Pike's VM without
 * captures, the RE2 family): every input character advances a set of at most `program.length` states, so a match
 * costs O(input length × pattern size) whatever the pattern. No WebAssembly, no native code, no dependencies: it
 * runs wherever generated code runs (Node and browsers).
 *
 * The parser reads ECMAScript pattern syntax (with or without the `u` flag). Character-consuming atoms (a class
 * `[...]`, an escape such as `\d` or `\p{L}`, `.`) are tested by a native RegExp of that one atom on one character
 * (or code point), so their meaning is exactly JavaScript's; that test is O(1). Sequences, alternation, groups,
 * quantifiers (greedy or lazy, which cannot change whether a string matches) and the assertions `^`, `$`, `\b`, `\B`
 * are compiled into the NFA. Lookaround and backreferences cannot be matched in linear time in general: `parse`
 * reports them as unsupported, and the caller keeps a RegExp (generation warns).
 *
 * `backtrackSafe` states when the plain RegExp is kept (see its comment): it is faster per call, and it provably
 * cannot take super-linear time on those patterns.
 */

/** A parsed pattern. */
export type PatternNode =
  | { readonly t: "char"; readonly code: number }
  | { readonly t: "set"; readonly source: string }
  | { readonly t: "seq"; readonly items: readonly PatternNode[] }
  | { readonly t: "alt"; readonly items: readonly PatternNode[] }
  | { readonly t: "group"; readonly body: PatternNode }
  | { readonly t: "repeat"; readonly body: PatternNode; readonly min: number; readonly max: number }
  | { readonly t: "assert"; readonly kind: "bol" | "eol" | "word" | "nonword" };

export type ParsedPattern = { readonly node: PatternNode } | { readonly unsupported: string };

/** Largest NFA built (counted repetitions are unrolled); beyond it the pattern is reported as unsupported. */
export const MAX_PROGRAM = 100_000;

class Unsupported extends Error {}

/** Parse a pattern that already compiles as `new RegExp(source, flags)`. */
export function parsePattern(source: string, flags: "" | "u"): ParsedPattern {
  try {
    return { node: new Parser(source, flags === "u").parse() };
  } catch (e) {
    if (e instanceof Unsupported) return { unsupported: e.message };
    throw e;
  }
}

class Parser {
  private i = 0;
  private readonly groups: number;
  private readonly named: boolean;

  constructor(
    private readonly s: string,
    private readonly unicode: boolean,
  ) {
    // Capturing groups decide whether `\3` is a backreference or (without `u`) an octal escape.
    let groups = 0;
    let named = false;
    for (let k = 0, inClass = false; k < s.length; k++) {
      const c = s[k];
      if (c === "\\") k++;
      else if (inClass) inClass = c !== "]";
      else if (c === "[") inClass = true;
      else if (c === "(" && (s[k + 1] !== "?" || (s[k + 2] === "<" && s[k + 3] !== "=" && s[k + 3] !== "!"))) {
        groups++;
        if (s[k + 1] === "?") named = true;
      }
    }
    this.groups = groups;
    this.named = named;
  }

  parse(): PatternNode {
    const node = this.disjunction();
    if (this.i < this.s.length) throw new Unsupported(`unexpected ${JSON.stringify(this.s[this.i])} at ${this.i}`);
    return node;
  }

  private disjunction(): PatternNode {
    const items = [this.alternative()];
    while (this.s[this.i] === "|") {
      this.i++;
      items.push(this.alternative());
    }
    return items.length === 1 ? items[0]! : { t: "alt", items };
  }

  private alternative(): PatternNode {
    const items: PatternNode[] = [];
    while (this.i < this.s.length && this.s[this.i] !== "|" && this.s[this.i] !== ")") {
      const atom = this.term();
      items.push(this.quantified(atom));
    }
    return items.length === 1 ? items[0]! : { t: "seq", items };
  }

  private quantified(atom: PatternNode): PatternNode {
    const s = this.s;
    let min: number;
    let max: number;
    const c = s[this.i];
    if (c === "*") [min, max] = [0, Infinity];
    else if (c === "+") [min, max] = [1, Infinity];
    else if (c === "?") [min, max] = [0, 1];
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(s.slice(this.i));
      if (!m) return atom; // a literal "{" (legacy syntax); the caller reads it next
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
      this.i += m[0].length - 1;
    } else return atom;
    this.i++;
    if (s[this.i] === "?") this.i++; // lazy: the same strings match
    if (atom.t === "assert") throw new Unsupported("quantified assertion");
    return { t: "repeat", body: atom, min, max };
  }

  private term(): PatternNode {
    const s = this.s;
    const c = s[this.i]!;
    if (c === "^") return this.i++, { t: "assert", kind: "bol" };
    if (c === "$") return this.i++, { t: "assert", kind: "eol" };
    if (c === "(") {
      if (s.startsWith("(?:", this.i)) this.i += 3;
      else if (s.startsWith("(?<", this.i) && s[this.i + 3] !== "=" && s[this.i + 3] !== "!") this.i = s.indexOf(">", this.i) + 1;
      else if (s[this.i + 1] === "?") throw new Unsupported(s.startsWith("(?=", this.i) || s.startsWith("(?!", this.i) || s.startsWith("(?<", this.i) ? "lookaround" : "group modifier");
      else this.i++;
      const body = this.disjunction();
      if (s[this.i] !== ")") throw new Unsupported("unterminated group");
      this.i++;
      return { t: "group", body };
    }
    if (c === "[") {
      const start = this.i++;
      if (s[this.i] === "^") this.i++;
      // Without `u` (and with it: no `v` flag here), a class does not nest, and "]" first is the end (`[]`).
      while (this.i < s.length && s[this.i] !== "]") this.i += s[this.i] === "\\" ? 2 : 1;
      if (this.i >= s.length) throw new Unsupported("unterminated class");
      this.i++;
      return this.set(s.slice(start, this.i));
    }
    if (c === ".") return this.i++, this.set(".");
    if (c === "\\") return this.escape();
    if (c === "*" || c === "+" || c === "?") throw new Unsupported(`nothing to repeat at ${this.i}`);
    const code = this.unicode ? s.codePointAt(this.i)! : s.charCodeAt(this.i);
    this.i += code > 0xffff ? 2 : 1;
    return { t: "char", code };
  }

  private escape(): PatternNode {
    const s = this.s;
    const start = this.i;
    const e = s[this.i + 1];
    if (e === undefined) throw new Unsupported("pattern ends with a backslash");
    if (e === "b" || e === "B") return (this.i += 2), { t: "assert", kind: e === "b" ? "word" : "nonword" };
    if (/[1-9]/.test(e)) {
      const digits = /^\d+/.exec(s.slice(this.i + 1))![0];
      if (this.unicode || Number(digits) <= this.groups) throw new Unsupported("backreference");
    }
    if (e === "k" && (this.unicode || this.named)) throw new Unsupported("backreference");
    let end = this.i + 2;
    const rest = s.slice(this.i + 1);
    let m: RegExpExecArray | null;
    if (this.unicode && (e === "p" || e === "P") && (m = /^[pP]\{[^}]*\}/.exec(rest))) end = this.i + 1 + m[0].length;
    else if (this.unicode && e === "u" && (m = /^u\{[0-9a-fA-F]+\}/.exec(rest))) end = this.i + 1 + m[0].length;
    else if (e === "u" && (m = /^u[0-9a-fA-F]{4}/.exec(rest))) {
      end = this.i + 1 + m[0].length;
      // With `u`, an escaped surrogate pair is one code point.
      const pair = this.unicode && /^u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}/.exec(rest);
      if (pair) end = this.i + 1 + pair[0].length;
    } else if (e === "x" && (m = /^x[0-9a-fA-F]{2}/.exec(rest))) end = this.i + 1 + m[0].length;
    else if (e === "c" && /^c[a-zA-Z]/.test(rest)) end = this.i + 3;
    else if (/[0-7]/.test(e) && !this.unicode) end = this.i + 1 + /^[0-7]{1,3}/.exec(rest)![0].length;
    else if (e === "0") end = this.i + 2;
    else if (!this.unicode && (m = /^[\ud800-\udbff][\udc00-\udfff]/.exec(rest))) end = this.i + 2; // `\` + lead; trail read next
    this.i = end;
    return this.set(s.slice(start, end));
  }

  private set(source: string): PatternNode {
    try {
      new RegExp(`^(?:${source})$`, this.unicode ? "u" : "");
    } catch (e) {
      throw new Unsupported(`atom ${source}: ${(e as Error).message}`);
    }
    return { t: "set", source };
  }
}

/**
 * Whether the plain (backtracking) RegExp provably runs in time linear in the input on this pattern, so the linear
 * engine is not needed. The rule, checked on the parsed pattern:
 *  1. every quantifier applies to a single-character atom (a literal, a class, an escape, `.`), never to a group,
 *     so no quantifier is nested in another one and no alternation is repeated;
 *  2. at most one quantifier is unbounded (`*`, `+`, `{n,}`);
 *  3. if there is one, the pattern starts with `^` in every alternative, or that quantifier is the pattern's last
 *     term (`[a-z]+`: once it is reached the match succeeds, it is never backtracked into); else each of the n start
 *     positions could rescan O(n) characters: `a+b` on `aaaa…` is quadratic;
 *  4. the bounded variable quantifiers (`?`, `{n,m}` with m > n) multiply to at most 256 ways (∏ (m − n + 1)).
 * Then a backtracking matcher tries at most (1 start if anchored, else n starts) × (the alternations' branches and
 * the bounded choices: a constant) × (the unbounded quantifier's at most n + 1 lengths) paths of bounded work each,
 * once anchored: O(n). Unanchored, the unbounded quantifier (if any) ends the pattern and is never backtracked
 * into, so each start costs a constant plus, once, the quantifier's run: O(n).
 * `^[a-z0-9_-]+$`, `^\d{4}-\d{2}-\d{2}$`, `^(https?|ftp)://[^ ]+$` are safe; `^(a+)+$`, `^(ab)*$`, `\s+$` and
 * `^\w+@\w+$` are not (they go to the linear engine).
 */
export function backtrackSafe(node: PatternNode): boolean {
  let unbounded = 0;
  let ways = 1;
  let nested = false;
  const walk = (n: PatternNode): void => {
    switch (n.t) {
      case "seq":
      case "alt":
        n.items.forEach(walk);
        return;
      case "group":
        walk(n.body);
        return;
      case "repeat":
        if (n.body.t !== "char" && n.body.t !== "set") nested = true;
        if (n.max === Infinity) unbounded++;
        else ways *= n.max - n.min + 1;
        return;
      default:
        return;
    }
  };
  walk(node);
  if (nested || unbounded > 1 || ways > 256) return false;
  return unbounded === 0 || anchoredStart(node) || endsUnbounded(node);
}

/** Whether the pattern's last term is its unbounded quantifier (`a+`, `^x` aside): once reached, nothing after it can fail. */
function endsUnbounded(n: PatternNode): boolean {
  if (n.t === "repeat") return n.max === Infinity;
  if (n.t === "seq") return n.items.length > 0 && endsUnbounded(n.items[n.items.length - 1]!);
  return false;
}

/** Whether every way through the pattern starts with `^`. */
function anchoredStart(n: PatternNode): boolean {
  switch (n.t) {
    case "assert":
      return n.kind === "bol";
    case "seq":
      return n.items.length > 0 && anchoredStart(n.items[0]!);
    case "alt":
      return n.items.every(anchoredStart);
    case "group":
      return anchoredStart(n.body);
    default:
      return false;
  }
}

// ---- The NFA ----------------------------------------------------------------------------------------------------

const CHAR = 0;
const SET = 1;
const SPLIT = 2;
const JMP = 3;
const ASSERT = 4;
const MATCH = 5;

const BOL = 0;
const EOL = 1;
const WORD = 2;
const NONWORD = 3;

interface Program {
  op: number[];
  /** CHAR: the code; SET: the index of the predicate; SPLIT/JMP: the first target; ASSERT: the kind. */
  a: number[];
  /** SPLIT: the second target. */
  b: number[];
  sets: ((code: number) => boolean)[];
}

function compile(node: PatternNode, unicode: boolean): Program {
  const p: Program = { op: [], a: [], b: [], sets: [] };
  const setIndex = new Map<string, number>();
  const emit = (op: number, a = 0, b = 0): number => {
    if (p.op.length >= MAX_PROGRAM) throw new Unsupported(`more than ${MAX_PROGRAM} states`);
    p.op.push(op);
    p.a.push(a);
    p.b.push(b);
    return p.op.length - 1;
  };
  const gen = (n: PatternNode): void => {
    switch (n.t) {
      case "char":
        emit(CHAR, n.code);
        return;
      case "set": {
        let k = setIndex.get(n.source);
        if (k === undefined) {
          k = p.sets.length;
          setIndex.set(n.source, k);
          p.sets.push(predicate(n.source, unicode));
        }
        emit(SET, k);
        return;
      }
      case "assert":
        emit(ASSERT, n.kind === "bol" ? BOL : n.kind === "eol" ? EOL : n.kind === "word" ? WORD : NONWORD);
        return;
      case "seq":
        n.items.forEach(gen);
        return;
      case "group":
        gen(n.body);
        return;
      case "alt": {
        const jumps: number[] = [];
        for (let k = 0; k < n.items.length - 1; k++) {
          const split = emit(SPLIT);
          p.a[split] = split + 1;
          gen(n.items[k]!);
          jumps.push(emit(JMP));
          p.b[split] = p.op.length;
        }
        gen(n.items[n.items.length - 1]!);
        for (const j of jumps) p.a[j] = p.op.length;
        return;
      }
      case "repeat": {
        for (let k = 0; k < n.min; k++) gen(n.body);
        if (n.max === Infinity) {
          const split = emit(SPLIT);
          p.a[split] = split + 1;
          gen(n.body);
          emit(JMP, split);
          p.b[split] = p.op.length;
        } else {
          const splits: number[] = [];
          for (let k = n.min; k < n.max; k++) {
            const split = emit(SPLIT);
            p.a[split] = split + 1;
            splits.push(split);
            gen(n.body);
          }
          for (const s of splits) p.b[s] = p.op.length;
        }
        return;
      }
    }
  };
  gen(node);
  emit(MATCH);
  return p;
}

/** Membership in one atom's set, by a native RegExp of that atom alone; ASCII answers are cached. */
function predicate(source: string, unicode: boolean): (code: number) => boolean {
  const re = new RegExp(`^(?:${source})$`, unicode ? "u" : "");
  const ascii = new Uint8Array(128); // 0: not known yet, 1: no, 2: yes
  return (code) => {
    if (code < 128) {
      const known = ascii[code]!;
      if (known !== 0) return known === 2;
      const yes = re.test(String.fromCharCode(code));
      ascii[code] = yes ? 2 : 1;
      return yes;
    }
    return re.test(unicode ? String.fromCodePoint(code) : String.fromCharCode(code));
  };
}

function isWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

/** A compiled linear-time matcher: `test` answers what `new RegExp(source, flags).test` answers. */
export interface LinearPattern {
  readonly source: string;
  test(s: string): boolean;
}

/** The code point (with `u`) or code unit at `i`, -1 at the end. */
function codeAt(s: string, i: number, unicode: boolean): number {
  if (i >= s.length) return -1;
  const code = s.charCodeAt(i);
  if (unicode && code >= 0xd800 && code <= 0xdbff && i + 1 < s.length) {
    const trail = s.charCodeAt(i + 1);
    if (trail >= 0xdc00 && trail <= 0xdfff) return (code - 0xd800) * 0x400 + (trail - 0xdc00) + 0x10000;
  }
  return code;
}

class Matcher implements LinearPattern {
  private readonly op: Uint8Array;
  private readonly a: Int32Array;
  private readonly b: Int32Array;
  private readonly sets: readonly ((code: number) => boolean)[];
  private readonly anchored: boolean;
  // The states of the current and the next step, and for each state the step (list generation) it was last added in.
  private readonly lists: [Int32Array, Int32Array];
  private readonly mark: Float64Array;
  private readonly stack: Int32Array;
  private generation = 0;

  constructor(
    readonly source: string,
    node: PatternNode,
    private readonly unicode: boolean,
  ) {
    const prog = compile(node, unicode);
    const n = prog.op.length;
    this.op = Uint8Array.from(prog.op);
    this.a = Int32Array.from(prog.a);
    this.b = Int32Array.from(prog.b);
    this.sets = prog.sets;
    this.anchored = anchoredStart(node);
    this.lists = [new Int32Array(n), new Int32Array(n)];
    this.mark = new Float64Array(n);
    // Each state is expanded once per step and pushes at most two others: the stack never holds more than 2n + 1.
    this.stack = new Int32Array(2 * n + 2);
  }

  /**
   * Adds the epsilon closure of `pc0` at position `i` (previous character `prev`, next `next`, -1 for none) to
   * `list`, which holds `size` states of generation `gen`; returns the new size, or -1 once the match state is reached.
   */
  private add(list: Int32Array, size: number, gen: number, pc0: number, i: number, len: number, prev: number, next: number): number {
    const { op, a, b, mark, stack } = this;
    let top = 0;
    stack[top++] = pc0;
    while (top > 0) {
      const pc = stack[--top]!;
      if (mark[pc] === gen) continue;
      mark[pc] = gen;
      const o = op[pc]!;
      if (o === CHAR || o === SET) list[size++] = pc;
      else if (o === MATCH) return -1;
      else if (o === JMP) stack[top++] = a[pc]!;
      else if (o === SPLIT) {
        stack[top++] = b[pc]!;
        stack[top++] = a[pc]!;
      } else {
        const kind = a[pc]!;
        const ok = kind === BOL ? i === 0 : kind === EOL ? i === len : (isWordChar(prev) !== (next >= 0 && isWordChar(next))) === (kind === WORD);
        if (ok) stack[top++] = pc + 1;
      }
    }
    return size;
  }

  test(s: string): boolean {
    const { op, a, sets, unicode, lists } = this;
    const len = s.length;
    let cur = lists[0]!;
    let nxt = lists[1]!;
    let gen = ++this.generation;
    let size = 0;
    let prev = -1;
    let code = codeAt(s, 0, unicode);
    let i = 0;
    for (;;) {
      if (i === 0 || !this.anchored) {
        size = this.add(cur, size, gen, 0, i, len, prev, code);
        if (size < 0) return true;
      }
      // No thread left: only a later start can match, and an anchored pattern has none.
      if (code < 0 || (size === 0 && this.anchored)) return false;
      const width = code > 0xffff ? 2 : 1;
      const next = codeAt(s, i + width, unicode);
      const nextGen = ++this.generation;
      let nextSize = 0;
      for (let k = 0; k < size; k++) {
        const pc = cur[k]!;
        if (op[pc] === CHAR ? a[pc] === code : sets[a[pc]!]!(code)) {
          nextSize = this.add(nxt, nextSize, nextGen, pc + 1, i + width, len, code, next);
          if (nextSize < 0) return true;
        }
      }
      i += width;
      prev = code;
      code = next;
      const swap = cur;
      cur = nxt;
      nxt = swap;
      size = nextSize;
      gen = nextGen;
    }
  }
}

const cache = new Map<string, LinearPattern>();

/**
 * The linear-time matcher for a pattern (compiled once per source and flags; generated code calls this with
 * string literals, so the cache holds one entry per spec pattern). Throws if the pattern uses lookaround or a
 * backreference, which generated code never asks for (the generator keeps a RegExp then).
 */
export function linearPattern(source: string, flags: "" | "u" = ""): LinearPattern {
  const key = `${flags}/${source}`;
  const known = cache.get(key);
  if (known) return known;
  const parsed = parsePattern(source, flags);
  if ("unsupported" in parsed) throw new Error(`pattern ${JSON.stringify(source)} needs a backtracking matcher: ${parsed.unsupported}`);
  const m = new Matcher(source, parsed.node, flags === "u");
  cache.set(key, m);
  return m;
}

/** Whether the linear engine can match a pattern (no lookaround, no backreference, at most MAX_PROGRAM states). */
export function linearSupport(source: string, flags: "" | "u"): { readonly ok: true } | { readonly ok: false; readonly reason: string } {
  const parsed = parsePattern(source, flags);
  if ("unsupported" in parsed) return { ok: false, reason: parsed.unsupported };
  try {
    compile(parsed.node, flags === "u");
  } catch (e) {
    if (e instanceof Unsupported) return { ok: false, reason: e.message };
    throw e;
  }
  return { ok: true };
}
