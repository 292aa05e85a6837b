/**
 * XSD regular expressions -> JavaScript (`u` flag). XSD patterns are implicitly anchored, have no `^`/`$` anchors
 * (those are ordinary characters), and define `.`, `\s`, `\d`, `\w` differently from JavaScript. XSD-only syntax is
 * translated exactly:
 *  - `\i` / `\c` (XML name start / name characters, XML 1.0 fifth edition's NameStartChar / NameChar) and their
 *    negations `\I` / `\C` become classes of code point ranges;
 *  - `\p{IsBlock}` / `\P{IsBlock}` (a Unicode block, unicode-blocks.ts) becomes the block's range (or its negation);
 *  - a class that JavaScript cannot write directly (class subtraction `[a-z-[aeiou]]`, or a negated escape such as
 *    `\S`, `\w`, `\I`, `\P{IsBlock}` inside a class) is evaluated at generation time, code point by code point
 *    (each member test a JavaScript RegExp of the XSD meaning), and written as the resulting list of ranges.
 * An unknown escape or block name, or a malformed class, is reported as unsupported (the pattern is left
 * unchecked, with a comment in the generated code) instead of being compiled into something else.
 */

import { UNICODE_BLOCKS } from "./unicode-blocks.js";

export type TranslatedPattern = { readonly source: string } | { readonly unsupported: string };

const SINGLE_ESCAPES = new Set(["n", "r", "t", "\\", "|", ".", "?", "*", "+", "(", ")", "{", "}", "-", "[", "]", "^"]);

/** XML 1.0 (fifth edition) NameStartChar and NameChar, as JavaScript class contents. */
const NAME_START = ":A-Z_a-z\\u{C0}-\\u{D6}\\u{D8}-\\u{F6}\\u{F8}-\\u{2FF}\\u{370}-\\u{37D}\\u{37F}-\\u{1FFF}\\u{200C}-\\u{200D}\\u{2070}-\\u{218F}\\u{2C00}-\\u{2FEF}\\u{3001}-\\u{D7FF}\\u{F900}-\\u{FDCF}\\u{FDF0}-\\u{FFFD}\\u{10000}-\\u{EFFFF}";
const NAME_CHAR = `${NAME_START}\\-.0-9\\u{B7}\\u{300}-\\u{36F}\\u{203F}-\\u{2040}`;

/**
 * Multi-character escapes as JavaScript class contents: `positive` is the set, or `negated` the set it is the
 * complement of (written `[^...]` outside a class, evaluated inside one).
 */
function multiEscape(e: string, block?: string): { readonly contents: string; readonly negated: boolean } | { readonly unsupported: string } | undefined {
  switch (e) {
    case "d":
      return { contents: "\\p{Nd}", negated: false };
    case "D":
      return { contents: "\\p{Nd}", negated: true };
    case "s":
      return { contents: " \\t\\n\\r", negated: false };
    case "S":
      return { contents: " \\t\\n\\r", negated: true };
    case "w":
      return { contents: "\\p{P}\\p{Z}\\p{C}", negated: true };
    case "W":
      return { contents: "\\p{P}\\p{Z}\\p{C}", negated: false };
    case "i":
      return { contents: NAME_START, negated: false };
    case "I":
      return { contents: NAME_START, negated: true };
    case "c":
      return { contents: NAME_CHAR, negated: false };
    case "C":
      return { contents: NAME_CHAR, negated: true };
    case "p":
    case "P": {
      if (block === undefined) return undefined;
      let contents: string;
      if (block.startsWith("Is")) {
        const range = UNICODE_BLOCKS.get(block.slice(2));
        if (!range) return { unsupported: `unknown Unicode block \\${e}{${block}}` };
        contents = `${cp(range[0])}-${cp(range[1])}`;
      } else {
        contents = `\\p{${block}}`;
        try {
          new RegExp(`[${contents}]`, "u");
        } catch {
          return { unsupported: `unknown Unicode property \\${e}{${block}}` };
        }
      }
      return { contents, negated: e === "P" };
    }
    default:
      return undefined;
  }
}

function cp(code: number): string {
  return `\\u{${code.toString(16).toUpperCase()}}`;
}

/** A character inside a JavaScript class (`u` flag): printable ASCII as itself (class syntax escaped), else `\u{…}`. */
function classChar(code: number): string {
  if (code < 0x20 || code > 0x7e) return cp(code);
  const ch = String.fromCharCode(code);
  return "\\]-^[".includes(ch) ? `\\${ch}` : ch;
}

class Refused extends Error {}

/** A parsed class: its members (JavaScript class contents, each possibly negated), negation and subtraction. */
interface XsdClass {
  readonly negated: boolean;
  /** A character or a range also has its code points; an escape only its JavaScript class contents. */
  readonly items: readonly { readonly contents: string; readonly negated: boolean; readonly range?: readonly [number, number] }[];
  readonly minus?: XsdClass;
}

export function translateXsdPattern(pattern: string): TranslatedPattern {
  try {
    return translate(pattern);
  } catch (e) {
    if (e instanceof Refused) return { unsupported: e.message };
    throw e;
  }
}

function translate(pattern: string): TranslatedPattern {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\") {
      const e = pattern[i + 1];
      if (e === undefined) throw new Refused("pattern ends with a backslash");
      i++;
      if (SINGLE_ESCAPES.has(e)) {
        // "\-" is only an escape inside a class in JavaScript's unicode mode.
        out += e === "-" ? "-" : `\\${e}`;
        continue;
      }
      const { escape, next } = readMulti(pattern, i);
      i = next;
      const property = /^\\p\{\w+\}$/.test(escape.contents);
      out += property ? (escape.negated ? escape.contents.replace("p", "P") : escape.contents) : escape.negated ? `[^${escape.contents}]` : `[${escape.contents}]`;
      continue;
    }
    if (c === "[") {
      const { cls, next } = readClass(pattern, i);
      i = next;
      out += classSource(cls);
      continue;
    }
    if (c === "]") throw new Refused("unescaped ']' outside a character class");
    if (c === ".") out += "[^\\n\\r]";
    else if (c === "^" || c === "$") out += `\\${c}`;
    else out += c;
  }
  const source = `^(?:${out})$`;
  try {
    new RegExp(source, "u");
  } catch (e) {
    return { unsupported: `not a valid expression (${(e as Error).message})` };
  }
  return { source };
}

/** A multi-character escape whose letter is at `i`; `next` is its last index. */
function readMulti(pattern: string, i: number): { escape: { contents: string; negated: boolean }; next: number } {
  const e = pattern[i]!;
  let block: string | undefined;
  let next = i;
  if (e === "p" || e === "P") {
    const close = pattern.indexOf("}", i);
    if (pattern[i + 1] !== "{" || close < 0) throw new Refused(`malformed \\${e} escape`);
    block = pattern.slice(i + 2, close);
    next = close;
  }
  const m = multiEscape(e, block);
  if (m === undefined) throw new Refused(`unknown escape \\${e}`);
  if ("unsupported" in m) throw new Refused(m.unsupported);
  return { escape: m, next };
}

/** The class starting with "[" at `i`; `next` is the index of its "]". */
function readClass(pattern: string, i: number): { cls: XsdClass; next: number } {
  let k = i + 1;
  const negated = pattern[k] === "^";
  if (negated) k++;
  const items: { contents: string; negated: boolean; range?: readonly [number, number] }[] = [];
  let minus: XsdClass | undefined;
  /** A single character at k (escaped or not) as a code point, or undefined for a multi-character escape. */
  const single = (): number | undefined => {
    const ch = pattern.codePointAt(k)!;
    if (ch === 0x5c) {
      const e = pattern[k + 1];
      if (e === undefined) throw new Refused("pattern ends with a backslash");
      if (!SINGLE_ESCAPES.has(e)) return undefined;
      k += 2;
      return e === "n" ? 10 : e === "r" ? 13 : e === "t" ? 9 : e.codePointAt(0)!;
    }
    if (ch === 0x5b) throw new Refused("unescaped '[' in a character class");
    k += ch > 0xffff ? 2 : 1;
    return ch;
  };
  let first = true;
  for (;;) {
    if (k >= pattern.length) throw new Refused("unterminated character class");
    const c = pattern[k]!;
    if (c === "]" && !first) break;
    if (c === "-" && pattern[k + 1] === "[") {
      const sub = readClass(pattern, k + 1);
      minus = sub.cls;
      k = sub.next + 1;
      if (pattern[k] !== "]") throw new Refused("character class subtraction must end its class");
      break;
    }
    first = false;
    if (c === "\\" && !SINGLE_ESCAPES.has(pattern[k + 1] ?? "")) {
      const m = readMulti(pattern, k + 1);
      items.push(m.escape);
      k = m.next + 1;
      continue;
    }
    const from = single()!;
    if (pattern[k] === "-" && pattern[k + 1] !== "]" && pattern[k + 1] !== "[" && k + 1 < pattern.length) {
      k++;
      const to = single();
      if (to === undefined) throw new Refused("a range ends with a multi-character escape");
      if (to < from) throw new Refused("a range ends before it starts");
      items.push({ contents: `${classChar(from)}-${classChar(to)}`, negated: false, range: [from, to] });
    } else items.push({ contents: classChar(from), negated: false, range: [from, from] });
  }
  if (items.length === 0) throw new Refused("empty character class");
  return { cls: { negated, items, minus }, next: k };
}

/** A set of code points as sorted, disjoint, non-adjacent inclusive ranges. */
type Ranges = readonly (readonly [number, number])[];

const MAX_CODE = 0x10ffff;

/** The class as a JavaScript class: directly when it can be, else computed as ranges. */
function classSource(cls: XsdClass): string {
  if (!cls.minus && cls.items.every((item) => !item.negated)) return `[${cls.negated ? "^" : ""}${cls.items.map((item) => item.contents).join("")}]`;
  return `[${classRanges(cls).map(([from, to]) => (from === to ? cp(from) : `${cp(from)}-${cp(to)}`)).join("")}]`;
}

/** The code points a class matches: its items' union (complemented if negated), minus the subtracted class. */
function classRanges(cls: XsdClass): Ranges {
  let set = union(cls.items.map((item) => (item.range ? [item.range] : item.negated ? complement(escapeRanges(item.contents)) : escapeRanges(item.contents))));
  if (cls.negated) set = complement(set);
  return cls.minus ? complement(union([complement(set), classRanges(cls.minus)])) : set;
}

const escapeCache = new Map<string, Ranges>();
let everyCodePoint: string | undefined;

/**
 * The code points of a JavaScript class's contents, found by one global match over a string of every code point
 * (surrogates apart: each is tested alone, since two adjacent ones would pair). Cached per contents: a spec can use
 * a property many times, and there are only so many properties and blocks.
 */
function escapeRanges(contents: string): Ranges {
  const known = escapeCache.get(contents);
  if (known) return known;
  everyCodePoint ??= codePointString();
  const runs: [number, number][] = [];
  for (const m of everyCodePoint.matchAll(new RegExp(`[${contents}]+`, "gu"))) {
    const last = m[0].codePointAt(m[0].length - (m[0].length > 1 && m[0].charCodeAt(m[0].length - 1) >= 0xdc00 && m[0].charCodeAt(m[0].length - 1) <= 0xdfff ? 2 : 1))!;
    runs.push([m[0].codePointAt(0)!, last]);
  }
  const single = new RegExp(`^[${contents}]$`, "u");
  for (let code = 0xd800; code <= 0xdfff; code++) if (single.test(String.fromCharCode(code))) runs.push([code, code]);
  // A run over the surrogates' gap (0xD7FF then 0xE000 in the string) holds no surrogate unless tested above.
  const ranges = union([runs.flatMap(([from, to]) => (from < 0xd800 && to > 0xdfff ? [[from, 0xd7ff] as [number, number], [0xe000, to] as [number, number]] : [[from, to] as [number, number]]))]);
  escapeCache.set(contents, ranges);
  return ranges;
}

function codePointString(): string {
  const parts: string[] = [];
  for (let start = 0; start <= MAX_CODE; start += 0x1000) {
    const chunk: number[] = [];
    for (let code = start; code < start + 0x1000 && code <= MAX_CODE; code++) if (code < 0xd800 || code > 0xdfff) chunk.push(code);
    parts.push(String.fromCodePoint(...chunk));
  }
  return parts.join("");
}

function union(sets: readonly Ranges[]): Ranges {
  const all = sets.flat().slice().sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const [from, to] of all) {
    const last = out[out.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

function complement(set: Ranges): Ranges {
  const out: [number, number][] = [];
  let next = 0;
  for (const [from, to] of set) {
    if (from > next) out.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= MAX_CODE) out.push([next, MAX_CODE]);
  return out;
}

/**
 * A pattern for a whole list split where it has a literal space outside any group, class or escape
 * ("\d{1}E\-\d{2} \.\d{2}E\-\d{1}" -> ["\d{1}E\-\d{2}", "\.\d{2}E\-\d{1}"]): a hint of the pattern each list item is
 * to match, position by position. Undefined when the pattern has no such space, or a top-level `|` (the parts would
 * not line up with the items) or a quantifier right after a space. Only a hint: a writer using it still tests the
 * joined list against the whole pattern.
 */
export function listPatternParts(pattern: string): string[] | undefined {
  const parts: string[] = [];
  let start = 0;
  let groups = 0;
  let classes = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "[") classes++;
    else if (c === "]" && classes > 0) classes--;
    else if (classes > 0) continue;
    else if (c === "(") groups++;
    else if (c === ")") groups--;
    else if (groups === 0 && c === "|") return undefined;
    else if (groups === 0 && c === " ") {
      if ("?*+{".includes(pattern[i + 1] ?? "")) return undefined;
      parts.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(pattern.slice(start));
  return parts.length > 1 && parts.every((p) => p.length > 0) ? parts : undefined;
}
