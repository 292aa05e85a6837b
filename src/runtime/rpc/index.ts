/** Proto services over Connect, gRPC-Web and gRPC: framing, errors, the multi-protocol handler and clients. */
export { grpcCodeOf, rpcCodeFromGrpc, type RpcCode } from "./code.js";
export {
  closeRpcClient, rpcCallBidiStream, rpcCallClientStream, rpcCallServerStream, rpcCallUnary, rpcClient, type RpcCallOptions, type RpcClient,
  type RpcClientOptions,
} from "./client.js";
export type { RpcCompression } from "./compression.js";
export { decodeRpcStatus, encodeRpcStatus, type RpcStatus } from "./status-details.js";
export { DEFAULT_MAX_MESSAGE_BYTES, type RpcMethodKind, type RpcProcedure, type RpcProtocol } from "./procedure.js";
export {
  responseTrailers, RPC_TRAILERS, rpcBidiStreamRoute, rpcClientStreamRoute, rpcRouter, rpcServerStreamRoute, rpcUnaryRoute,
  type RpcHandlerContext, type RpcHandlerOptions, type RpcRoute,
} from "./server.js";
export { fetchTransport, type RpcTransport, type RpcTransportRequest, type RpcTransportResponse } from "./transport.js";
export { http2Transport, type Http2TlsOptions } from "./transport-http2.js";
export type { ChunkSource } from "./envelope.js";
export {
  rpcStatusFromJson, rpcStatusJson, type HttpBinding, type HttpTranscoding, type TranscodeField, type TranscodeKind, type TranscodeMessages,
} from "./transcode.js";
export { formatPathTemplate, HttpTemplateError, parsePathTemplate, templatesOverlap, type PathTemplate, type TemplateSegment, type TemplateVariable } from "./http-template.js";
