/**
 * The conformance runner's framing: every message is a 4-byte little-endian length followed by that many bytes.
 * `FrameReader` collects chunks from a stream and hands out whole frames.
 */
export class FrameReader {
  private buffer = new Uint8Array(0);

  push(chunk: Uint8Array): void {
    const next = new Uint8Array(this.buffer.length + chunk.length);
    next.set(this.buffer);
    next.set(chunk, this.buffer.length);
    this.buffer = next;
  }

  /** The next whole frame, or undefined until more bytes arrive. */
  next(): Uint8Array | undefined {
    if (this.buffer.length < 4) return undefined;
    const length = new DataView(this.buffer.buffer, this.buffer.byteOffset, 4).getUint32(0, true);
    if (this.buffer.length < 4 + length) return undefined;
    const frame = this.buffer.slice(4, 4 + length);
    this.buffer = this.buffer.slice(4 + length);
    return frame;
  }

  /** Bytes of an incomplete frame left over (at end of input this means the stream was cut). */
  get pending(): number {
    return this.buffer.length;
  }
}

export function frame(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + payload.length);
  new DataView(out.buffer).setUint32(0, payload.length, true);
  out.set(payload, 4);
  return out;
}
