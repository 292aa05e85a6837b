import { XmlEncodeError } from "./errors.js";

/**
 * Escaping for text and attribute values. All five specials are escaped everywhere (a `'` or `"` in text is legal
 * but escaping it costs nothing and keeps one rule). Carriage returns, and tabs and newlines in attributes, become
 * character references so that a reader's normalization gives back the same string. Characters XML 1.0 cannot carry
 * at all (most C0 controls, U+FFFE/U+FFFF, unpaired surrogates) are refused with an XmlEncodeError.
 */

/**
 * The characters that need work (an entity, or a refusal, or a surrogate to check for pairing). One native regular
 * expression search finds the first (a JS loop over char codes measured 1.5-3x slower, most on longer values);
 * values without one, most of them, are returned as they are, and the others are escaped from that index on.
 */
// eslint-disable-next-line no-control-regex
const TEXT_SPECIAL = /[&<>"'\r\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/;
// eslint-disable-next-line no-control-regex
const ATTR_SPECIAL = /[&<>"'\r\n\t\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/;

export function escapeText(value: string): string {
  const i = value.search(TEXT_SPECIAL);
  return i < 0 ? value : escapeFrom(value, i, false);
}

export function escapeAttribute(value: string): string {
  const i = value.search(ATTR_SPECIAL);
  return i < 0 ? value : escapeFrom(value, i, true);
}

/** The escaped form of `value`, whose first `start` code units need nothing. */
function escapeFrom(value: string, start: number, attribute: boolean): string {
  let out = value.slice(0, start);
  let last = start;
  for (let i = start; i < value.length; i++) {
    const c = value.charCodeAt(i);
    let rep: string | undefined;
    switch (c) {
      case 0x26: rep = "&amp;"; break;
      case 0x3c: rep = "&lt;"; break;
      case 0x3e: rep = "&gt;"; break;
      case 0x22: rep = "&quot;"; break;
      case 0x27: rep = "&apos;"; break;
      case 0x0d: rep = "&#13;"; break;
      case 0x0a: if (attribute) rep = "&#10;"; break;
      case 0x09: if (attribute) rep = "&#9;"; break;
      default:
        if (c < 0x20 || c === 0xfffe || c === 0xffff) throw forbidden(c, i);
        if (c >= 0xd800 && c <= 0xdfff) {
          const next = value.charCodeAt(i + 1);
          if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
          else throw forbidden(c, i);
        }
    }
    if (rep !== undefined) {
      out += value.slice(last, i) + rep;
      last = i + 1;
    }
  }
  return out + value.slice(last);
}

function forbidden(code: number, index: number): XmlEncodeError {
  const hex = code.toString(16).toUpperCase().padStart(4, "0");
  return new XmlEncodeError(`character U+${hex} at index ${index} cannot be written in XML 1.0`);
}
