import type { Printable } from "../../codegen/generated-file.js";
import { appendAll } from "../../append-all.js";

/**
 * Code fragments as Printable arrays, so runtime imports (ImportTokens) can sit inside expressions and are declared
 * when the fragment is finally printed. `js` is a tagged template: js`${a} && ${b}`.
 */
export type Code = Printable;

export function js(strings: TemplateStringsArray, ...values: Code[]): Code[] {
  const out: Code[] = [strings[0]!];
  values.forEach((v, i) => out.push(v, strings[i + 1]!));
  return out;
}

/** `a && b && c` (parenthesized parts), or "true" when there is nothing to check. */
export function and(parts: readonly Code[]): Code {
  if (parts.length === 0) return "true";
  if (parts.length === 1) return parts[0]!;
  return joinWith(parts.map((p) => (/\|\||\?/.test(flat(p)) ? paren(p) : p)), " && ");
}

/** `a || b`, or "false" when there is no alternative. */
export function or(parts: readonly Code[]): Code {
  if (parts.length === 0) return "false";
  if (parts.length === 1) return parts[0]!;
  return joinWith(parts.map((p) => (/&&|\?/.test(flat(p)) ? paren(p) : p)), " || ");
}

export function joinWith(parts: readonly Code[], separator: string): Code[] {
  const out: Code[] = [];
  parts.forEach((p, i) => out.push(i === 0 ? "" : separator, p));
  return out;
}

/** Parenthesize unless the fragment is obviously atomic (an identifier, a call, a literal). */
export function paren(c: Code): Code {
  const text = flat(c);
  return /^[\w$.]+(\([^()]*\))?$|^"[^"]*"$/.test(text) ? c : ["(", c, ")"];
}

/** The text of a fragment with import tokens shown by name (only for deciding on parentheses). */
function flat(c: Code): string {
  if (typeof c === "string") return c;
  if (typeof c === "number" || typeof c === "boolean") return String(c);
  if (typeof c === "bigint") return `${c}n`;
  if (Array.isArray(c)) return c.map(flat).join("");
  const token = c as { kind: string; name?: string; value?: string };
  return token.kind === "import" ? token.name! : JSON.stringify(token.value);
}

/** Lines of a function body being built, printed later in one go. */
export class Lines {
  readonly lines: Code[][] = [];

  add(indent: string, ...parts: Code[]): void {
    this.lines.push([indent, ...parts]);
  }

  append(other: Lines): void {
    appendAll(this.lines, other.lines);
  }
}
