/** A small protobuf wire writer for the text parser (which writes binary, then the generated decoder reads it). */
export class WireBytes {
  readonly bytes: number[] = [];

  varint(v: bigint): void {
    let x = BigInt.asUintN(64, v);
    while (x >= 0x80n) {
      this.bytes.push(Number(x & 0x7fn) | 0x80);
      x >>= 7n;
    }
    this.bytes.push(Number(x));
  }

  tag(number: number, wireType: number): void {
    this.varint((BigInt(number) << 3n) | BigInt(wireType));
  }

  fixed(v: bigint, size: 4 | 8): void {
    let x = BigInt.asUintN(size * 8, v);
    for (let i = 0; i < size; i++) {
      this.bytes.push(Number(x & 0xffn));
      x >>= 8n;
    }
  }

  float32(v: number): void {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, v, true);
    this.bytes.push(...b);
  }

  float64(v: number): void {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, v, true);
    this.bytes.push(...b);
  }

  lengthDelimited(body: ArrayLike<number>): void {
    this.varint(BigInt(body.length));
    this.append(body);
  }

  /** A loop, not push(...body): spreading a large body would overflow the call stack. */
  append(body: ArrayLike<number>): void {
    for (let i = 0; i < body.length; i++) this.bytes.push(body[i]!);
  }
}
