// The wire pieces without a network: length-prefixed framing over arbitrary chunking, limits, gRPC header text forms,
// google.rpc.Status, the canonical code table and gRPC-Web base64 segments.
import { describe, expect, it } from "vitest";
import { RpcError } from "../../src/runtime/connect/error.js";
import { decodeBase64Groups, base64Padded } from "../../src/runtime/rpc/base64-stream.js";
import { grpcCodeOf, rpcCodeFromGrpc } from "../../src/runtime/rpc/code.js";
import { EnvelopeReader, frame, type ChunkSource } from "../../src/runtime/rpc/envelope.js";
import { decodeGrpcMessage, encodeGrpcMessage, formatGrpcTimeout, parseGrpcTimeout } from "../../src/runtime/rpc/grpc-headers.js";
import { decodeRpcStatus, encodeRpcStatus } from "../../src/runtime/rpc/status-details.js";

function chunks(parts: Uint8Array[]): ChunkSource & { cancelled: boolean } {
  let i = 0;
  const source = {
    cancelled: false,
    read: async () => parts[i++],
    cancel: () => {
      source.cancelled = true;
    },
  };
  return source;
}

function split(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

describe("EnvelopeReader", () => {
  const stream = new Uint8Array([...frame(0, new Uint8Array([1, 2, 3])), ...frame(1, new Uint8Array(0)), ...frame(2, new Uint8Array(300).fill(9))]);

  it.each([1, 2, 5, 7, 1000])("reads the same envelopes whatever the chunk size (%i)", async (size) => {
    const reader = new EnvelopeReader(chunks(split(stream, size)), 1024);
    const seen = [];
    for (let e = await reader.next(); e !== undefined; e = await reader.next()) seen.push([e.flags, e.data.length, e.data[0]]);
    expect(seen).toEqual([[0, 3, 1], [1, 0, undefined], [2, 300, 9]]);
  });

  it("refuses a length over the limit before reading the message, and cancels the source", async () => {
    const source = chunks([new Uint8Array([0, 0x7f, 0xff, 0xff, 0xff])]);
    const error = await new EnvelopeReader(source, 1024).next().catch((e: unknown) => e);
    expect((error as RpcError).code).toBe("resource_exhausted");
    expect(source.cancelled).toBe(true);
  });

  it("calls a stream that ends inside an envelope invalid_argument", async () => {
    for (const cut of [3, 6]) {
      const error = await new EnvelopeReader(chunks([stream.subarray(0, cut)]), 1024).next().catch((e: unknown) => e);
      expect((error as RpcError).code).toBe("invalid_argument");
    }
  });
});

describe("gRPC header forms", () => {
  it("parses grpc-timeout units and refuses malformed ones", () => {
    expect([parseGrpcTimeout("1H"), parseGrpcTimeout("2M"), parseGrpcTimeout("3S"), parseGrpcTimeout("40m"), parseGrpcTimeout("5000u"), parseGrpcTimeout("7000000n")])
      .toEqual([3_600_000, 120_000, 3000, 40, 5, 7]);
    for (const bad of ["", "1", "123456789m", "1x", "-1m", "1.5S"]) expect(parseGrpcTimeout(bad)).toBeUndefined();
    expect(formatGrpcTimeout(1500.2)).toBe("1501m");
    expect(parseGrpcTimeout(formatGrpcTimeout(3e9))).toBe(3e9);
  });

  it("percent-encodes grpc-message and decodes it back", () => {
    const message = "100% sûr\nligne 2";
    const encoded = encodeGrpcMessage(message);
    expect(encoded).toMatch(/^[\x20-\x7e]*$/);
    expect(encoded).toContain("100%25 s%C3%BBr%0Aligne 2");
    expect(decodeGrpcMessage(encoded)).toBe(message);
    expect(decodeGrpcMessage("bad %zz")).toBe("bad %zz");
  });

  it("maps gRPC numbers 1..16 to the canonical names and back", () => {
    expect(rpcCodeFromGrpc(1)).toBe("canceled");
    expect(rpcCodeFromGrpc(16)).toBe("unauthenticated");
    expect([rpcCodeFromGrpc(0), rpcCodeFromGrpc(17)]).toEqual(["unknown", "unknown"]);
    for (let n = 1; n <= 16; n++) expect(grpcCodeOf(rpcCodeFromGrpc(n))).toBe(n);
  });

  it("round-trips google.rpc.Status with details", () => {
    const status = { code: 5, message: "not here", details: [{ type: "google.rpc.ErrorInfo", value: new Uint8Array([1, 2, 3]) }] };
    expect(decodeRpcStatus(encodeRpcStatus(status))).toEqual(status);
  });
});

describe("gRPC-Web text", () => {
  it("decodes concatenated padded segments split anywhere", () => {
    const a = new Uint8Array([1, 2, 3, 4]);
    const b = new Uint8Array([5]);
    const text = base64Padded(a) + base64Padded(b);
    let rest = "";
    const out: number[] = [];
    for (const piece of [text.slice(0, 3), text.slice(3, 9), text.slice(9)]) {
      const decoded = decodeBase64Groups(rest + piece);
      rest = decoded.rest;
      out.push(...decoded.bytes);
    }
    expect([out, rest]).toEqual([[1, 2, 3, 4, 5], ""]);
    expect(() => decodeBase64Groups("A=AA")).toThrow();
  });
});
