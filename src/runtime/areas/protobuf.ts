/**
 * specforge/runtime/protobuf. Protobuf: the binary wire format, ProtoJSON, the text format and protovalidate checks
 * (`protobuf.ts`, `protojson.ts`, `prototext.ts`, `validate.ts` of .proto specs). Generated code imports from the
 * area it needs; `specforge/runtime` exports every area.
 */
export { RUNTIME_API_VERSION, type RuntimeApi1 } from "../version.js";
export * from "../validation.js";
export { linearPattern, type LinearPattern } from "../linear-pattern.js";
export * from "../protobuf/index.js";
export * from "../protojson/index.js";
export * from "../prototext/index.js";
