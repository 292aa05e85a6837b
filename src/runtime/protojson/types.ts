/** A parsed JSON value (what JSON.parse returns and JSON.stringify accepts), not JSON text. */
export type ProtoJsonValue = null | boolean | number | string | ProtoJsonValue[] | ProtoJsonObject;

export interface ProtoJsonObject {
  [key: string]: ProtoJsonValue;
}

export interface ProtoToJsonOptions {
  /**
   * Also write fields without presence that hold their default (proto3 implicit scalars and enums, empty repeated
   * fields and maps). Fields with presence (messages, proto2 `optional`, oneof members) are written when set, either way.
   */
  readonly emitDefaults?: boolean;
  /** Use the proto field names ("optional_int32") instead of the JSON names ("optionalInt32") as keys. */
  readonly useProtoFieldName?: boolean;
  /** Write enum values as numbers instead of names. */
  readonly enumAsInteger?: boolean;
  /** Message types `google.protobuf.Any` may hold; defaults to the registry of the generated file. */
  readonly typeRegistry?: ProtoJsonRegistry;
}

export interface ProtoFromJsonOptions {
  /** Skip keys that name no field, and enum names that name no value, instead of failing. */
  readonly ignoreUnknownFields?: boolean;
  /** Message types `google.protobuf.Any` may hold; defaults to the registry of the generated file. */
  readonly typeRegistry?: ProtoJsonRegistry;
}

/**
 * One message type as `google.protobuf.Any` needs it: its JSON codec and, to pack and unpack the Any's bytes, its
 * binary codec. Generated code registers every message of a spec in `protoJsonRegistry`.
 */
export interface ProtoJsonMessageType<T = any> {
  /** Full name without a leading dot: "google.protobuf.Duration". */
  readonly typeName: string;
  /** A well-known type with a special JSON form: inside an Any it is written as {"@type", "value"}. */
  readonly wellKnown?: boolean;
  toJson(message: T, options?: ProtoToJsonOptions): ProtoJsonValue;
  fromJson(json: unknown, options?: ProtoFromJsonOptions): T;
  readonly encode?: (message: T) => Uint8Array;
  readonly decode?: (bytes: Uint8Array) => T;
}

/** Message types by full name. */
export type ProtoJsonRegistry = ReadonlyMap<string, ProtoJsonMessageType>;

/** A registry of the given types and of every type in the given registries (later entries win on a name clash). */
export function createProtoJsonRegistry(
  ...parts: readonly (ProtoJsonRegistry | readonly ProtoJsonMessageType[])[]
): ProtoJsonRegistry {
  const map = new Map<string, ProtoJsonMessageType>();
  for (const part of parts) {
    for (const t of Array.isArray(part) ? part : [...(part as ProtoJsonRegistry).values()]) map.set(t.typeName, t);
  }
  return map;
}
