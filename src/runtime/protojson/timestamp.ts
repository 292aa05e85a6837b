import { describeJson, ProtoJsonError, protoJsonError } from "./errors.js";

/**
 * google.protobuf.Timestamp as RFC 3339 text: always UTC ("Z") on output with 0, 3, 6 or 9 fractional digits;
 * on input any offset is accepted. The range is that of the proto definition: 0001-01-01T00:00:00Z to
 * 9999-12-31T23:59:59.999999999Z.
 */
const MIN_SECONDS = -62135596800n;
const MAX_SECONDS = 253402300799n;
const TIMESTAMP_TEXT = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,9}))?(Z|[+-][0-9]{2}:[0-9]{2})$/;

/** The fractional part of seconds as protoc writes it: 3, 6 or 9 digits, nothing for whole seconds. */
export function nanosFraction(nanos: number): string {
  if (nanos === 0) return "";
  if (nanos % 1_000_000 === 0) return `.${String(nanos / 1_000_000).padStart(3, "0")}`;
  if (nanos % 1_000 === 0) return `.${String(nanos / 1_000).padStart(6, "0")}`;
  return `.${String(nanos).padStart(9, "0")}`;
}

export function timestampToJson(seconds: bigint | string | number, nanos: number): string {
  const s = BigInt(seconds);
  if (s < MIN_SECONDS || s > MAX_SECONDS) throw new ProtoJsonError("", "google.protobuf.Timestamp out of range");
  if (!Number.isInteger(nanos) || nanos < 0 || nanos > 999_999_999) {
    throw new ProtoJsonError("", "google.protobuf.Timestamp nanos out of range");
  }
  // toISOString writes years 0001..9999 with four digits, which is exactly the Timestamp range.
  const whole = new Date(Number(s) * 1000).toISOString().slice(0, 19);
  return `${whole}${nanosFraction(nanos)}Z`;
}

export function timestampFromJson(value: unknown, path: string, key?: string | number): { seconds: bigint; nanos: number } {
  const m = typeof value === "string" ? TIMESTAMP_TEXT.exec(value) : null;
  if (!m) throw protoJsonError(path, key, `expected an RFC 3339 timestamp, got ${describeJson(value)}`);
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
  date.setUTCFullYear(year);
  // Date normalises 02-30 to 03-01 and 24:00 to the next day: a changed field means the text was not a real time.
  const valid =
    year >= 1 && hour < 24 && minute < 60 && second < 60 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  if (!valid) throw protoJsonError(path, key, `not a valid date and time: ${describeJson(value)}`);
  let seconds = BigInt(date.getTime() / 1000);
  const offset = m[8]!;
  if (offset !== "Z") {
    const minutes = Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6));
    seconds -= BigInt(offset[0] === "-" ? -minutes * 60 : minutes * 60);
  }
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS) throw protoJsonError(path, key, "timestamp out of range");
  return { seconds, nanos: m[7] === undefined ? 0 : Number(m[7].padEnd(9, "0")) };
}

/** A google.protobuf.Timestamp held as a Date (`dates: "Date"`) as RFC 3339 text; an invalid or out-of-range Date throws. */
export function dateToJson(d: Date): string {
  const ms = d.getTime();
  if (!Number.isFinite(ms)) throw new ProtoJsonError("", "google.protobuf.Timestamp: invalid Date");
  const seconds = Math.floor(ms / 1000);
  return timestampToJson(seconds, (ms - seconds * 1000) * 1_000_000);
}

/** RFC 3339 text as a Date (`dates: "Date"`): digits below the millisecond are dropped (floor, as the binary codec does). */
export function dateFromJson(value: unknown, path: string, key?: string | number): Date {
  const t = timestampFromJson(value, path, key);
  // The Timestamp range (years 1..9999) lies well inside a Date's.
  return new Date(Number(t.seconds) * 1000 + Math.floor(t.nanos / 1_000_000));
}
