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

/**
 * Every error found in one spec (parsers keep going after a recoverable error), sorted by file, line and column.
 * It is a SpecError located at the first of them, so callers that only want one error still get a sensible one;
 * `message` lists them all, one `file:line:col: message` per line.
 */
export class SpecErrors extends SpecError {
  constructor(
    readonly errors: readonly SpecError[],
    /** True when the parser stopped at the error limit: there may be more. */
    readonly truncated: boolean = false,
  ) {
    const first = errors[0]!;
    super(first.file, first.line, first.column, first.detail);
    this.name = "SpecErrors";
    const lines = errors.map((e) => e.message);
    if (truncated) lines.push(`(stopped after ${errors.length} errors)`);
    this.message = lines.join("\n");
  }
}

/**
 * A generate/check run where some specs failed: every error of every spec, already reported as events. The
 * message is what a terminal shows: the errors one per line, then `N errors in M specs`.
 */
export class RunErrors extends Error {
  constructor(
    readonly failures: readonly { readonly spec: string; readonly errors: readonly (SpecError | UsageError)[]; readonly truncated: boolean }[],
  ) {
    const count = failures.reduce((n, f) => n + f.errors.length, 0);
    const lines = failures.flatMap((f) => [...f.errors.map((e) => e.message), ...(f.truncated ? [`${f.spec}: stopped after ${f.errors.length} errors`] : [])]);
    lines.push(`${count} error${count === 1 ? "" : "s"} in ${failures.length} spec${failures.length === 1 ? "" : "s"}`);
    super(lines.join("\n"));
    this.name = "RunErrors";
  }

  get errorCount(): number {
    return this.failures.reduce((n, f) => n + f.errors.length, 0);
  }
}
