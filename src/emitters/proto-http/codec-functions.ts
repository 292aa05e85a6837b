/**
 * The names of the per-message functions other proto artifacts generate, which feed.ts and connect.ts call:
 * binary (protobuf.ts) `encode<T>` / `decode<T>` and ProtoJSON (protojson.ts) `toJson<T>` / `fromJson<T>`, as the
 * naming pass named them (`names.derived`).
 */
import type { Names } from "../../naming/assign-names.js";
import type { TypeId } from "../../ir/model.js";

export const BINARY_CODEC_MODULE = "./protobuf.js";
export const JSON_CODEC_MODULE = "./protojson.js";
export const TYPES_MODULE = "./types.js";

export interface CodecFunctionNames {
  readonly encode: string;
  readonly decode: string;
  readonly toJson: string;
  readonly fromJson: string;
}

export function codecFunctionNames(names: Names, id: TypeId): CodecFunctionNames {
  return {
    encode: names.derived(id, "encode"),
    decode: names.derived(id, "decode"),
    toJson: names.derived(id, "toJson"),
    fromJson: names.derived(id, "fromJson"),
  };
}
