import { jsonParse } from "../json/parse.js";
import { ProtoJsonError } from "./errors.js";

/**
 * The entry point of every generated fromJson/toJson: runs the specialised reader from the root and turns a stack
 * overflow (input nested deeper than the engine's stack, which untrusted JSON can do) into a ProtoJsonError.
 */
export function protoJsonGuard<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof RangeError && /call stack/i.test(e.message)) throw new ProtoJsonError("", "value nested too deeply");
    throw e;
  }
}

/**
 * JSON text to a value; malformed text is a ProtoJsonError like any other bad input. Our own parser rather than
 * JSON.parse: integers beyond 2^53 arrive as exact bigints (an unquoted int64 max value must not be rounded), and a
 * key given twice is refused (JSON.parse would silently keep the last one).
 */
export function parseProtoJsonText(text: string): unknown {
  try {
    return jsonParse(text, { bigints: true });
  } catch (e) {
    throw new ProtoJsonError("", `malformed JSON: ${(e as Error).message}`);
  }
}
