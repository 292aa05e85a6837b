/**
 * Test helper: a plain, comparable form of decoded messages from different libraries. 64-bit integers become
 * decimal strings, bytes base64, typed arrays of protobufjs Longs handled; absent and undefined keys dropped.
 */
export function canon(v: unknown): unknown {
  if (typeof v === "bigint") return v.toString();
  if (v instanceof Uint8Array) return Buffer.from(v).toString("base64");
  if (Array.isArray(v)) return v.map(canon);
  if (v && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined && k !== "$unknown") out[k] = canon(x);
    return out;
  }
  return v;
}
