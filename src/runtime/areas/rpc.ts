/**
 * specforge/runtime/rpc. RPC: Connect, gRPC-Web and gRPC clients and servers of proto services (`connect.ts`), with
 * the HTTP helpers they share. Generated code imports from the area it needs; `specforge/runtime` exports every area.
 */
export { RUNTIME_API_VERSION, type RuntimeApi1 } from "../version.js";
export * from "../validation.js";
export { linearPattern, type LinearPattern } from "../linear-pattern.js";
export * from "../rpc/index.js";
export * from "../connect/index.js";
export * from "../http/index.js";
