/**
 * Schema `pattern`s, checked and brought into the form generated code compiles them in (with the `u` flag: JSON
 * Schema patterns have unicode semantics).
 *
 * Real documents carry patterns written for other engines, and a pattern is read as its author's engine reads it:
 *  - Non-unicode engines, such as DigitalOcean's `^[a-zA-Z0-9_\-\:]+$`. Without `u`, `\:` is an identity escape
 *    meaning `:`; with `u` it is a syntax error. Such escapes of punctuation that has no special meaning are rewritten
 *    to the bare character, which is exactly what the author's engine read, so the check is unchanged.
 *  - Java and PCRE (the APIs.guru directory has dozens, most in AWS documents): POSIX classes `\p{Alnum}`,
 *    `\p{Print}`, `[[:alnum:]]` (ASCII, as Java reads them by default), `\p{IsLetter}`, the anchors `\A`, `\z`, `\Z`,
 *    `\x{60}` and Python's `(?P<name>...)` become their JavaScript equivalents (`javaScriptPattern`).
 *  - A pattern that still only JavaScript's legacy (non-unicode) syntax accepts, such as `^[\w-\.]+$` (a range
 *    from a class escape is an error with `u`), is kept as is: generated code compiles it without the flag, which
 *    is how the author's engine read it. Not when it contains `\p`/`\P`, which the legacy syntax reads as the
 *    letter `p`: the author meant a property, and the check would refuse what they meant to allow.
 * Anything else that does not compile is still an error located at the pattern.
 */

import { patternPlan } from "../../codegen/spec-pattern.js";

/**
 * Why a (compiling) pattern will be matched by a backtracking RegExp, or undefined when it is matched in linear time
 * (src/codegen/spec-pattern.ts): only lookaround and backreferences have no linear-time matcher.
 */
export function backtrackingReason(source: string): string | undefined {
  const plan = patternPlan(source, compileError(source, "u") === undefined ? "u" : "");
  return plan.kind === "backtracking"
    ? `pattern ${JSON.stringify(source)} uses ${plan.reason}, which no linear-time matcher supports: it is checked with a backtracking RegExp, which some inputs can keep busy for a long time`
    : undefined;
}

/** Characters that stay escaped everywhere (ECMA-262 SyntaxCharacter plus `/`); `-` also stays escaped in a class. */
const SYNTAX = new Set([..."^$\\.*+?()[]{}|/"]);

/**
 * The pattern as a RegExp source for generated code, or an error message when it is not a valid regular expression
 * in any of the readings above. The source compiles with the `u` flag, except a legacy-only pattern (see above),
 * which compiles without it.
 */
export function unicodePattern(source: string): { source: string } | { error: string } {
  const first = compileError(source, "u");
  if (first === undefined) return { source };
  const translated = javaScriptPattern(source);
  for (const candidate of [withoutIdentityEscapes(source), translated, withoutIdentityEscapes(translated)]) {
    if (candidate !== source && compileError(candidate, "u") === undefined) return { source: candidate };
  }
  if (!/\\[pP]/.test(translated) && compileError(translated, "") === undefined) return { source: translated };
  return { error: first };
}

function compileError(source: string, flags: "u" | ""): string | undefined {
  try {
    new RegExp(source, flags);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** `\X` -> `X` for ASCII punctuation X that unicode mode refuses to see escaped (and non-unicode mode reads as X). */
export function withoutIdentityEscapes(source: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\" && i + 1 < source.length) {
      const next = source[i + 1]!;
      const needless = /[!-/:-@[-`{-~]/.test(next) && !SYNTAX.has(next) && !(inClass && next === "-");
      out += needless ? next : c + next;
      i++;
      continue;
    }
    if (c === "[" && !inClass) inClass = true;
    else if (c === "]" && inClass) inClass = false;
    out += c;
  }
  return out;
}

/**
 * Java's POSIX character classes (US-ASCII, Java's default; also PCRE's `[:name:]` in lower case), as the contents
 * of a JavaScript character class.
 */
const POSIX_CLASSES: Readonly<Record<string, string>> = {
  Lower: "a-z",
  Upper: "A-Z",
  ASCII: "\\x00-\\x7F",
  Alpha: "a-zA-Z",
  Digit: "0-9",
  Alnum: "a-zA-Z0-9",
  Punct: "!-\\/:-@\\[-`{-~",
  Graph: "\\x21-\\x7E",
  Print: "\\x20-\\x7E",
  Blank: " \\t",
  Cntrl: "\\x00-\\x1F\\x7F",
  XDigit: "0-9a-fA-F",
  Space: " \\t\\n\\x0B\\f\\r",
  // Java's `\p{all}`: any character.
  all: "\\u0000-\\u{10FFFF}",
};

/** Java's `\p{IsX}` binary properties and categories that JavaScript spells differently. */
const JAVA_PROPERTIES: Readonly<Record<string, string>> = {
  IsLetter: "L",
  IsDigit: "Nd",
  IsAlphabetic: "Alphabetic",
  IsUppercase: "Uppercase",
  IsLowercase: "Lowercase",
  IsWhite_Space: "White_Space",
  IsWhiteSpace: "White_Space",
  IsPunctuation: "P",
  IsControl: "Cc",
};

/**
 * Java/PCRE/Python constructs -> JavaScript (unicode mode), each meaning what it meant to the author's engine:
 * `\p{Alnum}` -> `[a-zA-Z0-9]` (inside a class, its contents), `\P{Alnum}` -> `[^a-zA-Z0-9]` (outside a class),
 * `[[:alnum:]]` -> `[a-zA-Z0-9]`, `\p{IsLetter}` -> `\p{L}`, `\p{IsLatin}` -> `\p{Script=Latin}`, `\A` -> `^`,
 * `\z` -> `$`, `\Z` -> `(?=\n?$)`, `\x{60}` -> `\u{60}`, `(?P<name>` -> `(?<name>`, `(?P=name)` -> `\k<name>`.
 * Everything else is copied unchanged.
 */
export function javaScriptPattern(source: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    const rest = source.slice(i);
    if (c === "\\" && i + 1 < source.length) {
      const property = /^\\([pP])\{(\^?)(\w+)\}/.exec(rest);
      if (property) {
        const [whole, letter, caret, name] = property as unknown as [string, string, string, string];
        const negated = (letter === "P") !== (caret === "^");
        const posix = own(POSIX_CLASSES, name);
        if (posix !== undefined && !(inClass && negated)) {
          out += inClass ? posix : `[${negated ? "^" : ""}${posix}]`;
          i += whole.length - 1;
          continue;
        }
        // Java's `\p{IsLatin}`, PCRE's `\p{Han}`: a script, which JavaScript names `Script=`.
        const script = name.startsWith("Is") ? name.slice(2) : name;
        const js = own(JAVA_PROPERTIES, name) ?? (compileError(`\\p{${name}}`, "u") !== undefined && isScript(script) ? `Script=${script}` : undefined);
        if (js !== undefined) {
          out += `\\${negated ? "P" : "p"}{${js}}`;
          i += whole.length - 1;
          continue;
        }
      }
      const hex = /^\\x\{([0-9a-fA-F]{1,6})\}/.exec(rest);
      if (hex) {
        out += `\\u{${hex[1]}}`;
        i += hex[0].length - 1;
        continue;
      }
      const next = source[i + 1]!;
      if (!inClass && (next === "A" || next === "z" || next === "Z")) {
        out += next === "A" ? "^" : next === "z" ? "$" : "(?=\\n?$)";
        i++;
        continue;
      }
      out += c + next;
      i++;
      continue;
    }
    if (inClass) {
      const posix = /^\[:(\^?)([a-z]+):\]/.exec(rest);
      const name = posix && Object.keys(POSIX_CLASSES).find((k) => k.toLowerCase() === posix[2] && k !== "all");
      if (posix && name && posix[1] === "") {
        out += own(POSIX_CLASSES, name);
        i += posix[0].length - 1;
        continue;
      }
      if (c === "]") inClass = false;
      out += c;
      continue;
    }
    const python = /^\(\?P(<|=)(\w+)(>|\))/.exec(rest);
    if (python && (python[1] === "<") === (python[3] === ">")) {
      out += python[1] === "<" ? `(?<${python[2]}>` : `\\k<${python[2]}>`;
      i += python[0].length - 1;
      continue;
    }
    if (c === "[") inClass = true;
    out += c;
  }
  return out;
}

/** A table entry, never one inherited from Object.prototype (`\p{constructor}`). */
function own(table: Readonly<Record<string, string>>, key: string): string | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

function isScript(name: string): boolean {
  return /^[A-Z][a-z_]+$/.test(name) && compileError(`\\p{Script=${name}}`, "u") === undefined;
}
