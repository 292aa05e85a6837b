/** Connect protocol pieces (codes, the error and its JSON form) shared by the RPC runtime in ../rpc. */
export { connectCodeFromHttpStatus, connectCodeToHttpStatus, isConnectCode, type ConnectCode } from "./code.js";
export { ConnectError, RpcError, type ConnectErrorDetail } from "./error.js";
export { connectErrorFromJson, connectErrorToJson } from "./error-json.js";
export { CONNECT_JSON_MEDIA_TYPE, CONNECT_PROTO_MEDIA_TYPE, type ConnectFormat } from "./protocol.js";
