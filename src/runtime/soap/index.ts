export * from "./envelope.js";
export * from "./fault-error.js";
export * from "./client.js";
export * from "./server.js";
export type { SoapNamespaceFamily } from "./namespace-aliases.js";
export { SoapMessage } from "./envelope-reader.js";
export * from "./rpc.js";
export * from "./wss/index.js";
