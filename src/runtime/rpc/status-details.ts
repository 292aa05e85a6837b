/**
 * google.rpc.Status, the message gRPC sends base64-encoded in `grpc-status-details-bin`: code (1), message (2) and
 * details (3, google.protobuf.Any: type_url 1, value 2). Written by hand with the protobuf primitives, so the runtime
 * needs no generated code of its own.
 */
import type { ConnectErrorDetail } from "../connect/error.js";
import { pbReadBytes, pbReadEnd, pbReader, pbReadInt32, pbReadString, pbReadTag, type PbReader } from "../protobuf/reader.js";
import { pbSkipField } from "../protobuf/skip.js";
import { pbFinish, pbFork, pbJoin, pbWriteBytes, pbWriteInt32, pbWriteString, pbWriter, pbWriteTag } from "../protobuf/writer.js";

const TYPE_URL_PREFIX = "type.googleapis.com/";

export interface RpcStatus {
  readonly code: number;
  readonly message: string;
  readonly details: readonly ConnectErrorDetail[];
}

export function encodeRpcStatus(status: RpcStatus): Uint8Array {
  const w = pbWriter();
  if (status.code !== 0) {
    pbWriteTag(w, 8);
    pbWriteInt32(w, status.code);
  }
  if (status.message !== "") {
    pbWriteTag(w, 18);
    pbWriteString(w, status.message);
  }
  for (const detail of status.details) {
    pbWriteTag(w, 26);
    const at = pbFork(w);
    pbWriteTag(w, 10);
    pbWriteString(w, detail.type.includes("/") ? detail.type : TYPE_URL_PREFIX + detail.type);
    pbWriteTag(w, 18);
    pbWriteBytes(w, detail.value);
    pbJoin(w, at);
  }
  return pbFinish(w);
}

function readAny(r: PbReader, end: number): ConnectErrorDetail {
  let type = "";
  let value = new Uint8Array(0);
  while (r.pos < end) {
    const tag = pbReadTag(r);
    if (tag === 10) type = pbReadString(r);
    else if (tag === 18) value = pbReadBytes(r).slice();
    else pbSkipField(r, tag, 1);
  }
  return { type: type.slice(type.lastIndexOf("/") + 1), value };
}

/** Decode a google.rpc.Status; throws ProtobufDecodeError when the bytes are not one. */
export function decodeRpcStatus(bytes: Uint8Array): RpcStatus {
  const r = pbReader(bytes);
  let code = 0;
  let message = "";
  const details: ConnectErrorDetail[] = [];
  while (r.pos < r.len) {
    const tag = pbReadTag(r);
    if (tag === 8) code = pbReadInt32(r);
    else if (tag === 18) message = pbReadString(r);
    else if (tag === 26) {
      const end = pbReadEnd(r);
      details.push(readAny(r, end));
      r.pos = end;
    } else pbSkipField(r, tag, 0);
  }
  return { code, message, details };
}
