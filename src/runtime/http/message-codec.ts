/**
 * The two wire forms of a message as generated code provides them: protobuf binary and ProtoJSON. Runtime HTTP helpers
 * take these specialised functions from the generated file instead of interpreting a schema, so the hot path stays
 * the generated straight-line code.
 */
export interface MessageWriter<T> {
  encode(message: T): Uint8Array;
  toJson(message: T): unknown;
}

export interface MessageReader<T> {
  decode(bytes: Uint8Array): T;
  fromJson(json: unknown): T;
}

export interface HttpMessageCodec<T> extends MessageWriter<T>, MessageReader<T> {
  /**
   * The generated `validate<T>` (proto specs with protovalidate rules): servers call it on each request when asked
   * (`validateRequests`), issues that carry a protovalidate `field` being rule violations.
   */
  validate?(message: T): readonly ValidationIssue[];
}

import type { ValidationIssue } from "../validation.js";

const utf8 = /* @__PURE__ */ new TextDecoder("utf-8", { fatal: true });
const utf8Encoder = /* @__PURE__ */ new TextEncoder();

/** Parse a JSON body (bytes must be valid UTF-8) and hand it to the generated ProtoJSON reader. */
export function readJsonMessage<T>(reader: MessageReader<T>, bytes: Uint8Array): T {
  return reader.fromJson(JSON.parse(utf8.decode(bytes)));
}

/** Serialise a message as a UTF-8 JSON body. */
export function writeJsonMessage<T>(writer: MessageWriter<T>, message: T): Uint8Array {
  return utf8Encoder.encode(JSON.stringify(writer.toJson(message)));
}

/**
 * A body for `new Response(...)` / `fetch`. The DOM typings only take ArrayBuffer-backed views; generated encoders
 * return plain Uint8Arrays, which always are, so this is a type-level adjustment, not a copy.
 */
export function bodyOf(bytes: Uint8Array): BodyInit {
  return bytes as Uint8Array<ArrayBuffer>;
}
