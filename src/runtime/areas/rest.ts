/**
 * specforge/runtime/rest. REST: clients and servers of OpenAPI operations and the protobuf content feed (`client.ts`,
 * `server.ts`, `feed.ts`), with the HTTP helpers they share. Generated code imports from the area it needs;
 * `specforge/runtime` exports every area.
 */
export { RUNTIME_API_VERSION, type RuntimeApi1 } from "../version.js";
export * from "../validation.js";
export { linearPattern, type LinearPattern } from "../linear-pattern.js";
export * from "../rest/index.js";
export * from "../http/index.js";
