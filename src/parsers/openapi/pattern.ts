/**
 * Schema `pattern`s, checked and brought into the form generated code compiles them in (with the `u` flag: JSON
 * Schema patterns have unicode semantics).
 *
 * Real documents carry patterns written for non-unicode engines, such as DigitalOcean's `^[a-zA-Z0-9_\-\:]+$`.
 * Without `u`, `\:` is an identity escape meaning `:`; with `u` it is a syntax error. Such escapes of punctuation
 * that has no special meaning are rewritten to the bare character, which is exactly what the author's engine read,
 * so the check is unchanged. Anything else that does not compile is still an error located at the pattern.
 */

/** Characters that stay escaped everywhere (ECMA-262 SyntaxCharacter plus `/`); `-` also stays escaped in a class. */
const SYNTAX = new Set([..."^$\\.*+?()[]{}|/"]);

/**
 * The pattern as a unicode-mode RegExp source, or an error message when it is not a valid regular expression in
 * either mode.
 */
export function unicodePattern(source: string): { source: string } | { error: string } {
  const first = compileError(source);
  if (first === undefined) return { source };
  const rewritten = withoutIdentityEscapes(source);
  if (rewritten !== source && compileError(rewritten) === undefined) return { source: rewritten };
  return { error: first };
}

function compileError(source: string): string | undefined {
  try {
    new RegExp(source, "u");
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
