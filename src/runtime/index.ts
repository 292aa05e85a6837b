/**
 * specforge/runtime: the small library generated code imports. Functions, not classes (tree-shakable), no Node-only
 * APIs outside the server adapters. Its API is versioned (RUNTIME_API_VERSION) so that old generated code keeps
 * working: generated files state the version they were made for, and a breaking change bumps it.
 */
export const RUNTIME_API_VERSION = 1;
export * from "./validation.js";
export * from "./rest/index.js";
export * from "./http/index.js";
export * from "./connect/index.js";
export * from "./protobuf/index.js";
export * from "./json/index.js";
export * from "./xml/index.js";
export * from "./soap/index.js";
export * from "./protojson/index.js";
export * from "./prototext/index.js";
export * from "./rpc/index.js";
export { linearPattern, type LinearPattern } from "./linear-pattern.js";
