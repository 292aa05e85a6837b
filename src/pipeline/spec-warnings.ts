/**
 * Warnings of a spec that generated: what it says that specforge keeps in a degraded form (see Diagnostics.warn and
 * EmitContext.warn). Each becomes one `warning` event; under `--strict` they are the spec's errors instead, so a
 * build can insist that nothing was degraded.
 */
import { SpecError, SpecErrors } from "../errors.js";
import type { SpecWarning } from "../ir/model.js";
import type { PipelineEvent } from "./events.js";
import type { SpecFailure } from "./spec-failures.js";

/** `file:line:col: warning: detail`, the way compilers print warnings (editors link to it). */
export function warningText(w: SpecWarning): string {
  return `${w.file}:${w.line}:${w.column}: warning: ${w.detail}`;
}

export function warningEvents(spec: string, warnings: readonly SpecWarning[]): PipelineEvent[] {
  return warnings.map((w): PipelineEvent => ({ type: "warning", spec, file: w.file, line: w.line, column: w.column, message: warningText(w) }));
}

/** `--strict`: a spec with warnings fails, each warning one of its errors (said to come from --strict). */
export function strictFailure(spec: string, warnings: readonly SpecWarning[]): SpecFailure | undefined {
  if (warnings.length === 0) return undefined;
  const errors = warnings.map((w) => new SpecError(w.file, w.line, w.column, `${w.detail} (a warning; --strict makes it an error)`));
  return { spec, errors: new SpecErrors(errors).errors, truncated: false };
}
