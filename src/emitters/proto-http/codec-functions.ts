/**
 * The names of the per-message functions other proto artifacts generate, which feed.ts and connect.ts call:
 * binary (protobuf.ts) `encode<T>` / `decode<T>` and ProtoJSON (protojson.ts) `toJson<T>` / `fromJson<T>`, where
 * T is the message's type name. Kept in one place so a rename there is a one-line change here.
 */
export const BINARY_CODEC_MODULE = "./protobuf.js";
export const JSON_CODEC_MODULE = "./protojson.js";
export const TYPES_MODULE = "./types.js";

export interface CodecFunctionNames {
  readonly encode: string;
  readonly decode: string;
  readonly toJson: string;
  readonly fromJson: string;
}

export function codecFunctionNames(typeName: string): CodecFunctionNames {
  return {
    encode: `encode${typeName}`,
    decode: `decode${typeName}`,
    toJson: `toJson${typeName}`,
    fromJson: `fromJson${typeName}`,
  };
}
