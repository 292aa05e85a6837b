/**
 * A spec that failed, as generate, check and watch report it: every error of the spec (parsers collect up to
 * MAX_ERRORS_PER_SPEC, see src/parsers/diagnostics.ts), each as one `error` event naming the spec and its location.
 */
import { SpecError, SpecErrors, type UsageError } from "../errors.js";
import type { PipelineEvent } from "./events.js";

export interface SpecFailure {
  /** The spec as the user names it (SpecInput.display). */
  readonly spec: string;
  readonly errors: readonly (SpecError | UsageError)[];
  /** The parser stopped at the error limit: there may be more. */
  readonly truncated: boolean;
}

export function specFailure(spec: string, error: SpecError | UsageError): SpecFailure {
  if (error instanceof SpecErrors) return { spec, errors: error.errors, truncated: error.truncated };
  return { spec, errors: [error], truncated: false };
}

/** One `error` event per error; `message` is the whole `file:line:col: message` line, location fields beside it. */
export function errorEvents(failure: SpecFailure): PipelineEvent[] {
  return failure.errors.map((e): PipelineEvent =>
    e instanceof SpecError
      ? { type: "error", spec: failure.spec, file: e.file, line: e.line, column: e.column, message: e.message }
      : { type: "error", spec: failure.spec, message: e.message },
  );
}
