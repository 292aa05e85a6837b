/**
 * The order of XSD date/time values and durations, for minInclusive/maxExclusive & co. on values kept as their
 * lexical strings. Both sides must have the same form (dateTime, date, time, gYearMonth, gYear, gMonthDay, gDay,
 * gMonth, duration); a value without a timezone is compared as if in UTC (XSD calls some of those comparisons
 * indeterminate; libxml2 compares them too). Durations are ordered as XSD 1.0 §3.2.6.2 says: by adding both to the
 * four reference dateTimes, undefined when those disagree (P1M and P30D).
 */

const TZ = "(Z|[+-]\\d\\d:\\d\\d)?";
const YEAR = "(-?\\d{4,})";
const TIME = "(\\d\\d):(\\d\\d):(\\d\\d(?:\\.\\d+)?)";

const FORMS: readonly { readonly re: RegExp; readonly fields: readonly ("y" | "mo" | "d" | "h" | "mi" | "s")[] }[] = [
  { re: new RegExp(`^${YEAR}-(\\d\\d)-(\\d\\d)T${TIME}${TZ}$`), fields: ["y", "mo", "d", "h", "mi", "s"] },
  { re: new RegExp(`^${YEAR}-(\\d\\d)-(\\d\\d)${TZ}$`), fields: ["y", "mo", "d"] },
  { re: new RegExp(`^${TIME}${TZ}$`), fields: ["h", "mi", "s"] },
  { re: new RegExp(`^${YEAR}-(\\d\\d)${TZ}$`), fields: ["y", "mo"] },
  { re: new RegExp(`^${YEAR}${TZ}$`), fields: ["y"] },
  { re: new RegExp(`^--(\\d\\d)-(\\d\\d)${TZ}$`), fields: ["mo", "d"] },
  { re: new RegExp(`^---(\\d\\d)${TZ}$`), fields: ["d"] },
  { re: new RegExp(`^--(\\d\\d)(?:--)?${TZ}$`), fields: ["mo"] },
];

/** Days from 1970-01-01 to a proleptic Gregorian date (XSD's year 0 is 1 BCE, as in ISO 8601). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Seconds since 1970-01-01T00:00:00Z of a date/time lexical form, with its form's index; undefined if none. */
function instant(text: string): { form: number; seconds: number } | undefined {
  for (let form = 0; form < FORMS.length; form++) {
    const { re, fields } = FORMS[form]!;
    const m = re.exec(text);
    if (!m) continue;
    // Absent parts take reference values (the same on both sides, as both have the same form).
    const v = { y: 1972, mo: 1, d: 1, h: 0, mi: 0, s: 0 };
    fields.forEach((f, i) => (v[f] = Number(m[i + 1])));
    const tz = m[fields.length + 1];
    let offset = 0;
    if (tz !== undefined && tz !== "Z") offset = (tz[0] === "-" ? -1 : 1) * (Number(tz.slice(1, 3)) * 60 + Number(tz.slice(4, 6)));
    const seconds = daysFromCivil(v.y, v.mo, v.d) * 86400 + v.h * 3600 + v.mi * 60 + v.s - offset * 60;
    return { form, seconds };
  }
  return undefined;
}

const DURATION = /^(-)?P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

function duration(text: string): { months: number; seconds: number } | undefined {
  const m = DURATION.exec(text);
  if (!m || text === "P" || text.endsWith("T")) return undefined;
  const n = (i: number) => Number(m[i] ?? 0);
  const sign = m[1] ? -1 : 1;
  return { months: sign * (n(2) * 12 + n(3)), seconds: sign * (n(4) * 86400 + n(5) * 3600 + n(6) * 60 + n(7)) };
}

/** The reference dateTimes of XSD 1.0 §3.2.6.2, as [year, month]: each is the first of its month. */
const REFERENCES = [[1696, 9], [1697, 2], [1903, 3], [1903, 7]] as const;

function compareDurations(a: { months: number; seconds: number }, b: { months: number; seconds: number }): number | undefined {
  let result: number | undefined;
  for (const [y, mo] of REFERENCES) {
    const at = (d: { months: number; seconds: number }) => {
      const total = y * 12 + (mo - 1) + d.months;
      return daysFromCivil(Math.floor(total / 12), (total % 12 + 12) % 12 + 1, 1) * 86400 + d.seconds;
    };
    const sign = Math.sign(at(a) - at(b));
    if (result !== undefined && sign !== result) return undefined;
    result = sign;
  }
  return result;
}

/** -1, 0 or 1 when `a` and `b` are date/time values of the same form or two durations; undefined otherwise. */
export function compareXsdTemporal(a: string, b: string): number | undefined {
  const da = duration(a);
  if (da !== undefined) {
    const db = duration(b);
    return db === undefined ? undefined : compareDurations(da, db);
  }
  const ia = instant(a);
  const ib = instant(b);
  if (ia === undefined || ib === undefined || ia.form !== ib.form) return undefined;
  return Math.sign(ia.seconds - ib.seconds);
}
