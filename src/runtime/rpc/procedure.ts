/** What generated code tells the runtime about one rpc: its path, kind and the generated codecs of its messages. */
import type { HttpMessageCodec } from "../http/message-codec.js";

export type RpcProtocol = "connect" | "grpc-web" | "grpc";

export type RpcMethodKind = "unary" | "server_streaming" | "client_streaming" | "bidi_streaming";

export interface RpcProcedure<I, O> {
  /** "/package.Service/Method" */
  readonly path: string;
  readonly kind: RpcMethodKind;
  readonly input: HttpMessageCodec<I>;
  readonly output: HttpMessageCodec<O>;
}

/** The default limit of one message (and of a Connect unary body): 4 MiB, as gRPC and Connect use. */
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
