import { XmlDecodeError } from "./errors.js";

/**
 * Required + nillable elements that a request leaves out (XmlDecodeOptions.lenientNillable).
 *
 * The generated readers take (node, path) and nothing else, so the option cannot be handed down to them without
 * growing every reader's signature and call. Decoding is synchronous, though: the flag below is set for the duration
 * of one decode<E>Element call (and restored after, so a nested decode cannot leak it) and no other code runs in
 * between. The flag lives in the same module instance as the readers' xmlMissingNillable, so it holds even when an
 * application loads two copies of the runtime.
 */
let absentNillableIsNil = false;

export function readingAbsentNillableAsNil<T>(read: () => T): T {
  const before = absentNillableIsNil;
  absentNillableIsNil = true;
  try {
    return read();
  } finally {
    absentNillableIsNil = before;
  }
}

/** Generated readers: a required, nillable element is absent. Null when lenient, else the usual "missing" error. */
export function xmlMissingNillable(path: string, what: string): null {
  if (absentNillableIsNil) return null;
  throw new XmlDecodeError(path, `required ${what} is missing`);
}

/** Generated readers: a required, nillable element's value (null is xsi:nil); absent is null when lenient, else an error. */
export function xmlRequiredNillable<T>(value: T | undefined, path: string, what: string): T | null {
  return value !== undefined ? value : xmlMissingNillable(path, what);
}
