import { stringLiteral } from "../../codegen/escape.js";

/**
 * Patterns that only pin down how a string starts (`^https?://`, `^v[0-9]` is not one) are written as string
 * comparisons instead of a RegExp: calling RegExp.prototype.test costs about 14 ns in V8 before it reads
 * a single character, several times what comparing a short prefix costs.
 *
 * Accepted: `^`, then printable ASCII characters that are not regular-expression syntax, each optionally followed
 * by `?`, and an optional final `$`. An optional character must be followed by a required character different from
 * it (or by the end): then taking it whenever it is there, never backtracking, decides exactly what the regular
 * expression decides (`^a?a` would need backtracking and is left to RegExp).
 */

export type PrefixStep = { readonly code: number; readonly optional: boolean };

export interface PrefixPattern {
  readonly steps: readonly PrefixStep[];
  /** The pattern ends with `$`: nothing may follow the prefix. */
  readonly wholeString: boolean;
}

const SYNTAX = new Set("\\^$.|?*+()[]{}");

export function prefixPattern(source: string): PrefixPattern | undefined {
  if (!source.startsWith("^")) return undefined;
  let body = source.slice(1);
  const wholeString = body.endsWith("$"); // an escaped "\\$" is refused below anyway (the backslash)
  if (wholeString) body = body.slice(0, -1);
  const steps: PrefixStep[] = [];
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    const code = ch.charCodeAt(0);
    if (code < 0x20 || code > 0x7e || SYNTAX.has(ch)) return undefined;
    const optional = body[i + 1] === "?";
    if (optional) i++;
    steps.push({ code, optional });
  }
  if (steps.length === 0) return undefined;
  for (let k = 0; k < steps.length; k++) {
    if (!steps[k]!.optional) continue;
    const next = steps[k + 1];
    if (next !== undefined && (next.optional || next.code === steps[k]!.code)) return undefined;
  }
  return { steps, wholeString };
}

/** Prefix patterns with at most this many optional characters are written as a list of whole prefixes. */
const MAX_OPTIONAL_EXPANDED = 2;

/**
 * The body of `function NAME(s: string): boolean` for a prefix pattern, as `String.prototype.startsWith` calls (or
 * `===` with `$`) on string literals: the optimizing compiler turns a `startsWith` of a constant into inline
 * character comparisons, and the source is a fraction of a hand-written comparison per character (bench bundle,
 * "one validator": `^https?://` took 230 bytes minified as charCodeAt tests, 66 as two `startsWith`).
 *
 * With at most MAX_OPTIONAL_EXPANDED optional characters, every way of taking or leaving them is listed
 * (`^https?://`: "http://" or "https://"), which is exactly what the regular expression matches. Past that the list
 * would double per optional character, so the prefix is walked instead: a `startsWith` at the current offset per
 * run of required characters, one step per optional character (taking it whenever it is there decides what the
 * regular expression decides, see prefixPattern).
 */
export function prefixPatternBody(p: PrefixPattern): string[] {
  const optional = p.steps.filter((step) => step.optional).length;
  if (optional <= MAX_OPTIONAL_EXPANDED) {
    let prefixes = [""];
    for (const step of p.steps) {
      const ch = String.fromCharCode(step.code);
      prefixes = step.optional ? prefixes.flatMap((x) => [x, x + ch]) : prefixes.map((x) => x + ch);
    }
    const test = (x: string) => (p.wholeString ? `s === ${stringLiteral(x)}` : `s.startsWith(${stringLiteral(x)})`);
    return [`  return ${prefixes.map(test).join(" || ")};`];
  }
  const lines = ["  let i = 0;"];
  let k = 0;
  while (k < p.steps.length) {
    const step = p.steps[k]!;
    if (step.optional) {
      lines.push(`  if (s.charCodeAt(i) === ${step.code}) i++; // ${stringLiteral(String.fromCharCode(step.code))}?`);
      k++;
      continue;
    }
    let run = "";
    while (k < p.steps.length && !p.steps[k]!.optional) run += String.fromCharCode(p.steps[k++]!.code);
    lines.push(`  if (!s.startsWith(${stringLiteral(run)}, i)) return false;`);
    lines.push(`  i += ${run.length};`);
  }
  lines.push(p.wholeString ? "  return i === s.length;" : "  return true;");
  return lines;
}
