/**
 * `grpc-status-details-bin` for the grpc-js peer, which leaves that trailer to the application: a binary
 * google.rpc.Status { int32 code = 1; string message = 2; repeated google.protobuf.Any details = 3 } with
 * Any { string type_url = 1; bytes value = 2 }, written and read with @bufbuild/protobuf's wire primitives.
 */
import { BinaryReader, BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import type { PlainDetail } from "./interop-shape.js";

export const STATUS_DETAILS_TRAILER = "grpc-status-details-bin";
const TYPE_PREFIX = "type.googleapis.com/";

export interface RpcStatus {
  readonly code: number;
  readonly message: string;
  readonly details: readonly PlainDetail[];
}

export function encodeRpcStatus(status: RpcStatus): Uint8Array {
  const w = new BinaryWriter();
  if (status.code !== 0) w.tag(1, WireType.Varint).int32(status.code);
  if (status.message !== "") w.tag(2, WireType.LengthDelimited).string(status.message);
  for (const d of status.details) {
    w.tag(3, WireType.LengthDelimited).fork();
    w.tag(1, WireType.LengthDelimited).string(TYPE_PREFIX + d.type);
    w.tag(2, WireType.LengthDelimited).bytes(d.value);
    w.join();
  }
  return w.finish();
}

export function decodeRpcStatus(bytes: Uint8Array): RpcStatus {
  const r = new BinaryReader(bytes);
  let code = 0;
  let message = "";
  const details: PlainDetail[] = [];
  while (r.pos < r.len) {
    const [field, wireType] = r.tag();
    if (field === 1 && wireType === WireType.Varint) code = r.int32();
    else if (field === 2 && wireType === WireType.LengthDelimited) message = r.string();
    else if (field === 3 && wireType === WireType.LengthDelimited) details.push(decodeAny(r.bytes()));
    else r.skip(wireType, field);
  }
  return { code, message, details };
}

function decodeAny(bytes: Uint8Array): PlainDetail {
  const r = new BinaryReader(bytes);
  let type = "";
  let value: Uint8Array = new Uint8Array(0);
  while (r.pos < r.len) {
    const [field, wireType] = r.tag();
    if (field === 1 && wireType === WireType.LengthDelimited) type = r.string();
    else if (field === 2 && wireType === WireType.LengthDelimited) value = r.bytes();
    else r.skip(wireType, field);
  }
  return { type: type.slice(type.lastIndexOf("/") + 1), value };
}
