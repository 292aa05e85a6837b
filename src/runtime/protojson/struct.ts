import { childPath, describeJson, ProtoJsonError, protoJsonError } from "./errors.js";
import { jsonSet } from "./json-shape.js";
import type { ProtoJsonObject, ProtoJsonValue } from "./types.js";

/**
 * google.protobuf.Struct, Value and ListValue: arbitrary JSON. The shapes below are structural twins of the
 * generated types (a oneof `kind` with camelCase cases), so generated code passes its values straight through.
 */
export interface ValueShape {
  readonly kind?:
    | { readonly case: "nullValue"; readonly value: string | number }
    | { readonly case: "numberValue"; readonly value: number }
    | { readonly case: "stringValue"; readonly value: string }
    | { readonly case: "boolValue"; readonly value: boolean }
    | { readonly case: "structValue"; readonly value: StructShape }
    | { readonly case: "listValue"; readonly value: ListValueShape };
}
export interface StructShape {
  readonly fields?: { readonly [key: string]: ValueShape };
}
export interface ListValueShape {
  readonly values?: readonly ValueShape[];
}

/** What fromJson builds: the same shapes, mutable and with the one NullValue name. */
export interface ValueMessage {
  kind:
    | { case: "nullValue"; value: "NULL_VALUE" }
    | { case: "numberValue"; value: number }
    | { case: "stringValue"; value: string }
    | { case: "boolValue"; value: boolean }
    | { case: "structValue"; value: StructMessage }
    | { case: "listValue"; value: ListValueMessage };
}
export interface StructMessage {
  fields: { [key: string]: ValueMessage };
}
export interface ListValueMessage {
  values: ValueMessage[];
}

export function valueToJson(value: ValueShape): ProtoJsonValue {
  const kind = value.kind;
  switch (kind?.case) {
    case "nullValue":
      return null;
    case "numberValue":
      if (!Number.isFinite(kind.value)) throw new ProtoJsonError("", "google.protobuf.Value cannot hold NaN or Infinity in JSON");
      return kind.value;
    case "stringValue":
    case "boolValue":
      return kind.value;
    case "structValue":
      return structToJson(kind.value);
    case "listValue":
      return listValueToJson(kind.value);
    default:
      throw new ProtoJsonError("", "google.protobuf.Value has no kind set");
  }
}

export function structToJson(struct: StructShape): ProtoJsonObject {
  const out: ProtoJsonObject = {};
  if (struct.fields) for (const [k, v] of Object.entries(struct.fields)) jsonSet(out, k, valueToJson(v));
  return out;
}

export function listValueToJson(list: ListValueShape): ProtoJsonValue[] {
  return (list.values ?? []).map(valueToJson);
}

export function valueFromJson(json: unknown, path: string, key?: string | number): ValueMessage {
  switch (typeof json) {
    case "number":
      return { kind: { case: "numberValue", value: json } };
    case "bigint":
      // google.protobuf.Value holds doubles: a big integer from the text reader rounds like JSON.parse would.
      return { kind: { case: "numberValue", value: Number(json) } };
    case "string":
      return { kind: { case: "stringValue", value: json } };
    case "boolean":
      return { kind: { case: "boolValue", value: json } };
    case "object":
      if (json === null) return { kind: { case: "nullValue", value: "NULL_VALUE" } };
      if (Array.isArray(json)) return { kind: { case: "listValue", value: listValueFromJson(json, path, key) } };
      return { kind: { case: "structValue", value: structFromJson(json, path, key) } };
    default:
      throw protoJsonError(path, key, `not a JSON value: ${describeJson(json)}`);
  }
}

export function structFromJson(json: unknown, path: string, key?: string | number): StructMessage {
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw protoJsonError(path, key, `expected an object, got ${describeJson(json)}`);
  }
  const here = childPath(path, key);
  const fields: { [key: string]: ValueMessage } = {};
  for (const k of Object.keys(json)) jsonSet(fields, k, valueFromJson((json as ProtoJsonObject)[k], here, k));
  return { fields };
}

export function listValueFromJson(json: unknown, path: string, key?: string | number): ListValueMessage {
  if (!Array.isArray(json)) throw protoJsonError(path, key, `expected an array, got ${describeJson(json)}`);
  const here = childPath(path, key);
  return { values: json.map((v: unknown, i) => valueFromJson(v, here, i)) };
}
