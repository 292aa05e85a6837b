/**
 * Format-neutral HTTP helpers for generated clients and servers, and the protobuf content-feed helpers built on them.
 * The node:http adapter is not exported here (it imports node modules): import it from "./node.js".
 */
export { negotiateMediaType } from "./accept.js";
export { BodyTooLargeError, DEFAULT_MAX_BODY_BYTES, readBodyWithLimit } from "./body-limit.js";
export {
  checkedOrigin, DEFAULT_CORS_ALLOW_HEADERS, DEFAULT_CORS_ALLOW_METHODS, isLoopbackOrigin, withCors, type CorsOptions, type CorsOrigins,
} from "./cors.js";
export { callSignal, type CallSignal } from "./deadline.js";
export type { FetchFunction, HttpHandler } from "./handler.js";
export { basicAuth, bearerAuth, interceptedFetch, type FetchNext, type HttpAuth, type Interceptor } from "./interceptor.js";
export { knownBody, responseWithKnownBody } from "./known-body.js";
export { mediaTypeEssence } from "./media-type.js";
export {
  bodyOf, readJsonMessage, writeJsonMessage, type HttpMessageCodec, type MessageReader, type MessageWriter,
} from "./message-codec.js";
export { HttpStatusError, HttpTimeoutError } from "./status-error.js";
export * from "./feed/index.js";
