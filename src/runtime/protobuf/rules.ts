/**
 * What generated proto validators call for protovalidate rules (buf/validate/validate.proto): violations with
 * protovalidate's rule ids and field paths, string measures, the well-known string formats, byte comparisons.
 * Functions only; the rule logic itself is generated straight-line code.
 */
import type { ValidationIssue } from "../validation.js";

/** A violation: `rule` is protovalidate's rule id ("string.min_len"), `field` its field path ("items[2].name"). */
export function pvViolation(issues: ValidationIssue[], path: string, field: string, rule: string, message: string, forKey?: boolean): void {
  issues.push(forKey ? { path, rule, message, field, forKey: true } : { path, rule, message, field });
}

/** Drop the rule violations pushed since `from` (type issues stay): for fields with `ignore: IGNORE_ALWAYS`. */
export function pvDropRuleViolations(issues: ValidationIssue[], from: number): void {
  let w = from;
  for (let i = from; i < issues.length; i++) if (issues[i]!.field === undefined) issues[w++] = issues[i]!;
  issues.length = w;
}

/** protovalidate's field path of a field of the message at `base` ("" for the root). */
export function pvField(base: string, name: string): string {
  return base === "" ? name : base + "." + name;
}

/** A map entry's field path: string keys quoted as JSON strings, others as written. */
export function pvKey(base: string, key: string, quoted: boolean): string {
  return base + "[" + (quoted ? JSON.stringify(key) : key) + "]";
}

/** Unicode code points in a string (CEL's size() of a string). */
export function pvRunes(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** Bytes of a string in UTF-8 (lone surrogates count as U+FFFD, as the encoder writes them). */
export function pvUtf8Bytes(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

export function pvBytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function pvBytesIndexOf(a: Uint8Array, b: Uint8Array, from = 0): number {
  outer: for (let i = from; i + b.length <= a.length; i++) {
    for (let j = 0; j < b.length; j++) if (a[i + j] !== b[j]) continue outer;
    return i;
  }
  return -1;
}

export function pvBytesStartsWith(a: Uint8Array, b: Uint8Array): boolean {
  return b.length <= a.length && pvBytesIndexOf(a.subarray(0, b.length), b) === 0;
}

export function pvBytesEndsWith(a: Uint8Array, b: Uint8Array): boolean {
  return b.length <= a.length && pvBytesIndexOf(a.subarray(a.length - b.length), b) === 0;
}

/** Bytes read as UTF-8 text (for `bytes.pattern`); undefined when they are not valid UTF-8. */
export function pvBytesText(b: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(b);
  } catch {
    return undefined;
  }
}

/** Whether all items differ (repeated.unique): bytes by content, the rest by value. */
export function pvUnique(list: readonly unknown[]): boolean {
  if (list.length < 2) return true;
  if (list[0] instanceof Uint8Array) {
    const seen = new Set<string>();
    for (const b of list as Uint8Array[]) {
      const k = Array.prototype.join.call(b, ",");
      if (seen.has(k)) return false;
      seen.add(k);
    }
    return true;
  }
  const seen = new Set<unknown>();
  for (const v of list) {
    const k = typeof v === "number" && v === 0 ? 0 : v;
    if (seen.has(k)) return false;
    seen.add(k);
  }
  return true;
}

// ---- well-known string formats ------------------------------------------------------------------------------

/** An email address as HTML's `type=email` accepts it (addr-spec without quoted local parts or IP literals). */
export function pvIsEmail(s: string): boolean {
  const at = s.indexOf("@");
  if (at <= 0 || at !== s.lastIndexOf("@")) return false;
  if (!/^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+$/.test(s.slice(0, at))) return false;
  const host = s.slice(at + 1);
  return host.length <= 253 && pvIsHostname(host) && !host.endsWith(".");
}

/** A hostname (RFC 1034 labels of letters, digits and hyphens, 1 to 63 long; the last not all digits). */
export function pvIsHostname(s: string): boolean {
  if (s.length > 253) return false;
  const name = s.endsWith(".") ? s.slice(0, -1) : s;
  if (name === "") return false;
  const labels = name.split(".");
  for (const label of labels) {
    if (label.length === 0 || label.length > 63) return false;
    if (!/^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/.test(label)) return false;
  }
  return !/^[0-9]+$/.test(labels[labels.length - 1]!);
}

function isIpv4(s: string): boolean {
  const parts = s.split(".");
  if (parts.length !== 4) return false;
  for (const p of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(p) || Number(p) > 255) return false;
  }
  return true;
}

/** IPv6 (RFC 4291 text forms, with an embedded IPv4 tail and an optional %zone). */
function isIpv6(s: string, zone: boolean): boolean {
  const pct = s.indexOf("%");
  if (pct >= 0) {
    if (!zone || pct === s.length - 1) return false;
    s = s.slice(0, pct);
  }
  let groups = 0;
  const halves = s.split("::");
  if (halves.length > 2) return false;
  const count = (part: string, last: boolean): boolean => {
    if (part === "") return true;
    const pieces = part.split(":");
    for (let i = 0; i < pieces.length; i++) {
      const p = pieces[i]!;
      if (last && i === pieces.length - 1 && p.includes(".")) {
        if (!isIpv4(p)) return false;
        groups += 2;
      } else {
        if (!/^[0-9A-Fa-f]{1,4}$/.test(p)) return false;
        groups++;
      }
    }
    return true;
  };
  if (halves.length === 2) {
    if (!count(halves[0]!, false) || !count(halves[1]!, true)) return false;
    return groups < 8;
  }
  return count(s, true) && groups === 8;
}

/** An IP address: version 4, 6, or either (0). */
export function pvIsIp(s: string, version: 0 | 4 | 6): boolean {
  if (version === 4) return isIpv4(s);
  if (version === 6) return isIpv6(s, true);
  return isIpv4(s) || isIpv6(s, true);
}

/** "address/length"; `strict`: the host bits are zero (a network prefix rather than an address with a length). */
export function pvIsIpPrefix(s: string, version: 0 | 4 | 6, strict: boolean): boolean {
  const slash = s.indexOf("/");
  if (slash < 0) return false;
  const addr = s.slice(0, slash);
  const len = s.slice(slash + 1);
  if (!/^(0|[1-9][0-9]{0,2})$/.test(len)) return false;
  const bits = Number(len);
  const v4 = isIpv4(addr);
  const v6 = !v4 && isIpv6(addr, false);
  if (!(version === 4 ? v4 : version === 6 ? v6 : v4 || v6)) return false;
  if (bits > (v4 ? 32 : 128)) return false;
  if (!strict) return true;
  const bytes = v4 ? addr.split(".").map(Number) : ipv6Bytes(addr);
  for (let bit = bits; bit < bytes.length * 8; bit++) if ((bytes[bit >> 3]! >> (7 - (bit & 7))) & 1) return false;
  return true;
}

function ipv6Bytes(s: string): number[] {
  const expand = (part: string): number[] => {
    if (part === "") return [];
    const out: number[] = [];
    for (const p of part.split(":")) {
      if (p.includes(".")) out.push(...p.split(".").map(Number));
      else {
        const n = parseInt(p, 16);
        out.push(n >> 8, n & 255);
      }
    }
    return out;
  };
  const [head, tail] = s.split("::");
  const a = expand(head!);
  if (tail === undefined) return a;
  const b = expand(tail);
  return [...a, ...new Array<number>(16 - a.length - b.length).fill(0), ...b];
}

/** "host:port" with a hostname, IPv4 or [IPv6] host; `portRequired` false also takes a host alone. */
export function pvIsHostAndPort(s: string, portRequired: boolean): boolean {
  if (s === "") return false;
  let host: string;
  let rest: string;
  if (s.startsWith("[")) {
    const end = s.indexOf("]");
    if (end < 0) return false;
    host = s.slice(1, end);
    if (!isIpv6(host, true)) return false;
    rest = s.slice(end + 1);
    if (rest === "") return !portRequired;
    if (!rest.startsWith(":")) return false;
  } else {
    const colon = s.lastIndexOf(":");
    if (colon < 0) return !portRequired && (pvIsHostname(s) || isIpv4(s));
    host = s.slice(0, colon);
    if (!(pvIsHostname(host) || isIpv4(host))) return false;
    rest = s.slice(colon);
  }
  const port = rest.slice(1);
  return /^(0|[1-9][0-9]{0,4})$/.test(port) && Number(port) <= 65535;
}

const PCT = "%[0-9A-Fa-f]{2}";
const UNRESERVED = "A-Za-z0-9\\-._~";
const SUB_DELIMS = "!$&'()*+,;=";
const PCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT})`;
const URI_TAIL = `(?:\\?(?:${PCHAR}|[/?])*)?(?:#(?:${PCHAR}|[/?])*)?$`;

/** authority = [userinfo "@"] host [":" port], with RFC 3986's host forms (IPv6 literals may carry a %25 zone). */
function isAuthority(a: string): boolean {
  const at = a.lastIndexOf("@");
  if (at >= 0 && !new RegExp(`^(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT})*$`).test(a.slice(0, at))) return false;
  let hostPort = a.slice(at + 1);
  if (hostPort.startsWith("[")) {
    const end = hostPort.indexOf("]");
    if (end < 0) return false;
    const lit = hostPort.slice(1, end);
    const ok = /^v[0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+$/.test(lit) || isIpv6(lit.replace(/%25/, "%"), true) && (!lit.includes("%") || /%25(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+$/.test(lit));
    if (!ok) return false;
    hostPort = hostPort.slice(end + 1);
    return hostPort === "" || /^:[0-9]*$/.test(hostPort);
  }
  const colon = hostPort.indexOf(":");
  const host = colon < 0 ? hostPort : hostPort.slice(0, colon);
  if (colon >= 0 && !/^[0-9]*$/.test(hostPort.slice(colon + 1))) return false;
  return new RegExp(`^(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT})*$`).test(host);
}

function isHierOrRelative(s: string, rootless: boolean): boolean {
  const q = s.search(/[?#]/);
  const path = q < 0 ? s : s.slice(0, q);
  if (!new RegExp(`^${URI_TAIL}`).test(q < 0 ? "" : s.slice(q))) return false;
  if (path.startsWith("//")) {
    const slash = path.indexOf("/", 2);
    const authority = slash < 0 ? path.slice(2) : path.slice(2, slash);
    const rest = slash < 0 ? "" : path.slice(slash);
    return isAuthority(authority) && new RegExp(`^(?:/${PCHAR}*)*$`).test(rest);
  }
  // path-absolute / path-rootless / path-empty (a relative ref's first segment has no colon: path-noscheme).
  const segment = rootless ? PCHAR : `(?:[${UNRESERVED}${SUB_DELIMS}@]|${PCT})`;
  return new RegExp(`^(?:/?(?:${segment}+(?:/${PCHAR}*)*)?|/)$`).test(path);
}

/** An absolute URI (RFC 3986 `URI`: a scheme, then hier-part, query, fragment). */
export function pvIsUri(s: string): boolean {
  const m = /^[A-Za-z][A-Za-z0-9+\-.]*:/.exec(s);
  return m !== null && isHierOrRelative(s.slice(m[0].length), true);
}

/** A URI or a relative reference (RFC 3986 `URI-reference`). */
export function pvIsUriRef(s: string): boolean {
  return pvIsUri(s) || isHierOrRelative(s, false);
}

// ---- CEL: what compiled CEL rules call -----------------------------------------------------------------------

/** Thrown by compiled CEL on what CEL calls an error (overflow, division by zero, index out of range). */
export class CelError extends Error {}

export function celIndex(list: readonly unknown[], i: bigint): unknown {
  if (i < 0n || i >= BigInt(list.length)) throw new CelError("index out of range");
  return list[Number(i)];
}

export function celKey(map: Record<string, unknown>, k: unknown): unknown {
  const key = String(k);
  if (!Object.hasOwn(map, key)) throw new CelError("no such key");
  return map[key];
}

/** CEL equality: numbers across int/uint/double, bytes and lists by content. */
export function celEquals(a: unknown, b: unknown): boolean {
  if ((typeof a === "bigint" || typeof a === "number") && (typeof b === "bigint" || typeof b === "number")) return a == b;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return pvBytesEqual(a, b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => celEquals(x, b[i]));
  return a === b;
}

export function celIn(v: unknown, list: readonly unknown[]): boolean {
  for (const x of list) if (celEquals(v, x)) return true;
  return false;
}

const I64_MIN = -9223372036854775808n;
const I64_MAX = 9223372036854775807n;
const U64_MAX = 18446744073709551615n;

/** int / uint arithmetic with CEL's overflow and division errors. */
export function celIntOp(op: string, a: bigint, b: bigint, unsigned: boolean): bigint {
  let r: bigint;
  switch (op) {
    case "+":
      r = a + b;
      break;
    case "-":
      r = a - b;
      break;
    case "*":
      r = a * b;
      break;
    case "/":
      if (b === 0n) throw new CelError("division by zero");
      r = a / b;
      break;
    default:
      if (b === 0n) throw new CelError("modulus by zero");
      r = a % b;
  }
  if (unsigned ? r < 0n || r > U64_MAX : r < I64_MIN || r > I64_MAX) throw new CelError("overflow");
  return r;
}

export function celToInt(v: unknown): bigint {
  if (typeof v === "bigint") {
    if (v > I64_MAX) throw new CelError("overflow");
    return v;
  }
  if (typeof v === "number") {
    if (!Number.isFinite(v) || v <= -9223372036854775808 || v >= 9223372036854775807) throw new CelError("overflow");
    return BigInt(Math.trunc(v));
  }
  if (typeof v === "string" && /^-?\d+$/.test(v)) return celToInt(BigInt(v));
  throw new CelError("bad int conversion");
}

export function celToUint(v: unknown): bigint {
  const n = typeof v === "bigint" ? v : typeof v === "number" && Number.isFinite(v) ? BigInt(Math.trunc(v)) : typeof v === "string" && /^\d+$/.test(v) ? BigInt(v) : -1n;
  if (n < 0n || n > U64_MAX) throw new CelError("bad uint conversion");
  return n;
}

export function celToString(v: unknown): string {
  return typeof v === "number" && Number.isInteger(v) && !Object.is(v, -0) && Math.abs(v) < 1e21 ? String(v) : String(v);
}

export function celBytesToString(b: Uint8Array): string {
  const s = pvBytesText(b);
  if (s === undefined) throw new CelError("invalid UTF-8");
  return s;
}

/** A Duration or Timestamp (seconds in any int64 representation, nanos) as bigint nanoseconds; absent is zero. */
/** A google.protobuf.Timestamp held as a Date (`dates: "Date"`) as nanoseconds since the epoch (0 when unset). */
export function celDateNanos(d: unknown): bigint {
  return d instanceof Date && !Number.isNaN(d.getTime()) ? BigInt(d.getTime()) * 1000000n : 0n;
}

export function celNanos(seconds: unknown, nanos: unknown): bigint {
  return BigInt((seconds as bigint | string | number | undefined) ?? 0) * 1000000000n + BigInt((nanos as number | undefined) ?? 0);
}

/** CEL's string.format([...]) for %s, %d, %f (6 digits), %e, %x, %o, %b and %%: what rule messages use. */
export function celFormat(format: string, args: readonly unknown[]): string {
  let i = 0;
  return format.replace(/%(\.\d+)?([sdfexXob%])/g, (_m, precision: string | undefined, verb: string) => {
    if (verb === "%") return "%";
    if (i >= args.length) throw new CelError("format: too few arguments");
    const v = args[i++];
    switch (verb) {
      case "d":
        return String(v);
      case "f":
        return Number(v).toFixed(precision ? Number(precision.slice(1)) : 6);
      case "e":
        return Number(v).toExponential(precision ? Number(precision.slice(1)) : 6);
      case "x":
      case "X": {
        const text = v instanceof Uint8Array ? Array.from(v, (b) => b.toString(16).padStart(2, "0")).join("") : typeof v === "string" ? Array.from(new TextEncoder().encode(v), (b) => b.toString(16).padStart(2, "0")).join("") : (v as bigint).toString(16);
        return verb === "X" ? text.toUpperCase() : text;
      }
      case "o":
        return (v as bigint).toString(8);
      case "b":
        return typeof v === "boolean" ? String(v) : (v as bigint).toString(2);
      default:
        return Array.isArray(v) ? `[${v.map((x) => celToString(x)).join(", ")}]` : celToString(v);
    }
  });
}

// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999999Z, and ±315,576,000,000 s: google.protobuf's ranges.
const TIMESTAMP_MIN = -62135596800000000000n;
const TIMESTAMP_MAX = 253402300799999999999n;
const DURATION_MAX = 315576000000999999999n;

export function celTimestampInRange(ns: bigint): bigint {
  if (ns < TIMESTAMP_MIN || ns > TIMESTAMP_MAX) throw new CelError("timestamp out of range");
  return ns;
}

export function celDurationInRange(ns: bigint): bigint {
  if (ns < -DURATION_MAX || ns > DURATION_MAX) throw new CelError("duration out of range");
  return ns;
}
