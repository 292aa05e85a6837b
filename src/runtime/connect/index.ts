/** Connect protocol (unary) clients and servers for generated proto services. */
export {
  callUnary, type ConnectCallOptions, type ConnectClientOptions, type UnaryProcedure,
} from "./client.js";
export { connectCodeFromHttpStatus, connectCodeToHttpStatus, isConnectCode, type ConnectCode } from "./code.js";
export { ConnectError, RpcError, type ConnectErrorDetail } from "./error.js";
export { connectErrorFromJson, connectErrorToJson } from "./error-json.js";
export { CONNECT_JSON_MEDIA_TYPE, CONNECT_PROTO_MEDIA_TYPE, type ConnectFormat } from "./protocol.js";
export {
  connectRoute, connectRouter, type ConnectHandlerContext, type ConnectHandlerOptions, type ConnectRoute,
  type UnaryProcedureCodecs,
} from "./server.js";
