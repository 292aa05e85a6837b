import { execFileSync } from "node:child_process";
import path from "node:path";
import { SHARED } from "../helpers/seeds.js";

export const CORPUS_PROTO = path.join(SHARED, "corpus/proto");
export const PROTO3 = "google/protobuf/test_messages_proto3.proto";
export const PROTO2 = "google/protobuf/test_messages_proto2.proto";
export const CONFORMANCE = "conformance/conformance.proto";

/** protoc --encode: text format in, binary out (an encoder independent of ours). */
export function protocEncode(file: string, type: string, text: string): Uint8Array {
  return new Uint8Array(execFileSync("protoc", [`-I${CORPUS_PROTO}`, `--encode=${type}`, file], { input: text }));
}

/** protoc --decode: binary in, canonical text format out. */
export function protocDecode(file: string, type: string, bytes: Uint8Array): string {
  return execFileSync("protoc", [`-I${CORPUS_PROTO}`, `--decode=${type}`, file], { input: bytes }).toString("utf8");
}

/** Bytes as a text-format string literal (octal escapes), for bytes fields of a request written in text format. */
export function textBytes(bytes: Uint8Array): string {
  return `"${[...bytes].map((b) => `\\${b.toString(8).padStart(3, "0")}`).join("")}"`;
}

/** A text-format string literal. */
export function textString(s: string): string {
  return textBytes(new TextEncoder().encode(s));
}
