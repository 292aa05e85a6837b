/**
 * The REST runtime: what generated clients and servers import. Web APIs only: serve a generated server on
 * node:http with `serveNode` from ../http/node.ts ("specforge/runtime/node"), never through this index.
 */
export * from "./body.js";
export * from "./client.js";
export * from "./form-body.js";
export * from "./params.js";
export * from "./query.js";
export * from "./response.js";
export * from "./router.js";
export * from "./server.js";
export * from "./style-read.js";
export * from "./style-write.js";
export * from "./json-bigints.js";
