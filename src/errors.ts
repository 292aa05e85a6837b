/**
 * A problem in a spec file, reported as `file:line:col: message` (the format compilers use, so editors link to it).
 * Parsers throw it; the CLI prints `message` without a stack trace and exits 1.
 */
export class SpecError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly detail: string,
  ) {
    super(`${file}:${line}:${column}: ${detail}`);
    this.name = "SpecError";
  }
}

/** A problem with how specforge was called (bad flag, missing file). Printed as is, exit code 1. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
