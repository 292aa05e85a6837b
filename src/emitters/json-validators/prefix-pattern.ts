/**
 * Patterns that only pin down how a string starts (`^https?://`, `^v[0-9]` is not one) are written as a few
 * character comparisons instead of a RegExp: calling RegExp.prototype.test costs about 14 ns in V8 before it reads
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

/** The body of `function NAME(s: string): boolean` for a prefix pattern: one comparison per run of required
 * characters (commented with the run), one step per optional character. */
export function prefixPatternBody(p: PrefixPattern): string[] {
  const lines = ["  let i = 0;"];
  let k = 0;
  while (k < p.steps.length) {
    const step = p.steps[k]!;
    if (step.optional) {
      lines.push(`  if (s.charCodeAt(i) === ${step.code}) i++; // ${JSON.stringify(String.fromCharCode(step.code))}?`);
      k++;
      continue;
    }
    const run: number[] = [];
    while (k < p.steps.length && !p.steps[k]!.optional) run.push(p.steps[k++]!.code);
    const at = (n: number) => (n === 0 ? "i" : `i + ${n}`);
    // Not fromCharCode(...run): a spec's pattern can hold a literal run longer than V8 takes as call arguments.
    const text = JSON.stringify(run.map((code) => String.fromCharCode(code)).join(""));
    lines.push(`  if (${run.map((code, n) => `s.charCodeAt(${at(n)}) !== ${code}`).join(" || ")}) return false; // ${text}`);
    lines.push(`  i += ${run.length};`);
  }
  lines.push(p.wholeString ? "  return i === s.length;" : "  return true;");
  return lines;
}
