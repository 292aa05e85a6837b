import { describeJson, ProtoJsonError, protoJsonError } from "./errors.js";
import { nanosFraction } from "./timestamp.js";

/** google.protobuf.Duration as seconds with an "s" suffix: "1.5s", "-0.000001s"; about +-10000 years. */
const MAX_SECONDS = 315576000000n;
const DURATION_TEXT = /^(-)?([0-9]+)(?:\.([0-9]{1,9}))?s$/;

export function durationToJson(seconds: bigint | string | number, nanos: number): string {
  const s = BigInt(seconds);
  if (s < -MAX_SECONDS || s > MAX_SECONDS) throw new ProtoJsonError("", "google.protobuf.Duration out of range");
  if (!Number.isInteger(nanos) || nanos < -999_999_999 || nanos > 999_999_999 || (s > 0n && nanos < 0) || (s < 0n && nanos > 0)) {
    throw new ProtoJsonError("", "google.protobuf.Duration nanos out of range or of the wrong sign");
  }
  const negative = s < 0n || nanos < 0;
  return `${negative ? "-" : ""}${(negative ? -s : s).toString()}${nanosFraction(Math.abs(nanos))}s`;
}

export function durationFromJson(value: unknown, path: string, key?: string | number): { seconds: bigint; nanos: number } {
  const m = typeof value === "string" ? DURATION_TEXT.exec(value) : null;
  if (!m) throw protoJsonError(path, key, `expected a duration such as "1.5s", got ${describeJson(value)}`);
  const seconds = BigInt(m[2]!);
  if (seconds > MAX_SECONDS) throw protoJsonError(path, key, "duration out of range");
  const nanos = m[3] === undefined ? 0 : Number(m[3].padEnd(9, "0"));
  // "-0.5s" has no negative seconds to carry the sign, so nanos carries it (and -0 is 0).
  return m[1] ? { seconds: -seconds, nanos: nanos === 0 ? 0 : -nanos } : { seconds, nanos };
}
