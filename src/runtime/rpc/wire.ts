/**
 * Which protocol and encoding a request speaks, from its Content-Type alone (the one header all three protocols
 * use to say so). One frozen object per content type, so classifying a call allocates nothing.
 */
import { mediaTypeEssence } from "../http/media-type.js";
import type { RpcProtocol } from "./procedure.js";

export type RpcFormat = "proto" | "json";

export interface Wire {
  readonly protocol: RpcProtocol;
  readonly format: RpcFormat;
  /** Messages are length-prefixed (everything but Connect unary). */
  readonly enveloped: boolean;
  /** gRPC-Web text: the body is base64. */
  readonly text: boolean;
  /** The Content-Type an answer carries. */
  readonly contentType: string;
}

function wire(protocol: RpcProtocol, format: RpcFormat, enveloped: boolean, text: boolean, contentType: string): Wire {
  return Object.freeze({ protocol, format, enveloped, text, contentType });
}

const WIRES: ReadonlyMap<string, Wire> = /* @__PURE__ */ (() => new Map([
  ["application/proto", wire("connect", "proto", false, false, "application/proto")],
  ["application/json", wire("connect", "json", false, false, "application/json")],
  ["application/connect+proto", wire("connect", "proto", true, false, "application/connect+proto")],
  ["application/connect+json", wire("connect", "json", true, false, "application/connect+json")],
  ["application/grpc", wire("grpc", "proto", true, false, "application/grpc")],
  ["application/grpc+proto", wire("grpc", "proto", true, false, "application/grpc+proto")],
  ["application/grpc+json", wire("grpc", "json", true, false, "application/grpc+json")],
  ["application/grpc-web", wire("grpc-web", "proto", true, false, "application/grpc-web")],
  ["application/grpc-web+proto", wire("grpc-web", "proto", true, false, "application/grpc-web+proto")],
  ["application/grpc-web+json", wire("grpc-web", "json", true, false, "application/grpc-web+json")],
  ["application/grpc-web-text", wire("grpc-web", "proto", true, true, "application/grpc-web-text")],
  ["application/grpc-web-text+proto", wire("grpc-web", "proto", true, true, "application/grpc-web-text+proto")],
]))();

export const SUPPORTED_CONTENT_TYPES = /* @__PURE__ */ (() => [...WIRES.keys()].join(", "))();

/** The wire of a Content-Type value; undefined for anything the three protocols do not use. */
export function wireOf(contentType: string | null): Wire | undefined {
  if (contentType === null) return undefined;
  return WIRES.get(contentType) ?? WIRES.get(mediaTypeEssence(contentType));
}

/** The wire a client speaks. */
export function clientWire(protocol: RpcProtocol, format: RpcFormat, enveloped: boolean, text = false): Wire {
  if (protocol === "connect") return WIRES.get(enveloped ? `application/connect+${format}` : `application/${format}`)!;
  if (protocol === "grpc") return WIRES.get(`application/grpc+${format}`)!;
  return WIRES.get(text ? "application/grpc-web-text+proto" : `application/grpc-web+${format}`)!;
}
