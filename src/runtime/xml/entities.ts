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
  let out = "";
  let last = 0;
  for (let amp = raw.indexOf("&"); amp >= 0; amp = raw.indexOf("&", last)) {
    const semi = raw.indexOf(";", amp + 1);
    if (semi < 0 || semi - amp > 12) return { message: "unterminated entity reference", offset: amp };
    const name = raw.slice(amp + 1, semi);
    let value: string | undefined;
    if (name.charCodeAt(0) === 0x23 /* # */) {
      const hex = name.charCodeAt(1) === 0x78; /* x */
      const digits = name.slice(hex ? 2 : 1);
      if (!(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)) return { message: `malformed character reference &${name};`, offset: amp };
      const code = parseInt(digits, hex ? 16 : 10);
      if (!isXmlChar(code)) return { message: `character reference &${name}; is not an XML character`, offset: amp };
      value = String.fromCodePoint(code);
    } else {
      value = Object.prototype.hasOwnProperty.call(PREDEFINED, name) ? PREDEFINED[name] : undefined;
      if (value === undefined) return { message: `undefined entity &${name}; (only the five predefined entities exist)`, offset: amp };
    }
    out += raw.slice(last, amp) + value;
    last = semi + 1;
  }
  return out + raw.slice(last);
}
