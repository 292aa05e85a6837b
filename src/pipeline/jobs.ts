import { availableParallelism } from "node:os";
import { UsageError } from "../errors.js";

/** The most worker threads --jobs accepts: beyond this a typo (--jobs 1000) would only waste memory. */
export const MAX_JOBS = 64;

/**
 * `--jobs`: how many worker threads generate specs. A whole number from 1 to MAX_JOBS, or "auto" for one per core
 * the process may use (os.availableParallelism()). The default is 1 (no workers): each worker loads specforge anew,
 * which costs more than it saves for the few specs most projects have.
 */
export function parseJobs(value: string | number | undefined): number {
  if (value === undefined) return 1;
  const text = String(value).trim();
  if (text === "auto") return Math.min(MAX_JOBS, Math.max(1, availableParallelism()));
  if (!/^[0-9]+$/.test(text) || Number(text) < 1 || Number(text) > MAX_JOBS) {
    throw new UsageError(`--jobs: expected a whole number from 1 to ${MAX_JOBS} or "auto", got ${JSON.stringify(text)}`);
  }
  return Number(text);
}
