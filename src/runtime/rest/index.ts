/**
 * The REST runtime: what generated clients and servers import. Web APIs only: the node:http adapter
 * (./node-server.ts) needs Node and is imported from its own module, never through this index.
 */
export * from "./body.js";
export * from "./client.js";
export * from "./params.js";
export * from "./response.js";
export * from "./router.js";
export * from "./server.js";
