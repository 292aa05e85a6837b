/** The varint of an unsigned value, by hand with bigint arithmetic (what the protobuf codec tests compare against). */
export function varint(u: bigint): number[] {
  const out: number[] = [];
  while (u > 0x7fn) {
    out.push(Number(u & 0x7fn) | 0x80);
    u >>= 7n;
  }
  out.push(Number(u));
  return out;
}
