/**
 * Text-format string and number spelling, as protoc 3.21 prints them (`protoc --decode`, TextFormat::Print):
 * strings and bytes as C-escaped bytes (non-ASCII bytes in octal), doubles with SimpleDtoa, floats with SimpleFtoa.
 */
const UTF8 = /* @__PURE__ */ new TextEncoder();
/** The smallest normal float (FLT_MIN). */
const FLT_MIN = 1.1754943508222875e-38;

/** A quoted text-format string literal of raw bytes, escaped as protoc's CEscape does. */
export function textQuoteBytes(bytes: Uint8Array): string {
  let out = '"';
  for (const b of bytes) {
    if (b === 0x0a) out += "\\n";
    else if (b === 0x0d) out += "\\r";
    else if (b === 0x09) out += "\\t";
    else if (b === 0x22) out += '\\"';
    else if (b === 0x27) out += "\\'";
    else if (b === 0x5c) out += "\\\\";
    else if (b < 0x20 || b >= 0x7f) out += `\\${b.toString(8).padStart(3, "0")}`;
    else out += String.fromCharCode(b);
  }
  return `${out}"`;
}

export function textQuoteString(s: string): string {
  return textQuoteBytes(UTF8.encode(s));
}

/** C's `%.<precision>g`. */
function formatG(x: number, precision: number): string {
  // toExponential gives the exponent after rounding, which is what %g decides on.
  const [mantissa, e] = x.toExponential(precision - 1).split("e") as [string, string];
  const exponent = Number(e);
  const strip = (s: string) => (s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s);
  if (exponent < -4 || exponent >= precision) {
    const sign = exponent < 0 ? "-" : "+";
    return `${strip(mantissa)}e${sign}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  return strip(x.toFixed(Math.max(0, precision - 1 - exponent)));
}

function special(x: number): string | undefined {
  if (Number.isNaN(x)) return "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  return undefined;
}

/** SimpleDtoa: `%.15g` when that reads back to the same double, else `%.17g`. */
export function textDouble(x: number): string {
  const s = special(x);
  if (s !== undefined) return s;
  if (Object.is(x, -0)) return "-0";
  const short = formatG(x, 15);
  return Number(short) === x ? short : formatG(x, 17);
}

/**
 * SimpleFtoa: `%.6g` when that reads back to the same float, else `%.9g`. Its read-back (safe_strtof) fails on
 * subnormals (strtof reports ERANGE), so those always get 9 digits.
 */
export function textFloat(x: number): string {
  const s = special(x);
  if (s !== undefined) return s;
  if (Object.is(x, -0)) return "-0";
  const short = formatG(x, 6);
  const subnormal = Math.abs(x) < FLT_MIN;
  return !subnormal && Math.fround(Number(short)) === Math.fround(x) ? short : formatG(x, 9);
}
