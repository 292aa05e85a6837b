/**
 * XSD regular expressions -> JavaScript (`u` flag). XSD patterns are implicitly anchored, have no `^`/`$` anchors
 * (those are ordinary characters), and define `.`, `\s`, `\d`, `\w` differently from JavaScript. Constructs with no
 * faithful JavaScript equivalent (character class subtraction, `\i`/`\c` name classes, `\p{Is...}` blocks, a negated
 * multi-character escape inside a class) are reported as unsupported instead of being compiled into something else.
 */

export type TranslatedPattern = { readonly source: string } | { readonly unsupported: string };

const SINGLE_ESCAPES = new Set(["n", "r", "t", "\\", "|", ".", "?", "*", "+", "(", ")", "{", "}", "-", "[", "]", "^"]);

/** Multi-character escapes outside a class. */
const MULTI_OUTSIDE: Readonly<Record<string, string>> = {
  d: "\\p{Nd}",
  D: "\\P{Nd}",
  s: "[ \\t\\n\\r]",
  S: "[^ \\t\\n\\r]",
  w: "[^\\p{P}\\p{Z}\\p{C}]",
  W: "[\\p{P}\\p{Z}\\p{C}]",
};

/** Multi-character escapes inside a class (only the ones expressible as class members). */
const MULTI_INSIDE: Readonly<Record<string, string>> = {
  d: "\\p{Nd}",
  D: "\\P{Nd}",
  s: " \\t\\n\\r",
  W: "\\p{P}\\p{Z}\\p{C}",
};

export function translateXsdPattern(pattern: string): TranslatedPattern {
  let out = "";
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\") {
      const e = pattern[i + 1];
      if (e === undefined) return { unsupported: "pattern ends with a backslash" };
      i++;
      if (e === "p" || e === "P") {
        const close = pattern.indexOf("}", i);
        if (pattern[i + 1] !== "{" || close < 0) return { unsupported: `malformed \\${e} escape` };
        const name = pattern.slice(i + 2, close);
        if (name.startsWith("Is")) return { unsupported: `Unicode block escape \\${e}{${name}}` };
        out += `\\${e}{${name}}`;
        i = close;
      } else if (e === "i" || e === "I" || e === "c" || e === "C") {
        return { unsupported: `XML name-character escape \\${e}` };
      } else if (SINGLE_ESCAPES.has(e)) {
        // "\-" is only an escape inside a class in JavaScript's unicode mode.
        out += e === "-" && !inClass ? "-" : `\\${e}`;
      } else if (inClass ? e in MULTI_INSIDE : e in MULTI_OUTSIDE) {
        out += inClass ? MULTI_INSIDE[e] : MULTI_OUTSIDE[e];
      } else if (inClass && (e === "S" || e === "w")) {
        return { unsupported: `negated escape \\${e} inside a character class` };
      } else return { unsupported: `unknown escape \\${e}` };
      continue;
    }
    if (inClass) {
      if (c === "[") return { unsupported: pattern[i - 1] === "-" ? "character class subtraction" : "unescaped '[' in a character class" };
      if (c === "]") inClass = false;
      out += c;
      continue;
    }
    if (c === "[") {
      inClass = true;
      out += c;
      if (pattern[i + 1] === "^") {
        out += "^";
        i++;
      }
      continue;
    }
    if (c === ".") out += "[^\\n\\r]";
    else if (c === "^" || c === "$") out += `\\${c}`;
    else out += c;
  }
  if (inClass) return { unsupported: "unterminated character class" };
  const source = `^(?:${out})$`;
  try {
    new RegExp(source, "u");
  } catch (e) {
    return { unsupported: `not a valid expression (${(e as Error).message})` };
  }
  return { source };
}
