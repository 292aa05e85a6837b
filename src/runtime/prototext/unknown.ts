/**
 * Unknown fields (kept as wire bytes in `$unknown`) printed as protoc prints them: by number, varints in decimal,
 * fixed32/fixed64 in hex, length-delimited as a nested message when the bytes parse as one, else as a string.
 */
import { textQuoteBytes } from "./escape.js";

interface UnknownField {
  readonly number: number;
  readonly text: string | readonly UnknownField[];
}

/** Parses wire bytes into fields; undefined when they are not a well-formed sequence of fields. */
function parseFields(bytes: Uint8Array, depth: number): UnknownField[] | undefined {
  let pos = 0;
  const varint = (): bigint | undefined => {
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (pos >= bytes.length) return undefined;
      const b = bytes[pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return result & 0xffffffffffffffffn;
    }
    return undefined;
  };
  const fixed = (n: number): bigint | undefined => {
    if (pos + n > bytes.length) return undefined;
    let v = 0n;
    for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[pos + i]!);
    pos += n;
    return v;
  };
  const fields: UnknownField[] = [];
  const endGroup = (number: number): UnknownField[] | undefined => {
    // A group: fields until the matching end-group tag.
    const inner: UnknownField[] = [];
    for (;;) {
      if (pos >= bytes.length) return undefined;
      const tag = varint();
      if (tag === undefined) return undefined;
      const n = Number(tag >> 3n);
      const wt = Number(tag & 7n);
      if (wt === 4) return n === number ? inner : undefined;
      const f = one(n, wt);
      if (f === undefined) return undefined;
      inner.push(f);
    }
  };
  const one = (number: number, wireType: number): UnknownField | undefined => {
    if (number === 0) return undefined;
    switch (wireType) {
      case 0: {
        const v = varint();
        return v === undefined ? undefined : { number, text: v.toString() };
      }
      case 1: {
        const v = fixed(8);
        return v === undefined ? undefined : { number, text: `0x${v.toString(16).padStart(16, "0")}` };
      }
      case 5: {
        const v = fixed(4);
        return v === undefined ? undefined : { number, text: `0x${v.toString(16).padStart(8, "0")}` };
      }
      case 2: {
        const len = varint();
        if (len === undefined || BigInt(bytes.length - pos) < len) return undefined;
        const body = bytes.subarray(pos, pos + Number(len));
        pos += Number(len);
        const nested = body.length > 0 && depth < 100 ? parseFields(body, depth + 1) : undefined;
        return { number, text: nested ?? textQuoteBytes(body) };
      }
      case 3: {
        const inner = depth < 100 ? endGroup(number) : undefined;
        return inner === undefined ? undefined : { number, text: inner };
      }
      default:
        return undefined;
    }
  };
  while (pos < bytes.length) {
    const tag = varint();
    if (tag === undefined) return undefined;
    const f = one(Number(tag >> 3n), Number(tag & 7n));
    if (f === undefined) return undefined;
    fields.push(f);
  }
  return fields;
}

function printFields(fields: readonly UnknownField[], indent: string, out: string[]): void {
  for (const f of fields) {
    if (typeof f.text === "string") out.push(`${indent}${f.number}: ${f.text}\n`);
    else {
      out.push(`${indent}${f.number} {\n`);
      printFields(f.text, `${indent}  `, out);
      out.push(`${indent}}\n`);
    }
  }
}

/** Appends the text of unknown wire bytes; bytes that are not well-formed fields become a `#` comment. */
export function printUnknownFields(bytes: Uint8Array, indent: string, out: string[]): void {
  const fields = parseFields(bytes, 0);
  if (fields === undefined) out.push(`${indent}# unparsable unknown fields: ${textQuoteBytes(bytes)}\n`);
  else printFields(fields, indent, out);
}
