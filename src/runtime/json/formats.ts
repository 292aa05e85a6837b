/**
 * String formats checked by generated validators (JSON Schema `format`). Date and time forms are parsed by hand
 * (no regex match arrays), so a check allocates nothing; the others are single regex tests.
 */

function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1;
}

/** Two digits at `i` as a number, or -1. */
function two(s: string, i: number): number {
  const a = digit(s, i);
  const b = digit(s, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** RFC 3339 full-date at the start of `s`: YYYY-MM-DD that exists in the calendar (2023-02-29 does not). */
function dateAt(s: string): boolean {
  if (s.length < 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return false;
  const hi = two(s, 0);
  const lo = two(s, 2);
  const month = two(s, 5);
  const day = two(s, 8);
  if (hi < 0 || lo < 0 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(hi * 100 + lo, month);
}

/** RFC 3339 `date` (JSON Schema format "date"). */
export function jsonIsDate(s: string): boolean {
  return s.length === 10 && dateAt(s);
}

/**
 * RFC 3339 full-time starting at `i`: HH:MM:SS, optional fraction, then Z or +HH:MM / -HH:MM (the offset is
 * required). A leap second (:60) is accepted only where it can occur: at 23:59 UTC.
 */
function timeAt(s: string, i: number): boolean {
  if (s.length < i + 9 || s.charCodeAt(i + 2) !== 58 || s.charCodeAt(i + 5) !== 58) return false;
  const hour = two(s, i);
  const minute = two(s, i + 3);
  const second = two(s, i + 6);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60) return false;
  let p = i + 8;
  if (s.charCodeAt(p) === 46) {
    const start = ++p;
    while (digit(s, p) >= 0) p++;
    if (p === start) return false;
  }
  const z = s.charCodeAt(p);
  let offset = 0;
  if (z === 90 || z === 122) p++;
  else if (z === 43 || z === 45) {
    if (s.length !== p + 6 || s.charCodeAt(p + 3) !== 58) return false;
    const oh = two(s, p + 1);
    const om = two(s, p + 4);
    if (oh < 0 || oh > 23 || om < 0 || om > 59) return false;
    offset = (z === 43 ? 1 : -1) * (oh * 60 + om);
    p += 6;
  } else return false;
  if (p !== s.length) return false;
  if (second === 60) {
    const utc = (((hour * 60 + minute - offset) % 1440) + 1440) % 1440;
    return utc === 23 * 60 + 59;
  }
  return true;
}

/** RFC 3339 `full-time` (JSON Schema format "time"). */
export function jsonIsTime(s: string): boolean {
  return timeAt(s, 0);
}

/** RFC 3339 `date-time` (JSON Schema format "date-time"): date, "T" (or "t"), full-time with offset. */
export function jsonIsDateTime(s: string): boolean {
  const t = s.charCodeAt(10);
  return (t === 84 || t === 116) && dateAt(s) && timeAt(s, 11);
}

/** Scheme, ":", then URI characters but brackets with at most one "#" (the fragment): one linear regex, no separate scans. */
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*(?:#[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*)?$/;
/**
 * The same with an IP literal host ("[::1]", "[v7.x]") after "//" and an optional user info: the one place brackets
 * may be. A separate regex, tried only when URI fails (it has no bracket to stop at, so on an ordinary URI its user
 * info would scan the host and back off before finding no "@"); the same text as URI but for the authority, which
 * gzip stores once.
 */
const BRACKETED_URI = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:%]*@)?\[[A-Za-z0-9\-._~!$&'()*+,;=:]+\][A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*(?:#[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*)?$/;
// Classes spelled as in URI ([A-Za-z0-9...], not \w) and [\dA-Fa-f]: the same characters, in text gzip finds again
// (bench bundle, "one validator").
const BAD_ESCAPE = /%(?![\dA-Fa-f]{2})/;

/**
 * An absolute URI (RFC 3986): a scheme, ":", then only characters a URI may contain, every "%" starting a two-digit
 * hex escape and at most one "#". Relative references ("/a/b", "example.com") are not URIs. One character-class
 * regex with the rarer escape check after it, at every length: the table-driven loop short strings used to take
 * saved a few ns per call but cost ~730 bytes (minified) in every bundle that validates a `uri`, most of a
 * one-validator page (bench bundle, "one validator").
 */
export function jsonIsUri(s: string): boolean {
  // Most strings that are not URIs (plain text, relative references) have no ":"; finding that out by a native
  // scan is several times cheaper than entering the regex.
  return s.indexOf(":") > 0 && (URI.test(s) || BRACKETED_URI.test(s)) && !(s.includes("%") && BAD_ESCAPE.test(s));
}

/**
 * A practical e-mail address check (the one HTML forms use): a local part of the characters RFC 5322 allows
 * unquoted, "@", and a host name of dot-separated labels of at most 63 letters, digits and inner hyphens.
 */
const EMAIL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

export function jsonIsEmail(s: string): boolean {
  return EMAIL.test(s) || isRfc5321Email(s);
}

/** RFC 5321 forms the HTML rule leaves out: a quoted local part, an address literal as the domain. */
function isRfc5321Email(s: string): boolean {
  const at = s.lastIndexOf("@");
  if (at < 1) return false;
  const local = s.slice(0, at);
  const domain = s.slice(at + 1);
  const localOk = /^"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"$/.test(local) || /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/.test(local);
  if (!localOk) return false;
  if (domain.startsWith("[") && domain.endsWith("]")) {
    const literal = domain.slice(1, -1);
    return /^IPv6:/i.test(literal) ? jsonIsIpv6(literal.slice(5)) : IPV4.test(literal);
  }
  return EMAIL.test(`a@${domain}`);
}

const UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;

/** RFC 4122 textual form (any version, either case). */
export function jsonIsUuid(s: string): boolean {
  return UUID.test(s);
}

/**
 * The length of a string in Unicode code points, as JSON Schema's minLength/maxLength count it (a surrogate pair
 * is one character). Generated code calls this only when the UTF-16 length alone cannot decide.
 */
export function jsonCodePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

const INT_TEXT = /^-?(?:0|[1-9][0-9]*)$/;
// Literals rather than powers: bigint arithmetic can throw, so bundlers would keep it as a module side effect.
const INT64_MIN = -9223372036854775808n; // -(2^63)
const INT64_MAX = 9223372036854775807n; // 2^63 - 1
const UINT64_MAX = 18446744073709551615n; // 2^64 - 1

/** A decimal string within the signed 64-bit range (int64 mode "string"). */
export function jsonIsInt64String(s: string): boolean {
  if (!INT_TEXT.test(s) || s.length > 20) return false;
  const n = BigInt(s);
  return n >= INT64_MIN && n <= INT64_MAX;
}

/** A decimal string within the unsigned 64-bit range. */
export function jsonIsUint64String(s: string): boolean {
  if (!INT_TEXT.test(s) || s.length > 20 || s.startsWith("-")) return false;
  return BigInt(s) <= UINT64_MAX;
}

/** Dotted-quad IPv4 (RFC 2673 §3.2): four decimal octets of at most 255, no leading zeros. */
const IPV4 = /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$/;

export function jsonIsIpv4(s: string): boolean {
  return IPV4.test(s);
}

/** IPv6 text (RFC 4291 §2.2): eight hex groups, one `::` for a run of zero groups, an IPv4 tail; no zone id. */
export function jsonIsIpv6(s: string): boolean {
  if (s.length < 2 || s.length > 45 || !/^[0-9A-Fa-f:.]+$/.test(s)) return false;
  let groups = 8;
  let text = s;
  const last = s.lastIndexOf(":");
  if (s.includes(".")) {
    if (!IPV4.test(s.slice(last + 1))) return false;
    text = s.slice(0, last + 1) + "0:0";
  }
  const halves = text.split("::");
  if (halves.length > 2) return false;
  const part = (h: string): string[] | undefined => {
    if (h === "") return [];
    const g = h.split(":");
    return g.every((x) => /^[0-9A-Fa-f]{1,4}$/.test(x)) ? g : undefined;
  };
  const head = part(halves[0]!);
  if (!head) return false;
  if (halves.length === 1) return head.length === groups;
  const tail = part(halves[1]!);
  if (!tail) return false;
  groups = head.length + tail.length;
  return groups <= 7;
}

const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/**
 * A host name (RFC 1123 §2.1): dot-separated labels of letters, digits and inner hyphens, each at most 63 long, 253
 * in all (a final dot allowed). A label with "--" in positions 3-4 must be an A-label ("xn--"), as IDNA 2008 says.
 */
export function jsonIsHostname(s: string): boolean {
  const name = s.endsWith(".") ? s.slice(0, -1) : s;
  if (name.length === 0 || name.length > 253) return false;
  for (const label of name.split(".")) {
    if (!LABEL.test(label)) return false;
    if (label.length >= 4 && label[2] === "-" && label[3] === "-" && !/^xn--/i.test(label)) return false;
  }
  return true;
}

/** ISO 8601 durations as RFC 3339 Appendix A writes them: PnYnMnD / PTnHnMnS (units in order, no gaps) or PnW. */
const DURATION = /^P(?:(?:[0-9]+D|[0-9]+M(?:[0-9]+D)?|[0-9]+Y(?:[0-9]+M(?:[0-9]+D)?)?)(?:T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S))?|T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S)|[0-9]+W)$/;

export function jsonIsDuration(s: string): boolean {
  return DURATION.test(s);
}

/** A JSON Pointer (RFC 6901): empty, or "/"-prefixed tokens where "~" is only "~0" or "~1". */
export function jsonIsJsonPointer(s: string): boolean {
  return s === "" || /^(?:\/(?:[^~/]|~[01])*)*$/.test(s);
}

/**
 * A relative JSON Pointer (draft-bhutton-relative-json-pointer-00, as JSON Schema 2020-12 cites it): a non-negative
 * integer without leading zeros, an optional index manipulation ("+1", "-2"), then "#" or a JSON pointer.
 */
export function jsonIsRelativeJsonPointer(s: string): boolean {
  return /^(?:0|[1-9][0-9]*)(?:[+-](?:0|[1-9][0-9]*))?(?:#|(?:\/(?:[^~/]|~[01])*)*)$/.test(s);
}

/**
 * A URI Template (RFC 6570 §2): literals (URI characters, percent escapes, non-ASCII) and expressions: "{", an
 * optional level 2-3 operator, then comma-separated variable names (letters, digits, "_", escapes, single inner dots),
 * each with an optional ":1"-":9999" prefix or "*" explode modifier, and "}".
 */
export function jsonIsUriTemplate(s: string): boolean {
  return /^(?:[!#$&'()*+,\-./0-9:;=?@A-Z[\]_a-z~\u{A0}-\u{D7FF}\u{E000}-\u{FDCF}\u{FDF0}-\u{FFEF}\u{10000}-\u{EFFFD}]|%[0-9A-Fa-f]{2}|\{[+#./;?&]?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*(?::[1-9][0-9]{0,3}|\*)?(?:,(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*(?::[1-9][0-9]{0,3}|\*)?)*\})*$/u.test(s);
}

/** A regular expression ECMA-262 (with the `u` flag, as JSON Schema reads patterns) compiles. */
export function jsonIsRegex(s: string): boolean {
  try {
    new RegExp(s, "u");
    return true;
  } catch {
    return false;
  }
}

/**
 * A URI reference (RFC 3986 §4.1): a URI or a relative reference: only characters a URI may contain, "%" starting a
 * two-digit hex escape, at most one "#", square brackets only around an IP literal host.
 */
const URI_REFERENCE = /^(?:[A-Za-z][A-Za-z0-9+.-]*:)?(?:\/\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:%]*@)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]*)(?::[0-9]*)?)?[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*(?:\?[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*)?(?:#[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*)?$/;

export function jsonIsUriReference(s: string): boolean {
  return URI_REFERENCE.test(s) && !(s.includes("%") && BAD_ESCAPE.test(s));
}
