/** ProtoJSON (the proto3 JSON mapping): the primitives generated `protojson.ts` files call. */
export { ProtoJsonError, duplicateJsonField, missingJsonField, oneofJsonConflict, unknownJsonField } from "./errors.js";
export { createProtoJsonRegistry } from "./types.js";
export type {
  ProtoFromJsonOptions, ProtoJsonMessageType, ProtoJsonObject, ProtoJsonRegistry, ProtoJsonValue, ProtoToJsonOptions,
} from "./types.js";
export { hasOwnJson, jsonArrayAt, jsonObjectAt, jsonSet } from "./json-shape.js";
export {
  doubleFromJson, doubleToJson, floatFromJson, floatToJson, int32FromJson, int32KeyFromJson, int64FromJson,
  int64KeyFromJson, int64ToJson, uint32FromJson, uint32KeyFromJson, uint64FromJson, uint64KeyFromJson,
} from "./numbers.js";
export { boolFromJson, boolKeyFromJson, bytesFromJson, bytesToJson, stringFromJson } from "./scalars.js";
export { enumFromJson, enumToJson, protoJsonEnum, type ProtoJsonEnum } from "./enums.js";
export { dateFromJson, dateToJson, timestampFromJson, timestampToJson } from "./timestamp.js";
export { durationFromJson, durationToJson } from "./duration.js";
export { fieldMaskFromJson, fieldMaskToJson } from "./field-mask.js";
export { listValueFromJson, listValueToJson, structFromJson, structToJson, valueFromJson, valueToJson } from "./struct.js";
export type { ListValueShape, StructShape, ValueShape } from "./struct.js";
export { anyFromJson, anyToJson, type AnyShape } from "./any.js";
export { parseProtoJsonText, protoJsonGuard } from "./read.js";
