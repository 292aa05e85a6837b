/**
 * Error collection for one spec. A parser that meets a recoverable error (an unknown type reference, a duplicate
 * name or field number, a bad construct in one declaration) records it and goes on with the next declaration, so
 * one run reports every mistake, like tsc. Errors that leave nothing sensible to go on with (a syntax error, an
 * unreadable import) still end the parse; they join the errors recorded so far.
 *
 * A parse that recorded errors never returns its (partial) IR: `run` throws a SpecErrors with all of them.
 */
import { SpecError, SpecErrors } from "../errors.js";

/**
 * How many errors one spec reports at most. Past this many the parser stops (the rest are usually consequences of
 * the first ones). Documented in docs/cli.md ("Errors").
 */
export const MAX_ERRORS_PER_SPEC = 20;

export class Diagnostics {
  private readonly errors: SpecError[] = [];
  private readonly seen = new Set<string>();

  constructor(readonly limit: number = MAX_ERRORS_PER_SPEC) {}

  get count(): number {
    return this.errors.length;
  }

  /**
   * Record an error. One error per place: a second one at the same file:line:col is a consequence of the first
   * (a duplicate field is also a duplicate JSON name), and an error met again on another path is the same error.
   * Throws when the limit is reached.
   */
  report(error: SpecError): void {
    for (const e of error instanceof SpecErrors ? error.errors : [error]) {
      const place = `${e.file}:${e.line}:${e.column}`;
      if (this.seen.has(place)) continue;
      this.seen.add(place);
      this.errors.push(e);
      if (this.errors.length >= this.limit) throw this.collected(true);
    }
  }

  /**
   * Run one independent piece of lowering (a declaration, a field, an operation). A SpecError it throws is recorded
   * and `undefined` returned, so the caller skips that piece and goes on. Other errors (bugs) pass through.
   */
  recover<T>(work: () => T): T | undefined {
    try {
      return work();
    } catch (e) {
      if (!(e instanceof SpecError) || e instanceof ErrorLimitReached) throw e;
      this.report(e);
      return undefined;
    }
  }

  /** Throw everything recorded so far, if anything (before a step that needs earlier ones to have succeeded). */
  check(): void {
    if (this.errors.length > 0) throw this.collected(false);
  }

  /**
   * A whole parse: its result when no error was recorded; otherwise a SpecErrors with every recorded error and the
   * one that ended the parse, if one did.
   */
  run<T>(parse: () => T): T {
    let result: T;
    try {
      result = parse();
    } catch (e) {
      if (!(e instanceof SpecError) || e instanceof ErrorLimitReached) throw e;
      this.report(e);
      throw this.collected(false);
    }
    this.check();
    return result;
  }

  private collected(atLimit: boolean): SpecErrors {
    // With a limit of 1 (callers that want the first error only) there is nothing to say about stopping.
    return atLimit ? new ErrorLimitReached(sortByPosition(this.errors), this.limit > 1) : new SpecErrors(sortByPosition(this.errors));
  }
}

/** Thrown when the limit is reached: it ends the parse, through every `recover` on the way out. */
class ErrorLimitReached extends SpecErrors {}

/** Sorted like a compiler's output: by file, then line, then column; ties keep the order they were found in. */
export function sortByPosition(errors: readonly SpecError[]): SpecError[] {
  return errors
    .map((e, i) => ({ e, i }))
    .sort((a, b) => (a.e.file < b.e.file ? -1 : a.e.file > b.e.file ? 1 : 0) || a.e.line - b.e.line || a.e.column - b.e.column || a.i - b.i)
    .map((x) => x.e);
}
