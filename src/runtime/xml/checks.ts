import type { ValidationIssue } from "../validation.js";
import { decodeBase64, decodeHex, encodeBase64, encodeHex } from "./base64.js";
import { isXsdDecimal, isXsdTemporal, type XsdTemporal } from "./lexical.js";
import { compareXsdTemporal } from "./temporal-order.js";
import { XmlDecodeError } from "./errors.js";

/**
 * Primitive checks the generated XSD validators call. Each pushes issues and returns whether the value had the
 * right type (facets are only checked on values of the right type, so one mistake gives one issue).
 */

type Issues = ValidationIssue[];

export function xsdIssue(issues: Issues, path: string, rule: string, message: string): void {
  issues.push({ path, rule, message });
}

/** A plain object that generated code may read properties of. */
export function isXsdRecord(v: unknown): v is { readonly [key: string]: unknown } {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}

export function checkXsdString(v: unknown, path: string, issues: Issues): v is string {
  if (typeof v === "string") return true;
  xsdIssue(issues, path, "type", "expected a string");
  return false;
}

const YEAR = "-?(?:[1-9]\\d{4,}|\\d{4})";
const ZONE = "(?:Z|[+-](?:(?:0\\d|1[0-3]):[0-5]\\d|14:00))?";
const MONTH = "(?:0[1-9]|1[0-2])";
const DAY = "(?:0[1-9]|[12]\\d|3[01])";
/** XML 1.0 (5th edition) NameStartChar and NameChar, without ":" (an NCName). */
const NC_START = "A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}";
const NC_CHAR = `${NC_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F\\u2040`;

/**
 * Lexical forms of the string-valued builtins that have one (XSD 1.0 Part 2, 3.2.9-3.2.13 and 3.3): their values
 * are strings here, read as written, so the validator checks the form (white space collapsed first).
 */
const STRING_FORMS: Readonly<Record<string, RegExp>> = {
  "xsd:gYear": /* @__PURE__ */ new RegExp(`^${YEAR}${ZONE}$`),
  "xsd:gYearMonth": /* @__PURE__ */ new RegExp(`^${YEAR}-${MONTH}${ZONE}$`),
  "xsd:gMonth": /* @__PURE__ */ new RegExp(`^--${MONTH}${ZONE}$`),
  "xsd:gMonthDay": /* @__PURE__ */ new RegExp(`^--${MONTH}-${DAY}${ZONE}$`),
  "xsd:gDay": /* @__PURE__ */ new RegExp(`^---${DAY}${ZONE}$`),
  "xsd:language": /^[a-zA-Z]{1,8}(?:-[a-zA-Z0-9]{1,8})*$/,
  "xsd:Name": /* @__PURE__ */ new RegExp(`^[:${NC_START}][:${NC_CHAR}]*$`, "u"),
  "xsd:NCName": /* @__PURE__ */ new RegExp(`^[${NC_START}][${NC_CHAR}]*$`, "u"),
  "xsd:ID": /* @__PURE__ */ new RegExp(`^[${NC_START}][${NC_CHAR}]*$`, "u"),
  "xsd:IDREF": /* @__PURE__ */ new RegExp(`^[${NC_START}][${NC_CHAR}]*$`, "u"),
  "xsd:ENTITY": /* @__PURE__ */ new RegExp(`^[${NC_START}][${NC_CHAR}]*$`, "u"),
  "xsd:NMTOKEN": /* @__PURE__ */ new RegExp(`^[:${NC_CHAR}]+$`, "u"),
};

/** Whether a string builtin (`xsd:gYear`, `xsd:Name`...) has a lexical form checkStringForm tests. */
export function hasXsdStringForm(builtin: string): boolean {
  return Object.hasOwn(STRING_FORMS, builtin);
}

/** A string of a builtin with a lexical form (STRING_FORMS): a string, in that form once white space is collapsed. */
export function checkXsdStringForm(v: unknown, builtin: string, path: string, issues: Issues): v is string {
  if (!checkXsdString(v, path, issues)) return false;
  const form = STRING_FORMS[builtin];
  const t = v.trim();
  // gMonthDay: the day must exist in the month (--02-29 does, in a leap year); gYear(Month): XSD 1.0 has no year 0000.
  const exists = builtin === "xsd:gMonthDay" ? dayInMonth(2000, Number(t.slice(2, 4)), Number(t.slice(5, 7))) : !/^-?0000(?!\d)/.test(t) || !builtin.startsWith("xsd:gYear");
  if (form === undefined || (form.test(t) && exists)) return true;
  xsdIssue(issues, path, "lexical", `${JSON.stringify(v)} is not a valid ${builtin}`);
  return false;
}

/**
 * The text of a string builtin with a lexical form (STRING_FORMS), or an XmlDecodeError: how a union's decoder tells
 * its members apart (`<xsd:union memberTypes="xsd:gMonth list">` reading "1 2 3" is the list). Elsewhere the decoder
 * keeps such text as it is and the validator checks it.
 */
export function isXsdTextForm(text: string, builtin: string): boolean {
  return checkXsdStringForm(text, builtin, "", []);
}

export function xsdTextForm(text: string, builtin: string, path: string): string {
  const issues: Issues = [];
  if (!checkXsdStringForm(text, builtin, path, issues)) throw new XmlDecodeError(path, issues[0]!.message);
  return text;
}

/** Whether a day exists in a month of a year (proleptic Gregorian; year 2000 for "any year", which is a leap year). */
function dayInMonth(year: number, month: number, day: number): boolean {
  if (month === 2) return day <= (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28);
  return day <= (month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31);
}

/**
 * A date or dateTime's date part exists (XSD 1.0 Part 2 3.2.7: the day is at most the month's last day, year 0000 is
 * not allowed). Negative years are not checked for leap days.
 */
function validDatePart(v: string): boolean {
  const m = /^(-?)(\d{4,})-(\d\d)-(\d\d)/.exec(v.trim());
  if (m === null) return true;
  const year = Number(m[2]);
  if (year === 0) return false;
  return dayInMonth(m[1] === "-" ? 2000 : year, Number(m[3]), Number(m[4]));
}

export function checkXsdBoolean(v: unknown, path: string, issues: Issues): v is boolean {
  if (typeof v === "boolean") return true;
  xsdIssue(issues, path, "type", "expected a boolean");
  return false;
}

/** An integer type carried as a number, with its builtin range. */
export function checkXsdInt(v: unknown, min: number, max: number, type: string, path: string, issues: Issues): v is number {
  if (typeof v !== "number" || !Number.isInteger(v)) {
    xsdIssue(issues, path, "type", `expected an integer (${type})`);
    return false;
  }
  if (v < min || v > max) {
    xsdIssue(issues, path, "range", `${v} is outside the range of ${type} (${min}..${max})`);
    return false;
  }
  return true;
}

/** A 64-bit or unbounded integer: bigint, or a decimal string / safe number in the other int64 modes. */
export function checkXsdBigInt(v: unknown, min: bigint | undefined, max: bigint | undefined, type: string, path: string, issues: Issues): boolean {
  let n: bigint;
  if (typeof v === "bigint") n = v;
  else if (typeof v === "string" && /^[+-]?\d+$/.test(v)) n = BigInt(v);
  else if (typeof v === "number" && Number.isInteger(v)) n = BigInt(v);
  else {
    xsdIssue(issues, path, "type", `expected an integer (${type})`);
    return false;
  }
  if ((min !== undefined && n < min) || (max !== undefined && n > max)) {
    xsdIssue(issues, path, "range", `${n} is outside the range of ${type}`);
    return false;
  }
  return true;
}

export function checkXsdNumber(v: unknown, path: string, issues: Issues): v is number {
  if (typeof v === "number") return true;
  xsdIssue(issues, path, "type", "expected a number");
  return false;
}

export function checkXsdDecimal(v: unknown, path: string, issues: Issues): v is string {
  if (typeof v === "string" && isXsdDecimal(v)) return true;
  xsdIssue(issues, path, "type", "expected a decimal number as a string");
  return false;
}

export function checkXsdTemporal(v: unknown, kind: XsdTemporal, path: string, issues: Issues): boolean {
  if (kind === "dateTime" && v instanceof Date) {
    if (!Number.isNaN(v.getTime())) return true;
    xsdIssue(issues, path, "lexical", "invalid Date");
    return false;
  }
  if (typeof v !== "string") {
    xsdIssue(issues, path, "type", `expected an xsd:${kind} string`);
    return false;
  }
  if (isXsdTemporal(v, kind) && ((kind !== "date" && kind !== "dateTime") || validDatePart(v))) return true;
  xsdIssue(issues, path, "lexical", `${JSON.stringify(v)} is not a valid xsd:${kind}`);
  return false;
}

export function checkXsdBytes(v: unknown, path: string, issues: Issues): v is Uint8Array {
  if (v instanceof Uint8Array) return true;
  xsdIssue(issues, path, "type", "expected a Uint8Array");
  return false;
}

/** The length XSD's length facets measure: characters of a string, octets of binary, items of a list. */
export function xsdLength(v: unknown): number {
  if (typeof v === "string") {
    let n = 0;
    for (let i = 0; i < v.length; i++) {
      const c = v.charCodeAt(i);
      if (c < 0xd800 || c > 0xdbff) n++;
    }
    return n;
  }
  if (v instanceof Uint8Array || Array.isArray(v)) return v.length;
  return 0;
}

/** The lexical form facets such as pattern and enumeration apply to. */
export function xsdLexical(v: unknown): string {
  if (Array.isArray(v)) return v.map(xsdLexical).join(" ");
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "number") return Number.isNaN(v) ? "NaN" : v === Infinity ? "INF" : v === -Infinity ? "-INF" : String(v);
  if (v instanceof Date) return v.toISOString();
  return String(v);
}

/**
 * Compare a numeric value (number, bigint or decimal string) with a decimal bound, or a date/time or duration
 * (kept as its lexical string) with a bound of the same form; undefined if not comparable.
 */
export function xsdCompare(v: unknown, bound: string): number | undefined {
  if (typeof v === "number") {
    const b = Number(bound);
    return Number.isNaN(v) || Number.isNaN(b) ? undefined : Math.sign(v - b);
  }
  if (typeof v === "bigint") {
    if (/^[+-]?\d+$/.test(bound)) return v < BigInt(bound) ? -1 : v > BigInt(bound) ? 1 : 0;
    return compareDecimals(String(v), bound);
  }
  if (typeof v === "string" && isXsdDecimal(v.trim()) && isXsdDecimal(bound)) return compareDecimals(v.trim(), bound);
  if (typeof v === "string") return compareXsdTemporal(v.trim(), bound.trim());
  return undefined;
}

/** Exact comparison of two decimal lexical forms. */
export function compareDecimals(a: string, b: string): number {
  const pa = splitDecimal(a);
  const pb = splitDecimal(b);
  // -0 and 0 are the same number.
  const na = pa.negative && !pa.zero;
  const nb = pb.negative && !pb.zero;
  if (na !== nb) return na ? -1 : 1;
  const sign = na ? -1 : 1;
  if (pa.int.length !== pb.int.length) return pa.int.length > pb.int.length ? sign : -sign;
  if (pa.int !== pb.int) return pa.int > pb.int ? sign : -sign;
  const width = Math.max(pa.frac.length, pb.frac.length);
  const fa = pa.frac.padEnd(width, "0");
  const fb = pb.frac.padEnd(width, "0");
  return fa === fb ? 0 : fa > fb ? sign : -sign;
}

function splitDecimal(s: string): { negative: boolean; int: string; frac: string; zero: boolean } {
  const negative = s.startsWith("-");
  const body = s.replace(/^[+-]/, "");
  const [i = "", f = ""] = body.split(".");
  const int = i.replace(/^0+/, "");
  const frac = f.replace(/0+$/, "");
  return { negative, int, frac, zero: int === "" && frac === "" };
}

/** totalDigits / fractionDigits of a numeric value's decimal form (undefined when it has none, e.g. NaN). */
export function xsdDigits(v: unknown): { total: number; fraction: number } | undefined {
  let s: string;
  if (typeof v === "bigint") s = String(v);
  else if (typeof v === "number") {
    if (!Number.isFinite(v)) return undefined;
    s = Math.abs(v) < 1e21 && !String(v).includes("e") ? String(v) : v.toFixed(Math.min(100, Math.max(0, -Math.floor(Math.log10(Math.abs(v))) + 16)));
  } else if (typeof v === "string" && isXsdDecimal(v.trim())) s = v.trim();
  else return undefined;
  const body = s.replace(/^[+-]/, "");
  const [i = "", f = ""] = body.split(".");
  const int = i.replace(/^0+/, "");
  const fraction = f.replace(/0+$/, "");
  return { total: Math.max(1, int.length + fraction.length), fraction: fraction.length };
}

/** Open content items: { ns, name, value } with string ns and name. */
export function isXsdOpenItem(v: unknown): v is { readonly ns: string; readonly name: string; readonly value: unknown } {
  return isXsdRecord(v) && typeof v.ns === "string" && typeof v.name === "string";
}

/**
 * How enumeration values compare (XSD 1.0 Part 2 §4.3.5: the facet constrains the value space, not the lexical one):
 * the key of a value, or of a lexical form written in the schema, for one kind of item. "double" (float and double
 * are numbers), "integer" (any integer type, however held), "decimal" (held as its lexical form), "boolean", "base64"
 * and "hex" (bytes, by their canonical form), "tokens"
 * (a whitespace-separated builtin list such as NMTOKENS) or "string" (compared as it is). An array (an xsd:list) is
 * keyed item by item, a lexical list split on whitespace first: "1.0  2" and [1, 2] have one key.
 */
export function xsdEnumKey(v: unknown, kind: string, list = false): string {
  if (list) {
    const items = typeof v === "string" ? splitXsdItems(v) : Array.isArray(v) ? v : [v];
    return items.map((item) => xsdEnumKey(item, kind)).join(" ");
  }
  switch (kind) {
    case "double":
      if (typeof v === "string") {
        const t = v.trim();
        return xsdLexical(t === "INF" || t === "+INF" ? Infinity : t === "-INF" ? -Infinity : t === "NaN" ? NaN : Number(t));
      }
      return xsdLexical(v);
    case "integer":
      if (typeof v === "string") {
        const t = v.trim();
        return /^[+-]?\d+$/.test(t) ? String(BigInt(t)) : t;
      }
      return String(v);
    case "decimal": {
      const t = String(v).trim();
      if (!isXsdDecimal(t)) return t;
      const d = splitDecimal(t);
      return d.zero ? "0" : `${d.negative ? "-" : ""}${d.int || "0"}${d.frac ? `.${d.frac}` : ""}`;
    }
    case "boolean":
      if (typeof v === "string") return v.trim() === "1" || v.trim() === "true" ? "true" : v.trim() === "0" ? "false" : v.trim();
      return xsdLexical(v);
    case "tokens":
      return splitXsdItems(String(v)).join(" ");
    case "base64":
    case "hex": {
      // Bytes (as decoded) or a lexical form (as the schema writes it): keyed by the bytes' canonical form.
      const bytes = v instanceof Uint8Array ? v : kind === "hex" ? decodeHex(String(v).trim()) : decodeBase64(String(v).replace(/[ \t\n\r]+/g, ""));
      return bytes === undefined ? String(v) : kind === "hex" ? encodeHex(bytes) : encodeBase64(bytes);
    }
    default:
      return xsdLexical(v);
  }
}

function splitXsdItems(text: string): string[] {
  const t = text.trim();
  return t === "" ? [] : t.split(/[ \t\n\r]+/);
}
