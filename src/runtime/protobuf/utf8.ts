/**
 * UTF-8 for protobuf strings. Short strings (most field values) are converted by hand: TextDecoder/TextEncoder have
 * a fixed cost per call that dominates below a few dozen bytes. Long strings go to the platform codecs.
 */

/**
 * Node's own UTF-8 decoder (`Buffer.prototype.utf8Slice`, which works on any Uint8Array), found by feature
 * detection so the runtime still runs where there is no Buffer. It creates the string straight from the bytes: about
 * 70 ns for up to 80 bytes and 95 ns for 300, where TextDecoder takes 130 to 300 ns (it copies through a view and
 * a wrapper). Its replacement of invalid sequences by U+FFFD is the WHATWG one TextDecoder uses.
 */
const nodeUtf8Slice: ((this: Uint8Array, start: number, end: number) => string) | undefined = /* @__PURE__ */ (() => {
  const slice = (globalThis as { Buffer?: { prototype?: { utf8Slice?: unknown } } }).Buffer?.prototype?.utf8Slice;
  return typeof slice === "function" ? (slice as (this: Uint8Array, start: number, end: number) => string) : undefined;
})();

/**
 * Above this many bytes the platform decoder is used. By hand, the string is built by appending, and from 13
 * characters on V8 makes an append a cons string (a pair of pointers) instead of a flat copy: decoding a 13 to 16
 * byte string that way was a little faster than Node's decoder, but every charCodeAt on the result then went
 * through the runtime, which made encoding those strings again about ten times slower (18% of a vector tile
 * encode, whose strings are mostly that short). Node's decoder always makes a flat string, so by hand stops at 12.
 * Without it, TextDecoder's fixed cost per call wins only from 40 bytes.
 */
const LONG_DECODE = nodeUtf8Slice !== undefined ? 12 : 40;
/** From this many UTF-16 units, TextEncoder.encodeInto is faster than encoding by hand. */
const LONG_ENCODE = 28;
const lenientDecoder = /* @__PURE__ */ new TextDecoder("utf-8");
const strictDecoder = /* @__PURE__ */ new TextDecoder("utf-8", { fatal: true });
const encoder = /* @__PURE__ */ new TextEncoder();

/**
 * Decode buf[start, end). Invalid UTF-8 becomes U+FFFD when `strict` is false; when it is true the result is
 * `undefined` instead.
 */
export function utf8Decode(buf: Uint8Array, start: number, end: number, strict: true): string | undefined;
export function utf8Decode(buf: Uint8Array, start: number, end: number, strict: false): string;
export function utf8Decode(buf: Uint8Array, start: number, end: number, strict: boolean): string | undefined {
  if (end - start > LONG_DECODE) return platformDecode(buf, start, end, strict);
  let s = "";
  let i = start;
  // ASCII eight bytes at a time: one string append per eight characters.
  while (i + 8 <= end) {
    const b0 = buf[i]!, b1 = buf[i + 1]!, b2 = buf[i + 2]!, b3 = buf[i + 3]!;
    const b4 = buf[i + 4]!, b5 = buf[i + 5]!, b6 = buf[i + 6]!, b7 = buf[i + 7]!;
    if ((b0 | b1 | b2 | b3 | b4 | b5 | b6 | b7) & 0x80) break;
    s += String.fromCharCode(b0, b1, b2, b3, b4, b5, b6, b7);
    i += 8;
  }
  while (i < end) {
    const b = buf[i]!;
    if (b < 0x80) {
      s += String.fromCharCode(b);
      i++;
      continue;
    }
    // Multi-byte sequence: validate the full rules (no overlongs, no surrogates, at most U+10FFFF).
    let cp: number;
    let n: number;
    if (b >= 0xc2 && b <= 0xdf) {
      n = 2;
      cp = b & 0x1f;
    } else if (b >= 0xe0 && b <= 0xef) {
      n = 3;
      cp = b & 0x0f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      n = 4;
      cp = b & 0x07;
    } else return platformDecode(buf, start, end, strict);
    if (i + n > end) return platformDecode(buf, start, end, strict);
    for (let k = 1; k < n; k++) {
      const c = buf[i + k]!;
      if ((c & 0xc0) !== 0x80) return platformDecode(buf, start, end, strict);
      cp = (cp << 6) | (c & 0x3f);
    }
    if ((n === 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (n === 4 && (cp < 0x10000 || cp > 0x10ffff))) {
      return platformDecode(buf, start, end, strict);
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      s += String.fromCharCode(0xd800 | (cp >>> 10), 0xdc00 | (cp & 0x3ff));
    } else s += String.fromCharCode(cp);
    i += n;
  }
  return s;
}

function platformDecode(buf: Uint8Array, start: number, end: number, strict: boolean): string | undefined {
  if (nodeUtf8Slice !== undefined) {
    const s = nodeUtf8Slice.call(buf, start, end);
    // Invalid input always leaves a U+FFFD; without one the bytes were valid. With one (a real U+FFFD or an invalid
    // sequence), strict decoding asks the fatal TextDecoder below.
    if (!strict || s.indexOf("\uFFFD") === -1) return s;
  }
  const bytes = buf.subarray(start, end);
  if (!strict) return lenientDecoder.decode(bytes);
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Write `s` as UTF-8 into `buf` at `pos` (the caller made room for 3 bytes per UTF-16 unit) and return the new
 * position. Lone surrogates become U+FFFD, as TextEncoder does.
 */
export function utf8Write(s: string, buf: Uint8Array, pos: number): number {
  const n = s.length;
  if (n >= LONG_ENCODE) return pos + encoder.encodeInto(s, buf.subarray(pos)).written;
  for (let i = 0; i < n; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) buf[pos++] = c;
    else if (c < 0x800) {
      buf[pos++] = 0xc0 | (c >> 6);
      buf[pos++] = 0x80 | (c & 0x3f);
    } else {
      if (c >= 0xd800 && c <= 0xdfff) {
        const next = i + 1 < n ? s.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          const cp = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          i++;
          buf[pos++] = 0xf0 | (cp >> 18);
          buf[pos++] = 0x80 | ((cp >> 12) & 0x3f);
          buf[pos++] = 0x80 | ((cp >> 6) & 0x3f);
          buf[pos++] = 0x80 | (cp & 0x3f);
          continue;
        }
        c = 0xfffd;
      }
      buf[pos++] = 0xe0 | (c >> 12);
      buf[pos++] = 0x80 | ((c >> 6) & 0x3f);
      buf[pos++] = 0x80 | (c & 0x3f);
    }
  }
  return pos;
}

/** The UTF-8 length of a string (lone surrogates count as the 3 bytes of U+FFFD). */
export function utf8Length(s: string): number {
  let len = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) len += 1;
    else if (c < 0x800) len += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      len += 4;
      i++;
    } else len += 3;
  }
  return len;
}
