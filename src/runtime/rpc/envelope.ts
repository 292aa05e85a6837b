/**
 * Length-prefixed messages, the framing gRPC, gRPC-Web and Connect streaming share: one flags byte, a 4-byte
 * big-endian length, the message. Lengths come from the peer, so the reader checks them against a limit before it
 * buffers anything, and copies bytes only when a message spans chunks.
 */
import { RpcError } from "../connect/error.js";

/** Flag bit: the message is compressed with the call's message encoding. */
export const FLAG_COMPRESSED = 0x01;
/** Connect: the end-of-stream message (JSON). */
export const FLAG_END_STREAM = 0x02;
/** gRPC-Web: the trailers message (HTTP/1-style header lines). */
export const FLAG_TRAILERS = 0x80;

export interface Envelope {
  readonly flags: number;
  readonly data: Uint8Array;
}

/** One framed message: the prefix and the data in a new buffer (the one copy the framing costs). */
export function frame(flags: number, data: Uint8Array): Uint8Array {
  const n = data.byteLength;
  const out = new Uint8Array(n + 5);
  out[0] = flags;
  out[1] = n >>> 24;
  out[2] = (n >>> 16) & 0xff;
  out[3] = (n >>> 8) & 0xff;
  out[4] = n & 0xff;
  out.set(data, 5);
  return out;
}

/** Where the bytes come from: the next chunk (undefined at the end) and a way to stop the producer. */
export interface ChunkSource {
  read(): Promise<Uint8Array | undefined>;
  cancel(reason?: unknown): void;
}

/** A web ReadableStream as a chunk source. */
export function streamSource(body: ReadableStream<Uint8Array>): ChunkSource {
  const reader = body.getReader();
  return {
    read: async () => {
      const { done, value } = await reader.read();
      return done ? undefined : value;
    },
    cancel: (reason) => {
      reader.cancel(reason).catch(() => undefined);
    },
  };
}

/** An async iterable of chunks (a node stream, say) as a chunk source. */
export function iterableSource(chunks: AsyncIterable<Uint8Array>, onCancel?: (reason?: unknown) => void): ChunkSource {
  const it = chunks[Symbol.asyncIterator]();
  return {
    read: async () => {
      const { done, value } = await it.next();
      return done ? undefined : value;
    },
    cancel: (reason) => {
      onCancel?.(reason);
      it.return?.().catch(() => undefined);
    },
  };
}

/**
 * Reads envelopes one by one. `next()` gives undefined at a clean end; a stream that ends inside a message, or a
 * message over `maxBytes`, is an RpcError (`invalid_argument` / `resource_exhausted`; the source is cancelled).
 */
export class EnvelopeReader {
  readonly #source: ChunkSource;
  readonly #maxBytes: number;
  readonly #chunks: Uint8Array[] = [];
  /** Bytes of the first chunk already consumed. */
  #head = 0;
  #available = 0;
  #ended = false;

  constructor(source: ChunkSource, maxBytes: number) {
    this.#source = source;
    this.#maxBytes = maxBytes;
  }

  async next(): Promise<Envelope | undefined> {
    if (!(await this.#fill(5))) {
      if (this.#available === 0) return undefined;
      throw new RpcError("invalid_argument", "protocol error: incomplete envelope");
    }
    const prefix = this.#take(5);
    const flags = prefix[0]!;
    const length = ((prefix[1]! << 24) | (prefix[2]! << 16) | (prefix[3]! << 8) | prefix[4]!) >>> 0;
    if (length > this.#maxBytes) {
      this.cancel();
      throw new RpcError("resource_exhausted", `message of ${length} bytes is larger than the limit of ${this.#maxBytes} bytes`);
    }
    if (!(await this.#fill(length))) throw new RpcError("invalid_argument", `protocol error: promised ${length} bytes, got ${this.#available}`);
    return { flags, data: this.#take(length) };
  }

  /** Stop reading: the producer is told (a client gets RST_STREAM / an aborted body). */
  cancel(reason?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#source.cancel(reason);
  }

  async #fill(n: number): Promise<boolean> {
    while (this.#available < n) {
      if (this.#ended) return false;
      const chunk = await this.#source.read();
      if (chunk === undefined) {
        this.#ended = true;
        return false;
      }
      if (chunk.byteLength === 0) continue;
      this.#chunks.push(chunk);
      this.#available += chunk.byteLength;
    }
    return true;
  }

  /** n available bytes: a view of the first chunk when they lie in it, else one copy. */
  #take(n: number): Uint8Array {
    this.#available -= n;
    const first = this.#chunks[0];
    if (n === 0 || first === undefined) return new Uint8Array(0);
    if (first.byteLength - this.#head >= n) {
      const out = first.subarray(this.#head, this.#head + n);
      this.#head += n;
      if (this.#head === first.byteLength) {
        this.#chunks.shift();
        this.#head = 0;
      }
      return out;
    }
    const out = new Uint8Array(n);
    let o = 0;
    while (o < n) {
      const chunk = this.#chunks[0]!;
      const count = Math.min(n - o, chunk.byteLength - this.#head);
      out.set(chunk.subarray(this.#head, this.#head + count), o);
      o += count;
      this.#head += count;
      if (this.#head === chunk.byteLength) {
        this.#chunks.shift();
        this.#head = 0;
      }
    }
    return out;
  }
}
