/**
 * One ConformanceRequest -> one ConformanceResponse result, using only our generated code. Parse failures of the
 * input are `parseError`, failures to write the output `serializeError`, anything unexpected (a bug) `runtimeError`.
 */

/** The slice of generated API the testee uses for one test message type. */
export interface MessageCodec {
  decode(bytes: Uint8Array): unknown;
  encode(message: unknown): Uint8Array;
  fromJsonString(text: string, options: { ignoreUnknownFields?: boolean }): unknown;
  toJsonString(message: unknown): string;
  fromText(text: string): unknown;
  toText(message: unknown, options: { printUnknownFields: boolean }): string;
}

export type ConformanceResult =
  | { case: "parseError"; value: string }
  | { case: "serializeError"; value: string }
  | { case: "runtimeError"; value: string }
  | { case: "protobufPayload"; value: Uint8Array }
  | { case: "jsonPayload"; value: string }
  | { case: "textPayload"; value: string }
  | { case: "skipped"; value: string };

export interface RequestView {
  readonly payload?: { readonly case: string; readonly value: Uint8Array | string };
  readonly requestedOutputFormat: string | number;
  readonly messageType: string;
  readonly testCategory: string | number;
  readonly printUnknownFields?: boolean;
}

export interface TesteeDeps {
  readonly codecs: ReadonlyMap<string, MessageCodec>;
  /** The errors our codecs throw for bad input (anything else is a bug, reported as a runtime error). */
  readonly isInputError: (e: unknown) => boolean;
  /** The serialized FailureSet answered to the runner's "conformance.FailureSet" request. */
  readonly failureSet: () => Uint8Array;
}

function describe(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

export function handleRequest(request: RequestView, deps: TesteeDeps): ConformanceResult {
  if (request.messageType === "conformance.FailureSet") return { case: "protobufPayload", value: deps.failureSet() };
  const codec = deps.codecs.get(request.messageType);
  if (!codec) return { case: "skipped", value: `message type ${request.messageType} is not supported` };
  const payload = request.payload;
  let message: unknown;
  try {
    if (payload?.case === "protobufPayload") message = codec.decode(payload.value as Uint8Array);
    else if (payload?.case === "jsonPayload") {
      const ignoreUnknownFields = request.testCategory === "JSON_IGNORE_UNKNOWN_PARSING_TEST";
      message = codec.fromJsonString(payload.value as string, { ignoreUnknownFields });
    } else if (payload?.case === "textPayload") message = codec.fromText(payload.value as string);
    else return { case: "skipped", value: `input ${payload?.case ?? "(none)"} is not supported` };
  } catch (e) {
    return deps.isInputError(e) ? { case: "parseError", value: describe(e) } : { case: "runtimeError", value: describe(e) };
  }
  try {
    if (request.requestedOutputFormat === "PROTOBUF") return { case: "protobufPayload", value: codec.encode(message) };
    if (request.requestedOutputFormat === "JSON") return { case: "jsonPayload", value: codec.toJsonString(message) };
    if (request.requestedOutputFormat === "TEXT_FORMAT") {
      return { case: "textPayload", value: codec.toText(message, { printUnknownFields: request.printUnknownFields === true }) };
    }
    return { case: "skipped", value: `output format ${String(request.requestedOutputFormat)} is not supported` };
  } catch (e) {
    return deps.isInputError(e) ? { case: "serializeError", value: describe(e) } : { case: "runtimeError", value: describe(e) };
  }
}
