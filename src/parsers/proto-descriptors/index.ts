/**
 * Descriptor front end: FileDescriptorProtos (from a CodeGeneratorRequest, or a FileDescriptorSet written by
 * `buf build` / `protoc -o`) lowered into the same IR as the .proto text parser produces.
 */
export { lowerDescriptors } from "./lower.js";
export { SUPPORTED_DESCRIPTOR_EDITIONS } from "./features.js";
