/**
 * Error collection for one spec. A parser that meets a recoverable error (an unknown type reference, a duplicate
 * name or field number, a bad construct in one declaration) records it and goes on with the next declaration, so
 * one run reports every mistake, like tsc. Errors that leave nothing sensible to go on with (a syntax error, an
 * unreadable import) still end the parse; they join the errors recorded so far.
 *
 * A parse that recorded errors never returns its (partial) IR: `run` throws a SpecErrors with all of them.
 */
import { SpecError, SpecErrors } from "../errors.js";
import type { IrDocument, SpecWarning } from "../ir/model.js";

/**
 * How many errors one spec reports at most. Past this many the parser stops (the rest are usually consequences of
 * the first ones). Documented in docs/cli.md ("Errors").
 */
export const MAX_ERRORS_PER_SPEC = 20;

/**
 * How many warnings one spec keeps at most. A document that degrades one construct thousands of times says the same
 * thing thousands of times; the count past this is kept (`warningsDropped`) so reports can say how many there were.
 */
export const MAX_WARNINGS_PER_SPEC = 1000;

export class Diagnostics {
  private readonly errors: SpecError[] = [];
  private readonly seen = new Set<string>();
  private readonly warnings: SpecWarning[] = [];
  private readonly seenWarnings = new Set<string>();
  /** Warnings past MAX_WARNINGS_PER_SPEC, counted but not kept. */
  warningsDropped = 0;

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
   * Record a warning: something the spec says that is kept in a degraded form (a type widened, a keyword left to a
   * looser check) instead of refusing the document. Located like an error; the same warning at the same place is
   * kept once.
   */
  warn(at: SpecError | Omit<SpecWarning, "detail">, detail?: string): void {
    const w: SpecWarning = at instanceof SpecError
      ? { file: at.file, line: at.line, column: at.column, detail: detail ?? at.detail }
      : { file: at.file, line: at.line, column: at.column, detail: detail ?? "" };
    const key = `${w.file}:${w.line}:${w.column}: ${w.detail}`;
    if (this.seenWarnings.has(key)) return;
    this.seenWarnings.add(key);
    if (this.warnings.length >= MAX_WARNINGS_PER_SPEC) {
      this.warningsDropped++;
      return;
    }
    this.warnings.push(w);
  }

  /** The warnings recorded so far, sorted like errors (by file, line, column). */
  get warningList(): readonly SpecWarning[] {
    return sortByPosition(this.warnings);
  }

  /** A whole parse that yields an IR document (see `run`), with the warnings recorded on the way attached to it. */
  document(parse: () => IrDocument): IrDocument {
    const doc = this.run(parse);
    return this.warnings.length === 0 ? doc : { ...doc, warnings: this.warningList };
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
export function sortByPosition<T extends Omit<SpecWarning, "detail">>(errors: readonly T[]): T[] {
  return errors
    .map((e, i) => ({ e, i }))
    .sort((a, b) => (a.e.file < b.e.file ? -1 : a.e.file > b.e.file ? 1 : 0) || a.e.line - b.e.line || a.e.column - b.e.column || a.i - b.i)
    .map((x) => x.e);
}
