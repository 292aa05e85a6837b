import { XmlValueTypeError } from "./value-type-error.js";
import { decodeBase64, decodeHex } from "./base64.js";
import { XmlDecodeError } from "./errors.js";
import { xopAttachment } from "./xop.js";

/**
 * XSD lexical forms <-> JavaScript values, for generated decoders (parse*, which throw XmlDecodeError with the
 * value's path) and encoders (format*). Numeric and boolean types collapse whitespace, so values are trimmed.
 */

function bad(path: string, text: string, type: string): XmlDecodeError {
  const shown = text.length > 40 ? `${text.slice(0, 40)}...` : text;
  return new XmlDecodeError(path, `${JSON.stringify(shown)} is not a valid ${type}`);
}

export function parseXsdBoolean(text: string, path: string): boolean {
  if (text === "true") return true;
  if (text === "false") return false;
  const t = text.trim();
  if (t === "true" || t === "1") return true;
  if (t === "false" || t === "0") return false;
  throw bad(path, text, "xsd:boolean");
}

const INTEGER = /^[+-]?\d+$/;

/** An integer type that fits a JS number (int, short, byte, unsigned*), checked against its range. */
export function parseXsdInt(text: string, min: number, max: number, path: string, type = "xsd:int"): number {
  const t = text.trim();
  if (!INTEGER.test(t)) throw bad(path, text, type);
  const n = Number(t);
  if (n < min || n > max) throw new XmlDecodeError(path, `${t} is outside the range of ${type} (${min}..${max})`);
  return n === 0 ? 0 : n;
}

/** A 64-bit integer (long, unsignedLong) as a bigint, checked against its range. */
export function parseXsdLong(text: string, min: bigint, max: bigint, path: string, type = "xsd:long"): bigint {
  const t = text.trim();
  if (!INTEGER.test(t)) throw bad(path, text, type);
  const n = BigInt(t);
  if (n < min || n > max) throw new XmlDecodeError(path, `${t} is outside the range of ${type}`);
  return n;
}

/** A 64-bit integer in string mode: canonical decimal digits. */
export function parseXsdLongString(text: string, min: bigint, max: bigint, path: string, type = "xsd:long"): string {
  return String(parseXsdLong(text, min, max, path, type));
}

/** A 64-bit integer in number mode (precision beyond 2^53 is lost, as the mode says). */
export function parseXsdLongNumber(text: string, min: bigint, max: bigint, path: string, type = "xsd:long"): number {
  return Number(parseXsdLong(text, min, max, path, type));
}

/** xsd:integer and its unbounded derivations. */
export function parseXsdInteger(text: string, path: string, type = "xsd:integer"): bigint {
  const t = text.trim();
  if (!INTEGER.test(t)) throw bad(path, text, type);
  return BigInt(t);
}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const FLOATING = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** xsd:float / xsd:double, including INF, -INF and NaN. */
export function parseXsdDouble(text: string, path: string, type = "xsd:double"): number {
  const t = text.trim();
  if (FLOATING.test(t)) return Number(t);
  if (t === "INF" || t === "+INF") return Infinity;
  if (t === "-INF") return -Infinity;
  if (t === "NaN") return NaN;
  throw bad(path, text, type);
}

export function formatXsdDouble(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (n === Infinity) return "INF";
  if (n === -Infinity) return "-INF";
  return Object.is(n, -0) ? "-0" : String(n);
}

/** xsd:decimal, kept as its (trimmed) lexical form so no precision is lost. */
export function parseXsdDecimal(text: string, path: string): string {
  const t = text.trim();
  if (!DECIMAL.test(t)) throw bad(path, text, "xsd:decimal");
  return t;
}

export function isXsdDecimal(value: string): boolean {
  return DECIMAL.test(value);
}

const TZ = "(Z|[+-](?:(?:0\\d|1[0-3]):[0-5]\\d|14:00))?";
const DATE = "-?(?:[1-9]\\d{4,}|\\d{4})-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])";
const TIME = "(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?|24:00:00(?:\\.0+)?)";
const FORMS = {
  dateTime: /* @__PURE__ */ new RegExp(`^${DATE}T${TIME}${TZ}$`),
  date: /* @__PURE__ */ new RegExp(`^${DATE}${TZ}$`),
  time: /* @__PURE__ */ new RegExp(`^${TIME}${TZ}$`),
  duration: /^-?P(?=\d|T\d)(?:\d+Y)?(?:\d+M)?(?:\d+D)?(?:T(?=\d)(?:\d+H)?(?:\d+M)?(?:\d+(?:\.\d+)?S)?)?$/,
  // The Gregorian fragments (XSD 1.0 Part 2 §3.2.9-3.2.13); gMonth also in the first edition's `--MM--` form.
  gYearMonth: /* @__PURE__ */ new RegExp(`^-?(?:[1-9]\\d{4,}|\\d{4})-(?:0[1-9]|1[0-2])${TZ}$`),
  gYear: /* @__PURE__ */ new RegExp(`^-?(?:[1-9]\\d{4,}|\\d{4})${TZ}$`),
  gMonthDay: /* @__PURE__ */ new RegExp(`^--(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])${TZ}$`),
  gDay: /* @__PURE__ */ new RegExp(`^---(?:0[1-9]|[12]\\d|3[01])${TZ}$`),
  gMonth: /* @__PURE__ */ new RegExp(`^--(?:0[1-9]|1[0-2])(?:--)?${TZ}$`),
} as const;

export type XsdTemporal = keyof typeof FORMS;

export function isXsdTemporal(value: string, kind: XsdTemporal): boolean {
  return FORMS[kind].test(value);
}

/** A date, dateTime, time or duration: checked against its lexical form and kept as a (trimmed) string. */
export function parseXsdTemporal(text: string, kind: XsdTemporal, path: string): string {
  const t = text.trim();
  if (!FORMS[kind].test(t)) throw bad(path, text, `xsd:${kind}`);
  return t;
}

export function parseXsdBase64(text: string, path: string): Uint8Array {
  const bytes = decodeBase64(text) ?? xopAttachment(text);
  if (bytes === undefined) throw bad(path, text, "xsd:base64Binary");
  return bytes;
}

export function parseXsdHex(text: string, path: string): Uint8Array {
  const bytes = decodeHex(text);
  if (bytes === undefined) throw bad(path, text, "xsd:hexBinary");
  return bytes;
}

/** Whitespace-separated items of an xsd:list value. */
export function splitXsdList(text: string): string[] {
  const t = text.trim();
  return t === "" ? [] : t.split(/[ \t\n\r]+/);
}

/** A dateTime held as a Date (`dates: "Date"`), in its lexical form; anything else is refused with its type. */
export function formatXsdDateTime(value: Date): string {
  if (!(value instanceof Date)) throw new XmlValueTypeError("Date", value, { inElement: false });
  if (Number.isNaN(value.getTime())) throw new XmlValueTypeError("a valid Date", value, { inElement: false });
  return value.toISOString();
}

/**
 * A lexical form of float/double `v` that `allowed` accepts and that still reads as `v`, for a type whose pattern
 * facets want a form other than the canonical one ("4.54918975E-08", ".24E-4", "0.0100"): the canonical form if
 * allowed, else forms with 0 to 17 fraction digits in E notation (the point moved 0 to 3 places, exponents padded to
 * 1 to 3 digits) and in fixed notation. Undefined when none is allowed.
 */
export function lexicalDoubleForm(v: number, allowed: (s: string) => boolean): string | undefined {
  const canonical = formatXsdDouble(v);
  if (allowed(canonical)) return canonical;
  if (!Number.isFinite(v)) return undefined;
  const same = (s: string): boolean => allowed(s) && Number(s) === v;
  for (let digits = 0; digits <= 17; digits++) {
    const [mantissa, exponent] = v.toExponential(digits).toUpperCase().split("E") as [string, string];
    const negative = mantissa.startsWith("-");
    const significant = mantissa.replace(/^-/, "").replace(".", "");
    for (let before = 0; before <= significant.length + 2; before++) {
      const padded = significant.padEnd(before, "0");
      const m = `${negative ? "-" : ""}${padded.slice(0, before)}${padded.length > before ? `.${padded.slice(before)}` : ""}`;
      const exp = Number(exponent) - (before - 1);
      const sign = exp < 0 ? "-" : "";
      const abs = String(Math.abs(exp));
      for (const e of [abs, abs.padStart(2, "0"), abs.padStart(3, "0")]) if (same(`${m}E${sign}${e}`)) return `${m}E${sign}${e}`;
    }
    const fixed = Math.abs(v) < 1e21 ? v.toFixed(digits) : canonical;
    if (same(fixed)) return fixed;
  }
  return undefined;
}

/**
 * The lexical form of a list of floats/doubles whose pattern facets test the whole list (NIST's
 * "\d{1}E\-\d{2} \.\d{2}E\-\d{1} ..."): the canonical items when `allowed`, else, for each way of splitting a pattern
 * at its top-level spaces into one part per item (`parts`, from the generator), every item in a form its part
 * accepts (lexicalDoubleForm); the first joined list `allowed` accepts (a list of one item: a form of the item the
 * whole pattern accepts). Canonical when none is.
 */
export function formatXsdDoubleList(
  v: readonly number[],
  allowed: (s: string) => boolean,
  parts: readonly (readonly { test(s: string): boolean }[])[],
): string {
  const canonical = v.map(formatXsdDouble).join(" ");
  if (allowed(canonical)) return canonical;
  // One item: the whole pattern is the item's.
  if (v.length === 1) return lexicalDoubleForm(v[0]!, allowed) ?? canonical;
  for (const p of parts) {
    if (p.length !== v.length) continue;
    const items: string[] = [];
    for (let i = 0; i < v.length; i++) {
      const form = lexicalDoubleForm(v[i]!, (s) => p[i]!.test(s));
      if (form === undefined) break;
      items.push(form);
    }
    if (items.length === v.length && allowed(items.join(" "))) return items.join(" ");
  }
  return canonical;
}
