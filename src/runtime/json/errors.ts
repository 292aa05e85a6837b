/** A value that cannot be written as JSON: a non-finite number, a cycle, a function, a malformed int64 string. */
export class JsonEncodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JsonEncodeError";
  }
}
