/**
 * protobuf conformance testee (`npm run conformance:testee`): speaks the conformance runner's protocol on
 * stdin/stdout for protobuf_test_messages.proto2.TestAllTypesProto2 and proto3.TestAllTypesProto3, binary, JSON and text,
 * with specforge-generated code. Loops until stdin ends; diagnostics go to stderr.
 */
import path from "node:path";
import { ProtobufDecodeError, ProtobufEncodeError, ProtoJsonError, TextFormatError } from "../src/runtime/index.js";
import { frame, FrameReader } from "./framing.js";
import { generateConformanceCode } from "./generate.js";
import { handleRequest, type ConformanceResult, type MessageCodec } from "./handle-request.js";
import { readKnownFailures } from "./known-failures.js";

type Generated = Record<string, (...args: never[]) => unknown>;

function codecOf(module: Generated, type: string): MessageCodec {
  const fn = (name: string) => {
    const f = module[name];
    if (typeof f !== "function") throw new Error(`generated code has no ${name}`);
    return f as (...args: unknown[]) => unknown;
  };
  const decode = fn(`decode${type}`);
  const encode = fn(`encode${type}`);
  const fromJsonString = fn(`fromJsonString${type}`);
  const toJsonString = fn(`toJsonString${type}`);
  const fromText = fn(`fromText${type}`);
  const toText = fn(`toText${type}`);
  return {
    decode: (bytes) => decode(bytes),
    encode: (message) => encode(message) as Uint8Array,
    fromJsonString: (text, options) => fromJsonString(text, options),
    toJsonString: (message) => toJsonString(message) as string,
    fromText: (text) => fromText(text),
    toText: (message, options) => toText(message, options) as string,
  };
}

const [conformanceDir, proto3Dir, proto2Dir] = generateConformanceCode();
const conformance = (await import(path.join(conformanceDir!, "index.ts"))) as Generated;
const proto3 = (await import(path.join(proto3Dir!, "index.ts"))) as Generated;
const proto2 = (await import(path.join(proto2Dir!, "index.ts"))) as Generated;

const decodeRequest = conformance["decodeConformanceRequest"] as (bytes: Uint8Array) => Parameters<typeof handleRequest>[0];
const encodeResponse = conformance["encodeConformanceResponse"] as (response: { result: ConformanceResult }) => Uint8Array;
const encodeFailureSet = conformance["encodeFailureSet"] as (set: { failure: string[] }) => Uint8Array;

const deps = {
  codecs: new Map<string, MessageCodec>([
    ["protobuf_test_messages.proto3.TestAllTypesProto3", codecOf(proto3, "TestAllTypesProto3")],
    ["protobuf_test_messages.proto2.TestAllTypesProto2", codecOf(proto2, "TestAllTypesProto2")],
  ]),
  isInputError: (e: unknown) =>
    e instanceof ProtoJsonError || e instanceof ProtobufDecodeError || e instanceof ProtobufEncodeError || e instanceof TextFormatError,
  failureSet: () => encodeFailureSet({ failure: readKnownFailures() }),
};

function respond(request: Uint8Array): Uint8Array {
  let result: ConformanceResult;
  try {
    result = handleRequest(decodeRequest(request), deps);
  } catch (e) {
    // The request itself did not decode: nothing to test, but the runner still waits for an answer.
    result = { case: "runtimeError", value: `bad ConformanceRequest: ${(e as Error).message}` };
  }
  return frame(encodeResponse({ result }));
}

const reader = new FrameReader();
let handled = 0;
process.stdin.on("data", (chunk: Buffer) => {
  reader.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
  for (let request = reader.next(); request !== undefined; request = reader.next()) {
    process.stdout.write(respond(request));
    handled++;
  }
});
process.stdin.on("end", () => {
  if (reader.pending > 0) process.stderr.write(`conformance testee: input ended inside a frame (${reader.pending} bytes)\n`);
  process.stderr.write(`conformance testee: ${handled} requests\n`);
});
