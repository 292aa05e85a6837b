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

/** JSON text to a value; malformed text is a ProtoJsonError like any other bad input. */
export function parseProtoJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ProtoJsonError("", `malformed JSON: ${(e as Error).message}`);
  }
}
