/**
 * Character and entity references in text and attribute values. Only the five predefined entities and numeric
 * character references exist here: a document cannot declare entities (DOCTYPE is refused), so any other name is
 * an error rather than a lookup.
 */

/** Why a reference could not be decoded, and the offset (in `raw`) where it starts. */
export interface EntityProblem {
  readonly message: string;
  readonly offset: number;
}

const PREDEFINED: Readonly<Record<string, string>> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

export function isXmlChar(code: number): boolean {
  return (
    code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/** Decode references in `raw`; returns the text, or an EntityProblem. */
export function decodeEntities(raw: string): string | EntityProblem {
  return decodeEntitiesIn(raw, 0, raw.length);
}

/**
 * Decode references in `src` between `start` and `end` without slicing that range out first (the parser's text
 * path); an EntityProblem's offset is relative to `start`.
 */
export function decodeEntitiesIn(src: string, start: number, end: number): string | EntityProblem {
  let out = "";
  let last = start;
  for (let amp = src.indexOf("&", start); amp >= 0 && amp < end; amp = src.indexOf("&", last)) {
    // The predefined entities are nearly every reference in real payloads: recognized in place, without slicing.
    const fast = predefinedAt(src, amp);
    const length = fast === undefined ? 0 : fast === "&" ? 5 : fast === "<" || fast === ">" ? 4 : 6;
    if (length > 0 && amp + length <= end) {
      out += src.slice(last, amp) + fast;
      last = amp + length;
      continue;
    }
    const semi = src.indexOf(";", amp + 1);
    if (semi < 0 || semi >= end || semi - amp > 12) return { message: "unterminated entity reference", offset: amp - start };
    const name = src.slice(amp + 1, semi);
    let value: string | undefined;
    if (name.charCodeAt(0) === 0x23 /* # */) {
      const hex = name.charCodeAt(1) === 0x78; /* x */
      const digits = name.slice(hex ? 2 : 1);
      if (!(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)) return { message: `malformed character reference &${name};`, offset: amp - start };
      const code = parseInt(digits, hex ? 16 : 10);
      if (!isXmlChar(code)) return { message: `character reference &${name}; is not an XML character`, offset: amp - start };
      value = String.fromCodePoint(code);
    } else {
      value = Object.prototype.hasOwnProperty.call(PREDEFINED, name) ? PREDEFINED[name] : undefined;
      if (value === undefined) return { message: `undefined entity &${name}; (only the five predefined entities exist)`, offset: amp - start };
    }
    out += src.slice(last, amp) + value;
    last = semi + 1;
  }
  return out + src.slice(last, end);
}

/** The character of a predefined entity reference starting at `amp` (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`). */
export function predefinedAt(raw: string, amp: number): string | undefined {
  const c1 = raw.charCodeAt(amp + 1);
  const c2 = raw.charCodeAt(amp + 2);
  const c3 = raw.charCodeAt(amp + 3);
  if (c3 === 0x3b /* ; */ && c2 === 0x74 /* t */) return c1 === 0x6c /* l */ ? "<" : c1 === 0x67 /* g */ ? ">" : undefined;
  const c4 = raw.charCodeAt(amp + 4);
  if (c1 === 0x61 /* a */ && c2 === 0x6d /* m */ && c3 === 0x70 /* p */ && c4 === 0x3b) return "&";
  if (raw.charCodeAt(amp + 5) !== 0x3b) return undefined;
  if (c1 === 0x71 /* q */ && c2 === 0x75 /* u */ && c3 === 0x6f /* o */ && c4 === 0x74 /* t */) return '"';
  if (c1 === 0x61 /* a */ && c2 === 0x70 /* p */ && c3 === 0x6f /* o */ && c4 === 0x73 /* s */) return "'";
  return undefined;
}
