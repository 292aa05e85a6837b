/** What generated code tells the runtime about one rpc: its path, kind and the generated codecs of its messages. */
import type { HttpMessageCodec } from "../http/message-codec.js";
import type { HttpTranscoding } from "./transcode.js";

/** "rest": the method's google.api.http routes (HTTP/JSON transcoding), for methods that have them. */
export type RpcProtocol = "connect" | "grpc-web" | "grpc" | "rest";

export type RpcMethodKind = "unary" | "server_streaming" | "client_streaming" | "bidi_streaming";

export interface RpcProcedure<I, O> {
  /** "/package.Service/Method" */
  readonly path: string;
  readonly kind: RpcMethodKind;
  readonly input: HttpMessageCodec<I>;
  readonly output: HttpMessageCodec<O>;
  /** The method's google.api.http bindings (unary methods of specs that annotate them). */
  readonly http?: HttpTranscoding;
}

/** The default limit of one message (and of a Connect unary body): 4 MiB, as gRPC and Connect use. */
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
