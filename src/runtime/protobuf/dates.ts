/**
 * google.protobuf.Timestamp held as a JavaScript `Date` (the `dates: "Date"` option of a proto spec): the message
 * body read into and written from a Date directly. A Date has millisecond precision: nanoseconds below a millisecond
 * are dropped on decode (the Date is the last millisecond at or before the instant, i.e. floor, for negative seconds
 * too). A Timestamp whose instant lies outside what a Date can hold (±8.64e15 ms, about ±273,790 years) is a decode
 * error; every Timestamp in the valid range (0001-01-01..9999-12-31) fits. Unknown fields inside the Timestamp are
 * dropped (there is nowhere to keep them on a Date).
 */
import { pbFail, ProtobufEncodeError } from "./errors.js";
import { pbReadInt32, pbReadInt64, pbReadTag, type PbReader } from "./reader.js";
import { pbOverrun, pbSkipField, pbTooDeep } from "./skip.js";
import { pbWriteInt32, pbWriteInt64, pbWriteTag, type PbWriter } from "./writer.js";

/** The largest magnitude of a Date's time value, in milliseconds (ECMA-262 TimeClip). */
const MAX_DATE_MS = 8.64e15;

/** Seconds and nanoseconds of a Date (nanos in 0..999,000,000, seconds = floor(ms / 1000)); throws on an invalid Date. */
export function pbDateParts(d: Date): { seconds: number; nanos: number } {
  const ms = d.getTime();
  if (!Number.isFinite(ms)) throw new ProtobufEncodeError("google.protobuf.Timestamp: invalid Date");
  const seconds = Math.floor(ms / 1000);
  return { seconds, nanos: (ms - seconds * 1000) * 1_000_000 };
}

/** The Date for a Timestamp's seconds and nanos (floor to the millisecond); undefined when a Date cannot hold it. */
export function pbDateOf(seconds: bigint | string | number, nanos: number): Date | undefined {
  const s = typeof seconds === "number" ? seconds : Number(seconds);
  const ms = s * 1000 + Math.floor(nanos / 1_000_000);
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_DATE_MS) return undefined;
  return new Date(ms);
}

/** Writes the body of a google.protobuf.Timestamp (seconds = 1, nanos = 2, zeros omitted as proto3 does). */
export function pbWriteDate(w: PbWriter, d: Date): void {
  const { seconds, nanos } = pbDateParts(d);
  if (seconds !== 0) {
    pbWriteTag(w, 0x08);
    pbWriteInt64(w, seconds);
  }
  if (nanos !== 0) {
    pbWriteTag(w, 0x10);
    pbWriteInt32(w, nanos);
  }
}

/**
 * Reads the body of a google.protobuf.Timestamp (bytes up to `end`) as a Date. A field present twice merges as
 * protobuf does (the last seconds and the last nanos win), so `into` (the Date already there) gives the start values.
 */
export function pbReadDate(r: PbReader, end: number, depth: number, into: Date | undefined): Date {
  if (depth > r.maxDepth) pbTooDeep(r);
  const start = r.pos;
  let seconds: bigint = 0n;
  let nanos = 0;
  if (into !== undefined) {
    const parts = pbDateParts(into);
    seconds = BigInt(parts.seconds);
    nanos = parts.nanos;
  }
  while (r.pos < end) {
    const tag = pbReadTag(r);
    switch (tag) {
      case 0x08:
        seconds = pbReadInt64(r);
        break;
      case 0x10:
        nanos = pbReadInt32(r);
        break;
      default:
        pbSkipField(r, tag, depth);
    }
  }
  if (r.pos > end) pbOverrun(r, end);
  const d = pbDateOf(seconds, nanos);
  if (d === undefined) pbFail(`google.protobuf.Timestamp ${seconds}s ${nanos}ns is outside the range of a Date (±8.64e15 ms)`, start);
  return d;
}
