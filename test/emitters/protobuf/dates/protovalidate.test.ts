/**
 * protovalidate timestamp rules (gt, gte/lt, const, lt_now, required, repeated items, map values, CEL) compiled for
 * `dates: "Date"`: on millisecond-exact Timestamps our validators over Dates give protovalidate-es's verdicts (rule ids
 * and field paths) over Timestamp messages.
 */
import { create } from "@bufbuild/protobuf";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { prepare, verdicts, type Agreement } from "../protovalidate/harness.js";

let a: Agreement;
beforeAll(async () => {
  a = await prepare(path.join(import.meta.dirname, "pv"), "timestamps.proto", "timestamps.proto", "text", "Date");
}, 120_000);
afterAll(() => a?.remove());

const MS = [
  0, -1, 1, 946684800000, 946684800001, 86400499, 86400500, 86400501, 1700000000123, 1700000000124,
  -62135596800000, -62135596800001, 4102444799999, 4102444800000, 253402300799999, Date.now() + 3_600_000,
];
const ts = (ms: number) => {
  const seconds = Math.floor(ms / 1000);
  return { seconds: BigInt(seconds), nanos: (ms - seconds * 1000) * 1_000_000 };
};

it("types the fields as Date", () => {
  const v = a.generated.decodeWindow(new Uint8Array([0x0a, 0x02, 0x08, 0x01]));
  expect(v.after2000).toBeInstanceOf(Date);
});

it("agrees with protovalidate-es on every field for millisecond-exact instants", () => {
  const desc = a.registry.getMessage("datespv.Window")!;
  let violations = 0;
  for (let i = 0; i < MS.length; i++) {
    const pick = (k: number) => ts(MS[(i + k) % MS.length]!);
    for (const required of [true, false]) {
      const message = create(desc, {
        after2000: pick(0), inRange: pick(1), exact: pick(2), past: pick(3), cel: pick(4),
        ...(required ? { required: pick(5) } : {}),
        history: [pick(6), pick(7)],
        byName: { a: pick(8), b: pick(9) },
      } as any);
      const v = verdicts(a, desc, message);
      expect(v.ours, `instants from ${i}, required ${required}`).toEqual(v.theirs);
      violations += v.theirs.length;
    }
  }
  // The cases are not all valid: every rule fires somewhere.
  expect(violations).toBeGreaterThan(MS.length);
  const all = new Set<string>();
  for (let i = 0; i < MS.length; i++) {
    const desc2 = a.registry.getMessage("datespv.Window")!;
    const pick = (k: number) => ts(MS[(i + k) % MS.length]!);
    const m = create(desc2, { after2000: pick(0), inRange: pick(1), exact: pick(2), past: pick(3), cel: pick(4), history: [pick(6)], byName: { a: pick(8) } } as any);
    for (const line of verdicts(a, desc2, m).ours) all.add(line.split(" | ")[1]!);
  }
  expect([...all].sort()).toEqual(["before_2100", "required", "timestamp.const", "timestamp.gt", "timestamp.gte", "timestamp.gte_lt", "timestamp.lt", "timestamp.lt_now"]);
});
