/**
 * specforge/runtime: the small library generated code imports. Functions, not classes (tree-shakable), no Node-only
 * APIs outside the server adapters. This entry exports every area; generated code imports the area it needs
 * (specforge/runtime/protobuf, /json, /xml, /soap, /rest, /rpc: ./areas/). Its API is versioned (./version.ts) so
 * that old generated code keeps working: generated files state the version they were made for, and a breaking
 * change adds a version.
 */
export { RUNTIME_API_VERSION, type RuntimeApi1 } from "./version.js";
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
