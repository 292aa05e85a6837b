/**
 * Errors of the protobuf binary codecs. A decode error says what went wrong, at which byte offset, and on which
 * field path ("Response.entry[3].permalinkEntry.content.mimeType"); generated readers add the path segments as the
 * error travels up through them, so the hot path never tracks where it is.
 */
export class ProtobufDecodeError extends Error {
  /** Path segments from the root message down to the field ("entry[3]", "content", "mimeType"). */
  readonly path: string[] = [];
  /** The root message type, set by the generated `decode<T>` function. */
  root = "";
  /**
   * True while the error has not yet been claimed by a field: set for faults in a tag itself, which belong to the
   * message being read rather than to the field read before it.
   */
  detached = false;

  constructor(
    /** What went wrong, without the location: "truncated varint", "required field missing". */
    readonly reason: string,
    /** Byte offset in the input where the problem was found. */
    readonly offset: number,
  ) {
    super(reason);
    this.name = "ProtobufDecodeError";
    this.refresh();
  }

  /** The dotted field path, with the root type name in front once it is known. */
  get fieldPath(): string {
    return [this.root, ...this.path].filter((s) => s !== "").join(".");
  }

  /** Recompute `message` after the path changed. */
  refresh(): void {
    const where = this.fieldPath;
    this.message = `${where ? `${where}: ` : ""}${this.reason} (at byte ${this.offset})`;
  }
}

/** Thrown by encoders for values the wire format cannot carry (a missing required field, an unknown enum name). */
export class ProtobufEncodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProtobufEncodeError";
  }
}

export function pbFail(reason: string, offset: number): never {
  throw new ProtobufDecodeError(reason, offset);
}

/**
 * Called from a generated reader's catch block: prefix the field being read (and, for repeated fields, the index of
 * the element being read, which is the current length of the array) to the error's path.
 */
export function pbFieldError(error: unknown, field: string | undefined, message: object): unknown {
  if (!(error instanceof ProtobufDecodeError)) return error;
  if (error.detached) {
    error.detached = false;
    return error;
  }
  if (field === undefined) return error;
  const value: unknown = (message as Record<string, unknown>)[field];
  error.path.unshift(Array.isArray(value) ? `${field}[${value.length}]` : field);
  error.refresh();
  return error;
}

/** Called from a generated `decode<T>`: name the root message type. */
export function pbRootError(error: unknown, typeName: string): unknown {
  if (!(error instanceof ProtobufDecodeError)) return error;
  error.detached = false;
  error.root = typeName;
  error.refresh();
  return error;
}

/** A proto2 `required` field was absent once its message was fully read. */
export function pbMissingRequired(offset: number, field: string): never {
  const e = new ProtobufDecodeError("required field missing", offset);
  e.path.push(field);
  e.refresh();
  throw e;
}

export function pbEncodeMissingRequired(typeName: string, field: string): never {
  throw new ProtobufEncodeError(`${typeName}.${field}: required field missing`);
}

export function pbUnknownEnumName(enumName: string, value: unknown): never {
  throw new ProtobufEncodeError(`${String(value)} is not a value of enum ${enumName}`);
}
