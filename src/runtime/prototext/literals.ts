/** Text-format literals: C-escaped strings to bytes, integer and float spellings to values, with range checks. */
import { TextFormatError, type Token } from "./tokens.js";

const SIMPLE_ESCAPES: Record<string, number> = { n: 10, t: 9, r: 13, a: 7, b: 8, f: 12, v: 11, "\\": 92, "'": 39, '"': 34, "?": 63 };
const UTF8 = /* @__PURE__ */ new TextEncoder();

function fail(t: Token, reason: string): never {
  throw new TextFormatError(t.line, t.column, reason);
}

/** The bytes of one quoted string token (quotes included), with C escapes, \x, \u and \U resolved. */
export function unquote(t: Token): Uint8Array {
  const s = t.text.slice(1, -1);
  const out: number[] = [];
  for (let i = 0; i < s.length; ) {
    const c = s[i]!;
    if (c !== "\\") {
      const cp = s.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      out.push(...UTF8.encode(ch));
      i += ch.length;
      continue;
    }
    const e = s[i + 1] ?? "";
    if (e in SIMPLE_ESCAPES) {
      out.push(SIMPLE_ESCAPES[e]!);
      i += 2;
    } else if (/[0-7]/.test(e)) {
      const m = /^[0-7]{1,3}/.exec(s.slice(i + 1))![0];
      const v = parseInt(m, 8);
      if (v > 255) fail(t, `octal escape \\${m} is out of range`);
      out.push(v);
      i += 1 + m.length;
    } else if (e === "x" || e === "X") {
      const m = /^[0-9a-fA-F]{1,2}/.exec(s.slice(i + 2));
      if (!m) fail(t, "\\x needs a hex digit");
      out.push(parseInt(m[0], 16));
      i += 2 + m[0].length;
    } else if (e === "u" || e === "U") {
      const n = e === "u" ? 4 : 8;
      const hex = s.slice(i + 2, i + 2 + n);
      if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(hex)) fail(t, `\\${e} needs ${n} hex digits`);
      const cp = parseInt(hex, 16);
      i += 2 + n;
      // Surrogates are refused even in pairs, as protoc's reader does (the conformance suite checks it).
      if (cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000)) fail(t, `\\${e}${hex} is not a Unicode scalar value`);
      out.push(...UTF8.encode(String.fromCodePoint(cp)));
    } else fail(t, `unknown escape \\${e}`);
  }
  return new Uint8Array(out);
}

/** An integer token (decimal, 0x hex or 0-prefixed octal) as a bigint; undefined when it is not an integer. */
export function integerValue(text: string): bigint | undefined {
  if (/^0[xX][0-9a-fA-F]+$/.test(text)) return BigInt(text);
  if (/^0[0-7]+$/.test(text)) return BigInt(`0o${text.slice(1)}`);
  if (/^(0|[1-9]\d*)$/.test(text)) return BigInt(text);
  return undefined;
}

/** A float token, or an identifier naming infinity or NaN; undefined when it is neither. */
export function floatValue(t: Token): number | undefined {
  if (t.kind === "ident") {
    const low = t.text.toLowerCase();
    if (low === "inf" || low === "infinity") return Infinity;
    if (low === "nan") return NaN;
    return undefined;
  }
  if (t.kind !== "number") return undefined;
  // An integer token in a float field keeps its integer value (hex and octal included), as protoc reads it.
  const i = integerValue(t.text);
  if (i !== undefined) return Number(i);
  return Number(t.text.replace(/[fF]$/, ""));
}
