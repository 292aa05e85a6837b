import { XmlEncodeError } from "./errors.js";

/**
 * Escaping for text and attribute values. All five specials are escaped everywhere (a `'` or `"` in text is legal
 * but escaping it costs nothing and keeps one rule). Carriage returns, and tabs and newlines in attributes, become
 * character references so that a reader's normalization gives back the same string. Characters XML 1.0 cannot carry
 * at all (most C0 controls, U+FFFE/U+FFFF, unpaired surrogates) are refused with an XmlEncodeError.
 */

/**
 * What a code unit below 0x40 needs: 0 nothing, 1 an entity in text and attributes, 2 an entity in attributes only
 * (tab, newline), 3 refusal (C0 controls XML 1.0 cannot carry). Code units from 0x40 up need nothing except
 * surrogates (checked for pairing) and U+FFFE/U+FFFF (refused). One table read per character finds the first one
 * that needs work; most values have none and are returned as they are, without a regular expression call.
 */
const SPECIAL = new Uint8Array(0x40);
for (let c = 0; c < 0x20; c++) SPECIAL[c] = 3;
SPECIAL[0x09] = 2;
SPECIAL[0x0a] = 2;
for (const c of [0x0d, 0x26, 0x3c, 0x3e, 0x22, 0x27]) SPECIAL[c] = 1;

export function escapeText(value: string): string {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x40 ? SPECIAL[c]! & 1 : c >= 0xd800 && (c < 0xe000 || c >= 0xfffe)) return escapeFrom(value, i, false);
  }
  return value;
}

export function escapeAttribute(value: string): string {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x40 ? SPECIAL[c]! !== 0 : c >= 0xd800 && (c < 0xe000 || c >= 0xfffe)) return escapeFrom(value, i, true);
  }
  return value;
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
